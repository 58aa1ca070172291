// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct RestartPolicyTests {
  @Test func onFailureRestartsAFailureOrASignalButNotASuccess() {
    #expect(RestartPolicy.onFailure.decide(status: 1, restarts: 0, limit: 3, stopping: false) == .restart(after: 0.5))
    #expect(RestartPolicy.onFailure.decide(status: 137, restarts: 0, limit: 3, stopping: false) == .restart(after: 0.5))
    #expect(RestartPolicy.onFailure.decide(status: 0, restarts: 0, limit: 3, stopping: false) == .end)
    #expect(RestartPolicy.always.decide(status: 0, restarts: 0, limit: 3, stopping: false) == .restart(after: 0.5))
    #expect(RestartPolicy.no.decide(status: 1, restarts: 0, limit: 3, stopping: false) == .end)
  }

  /// SIGTERM to splashd ends the program too: that is no failure to restart.
  @Test func aStopAskedOfSplashdIsNeverRestarted() {
    #expect(RestartPolicy.always.decide(status: 143, restarts: 0, limit: 3, stopping: true) == .end)
  }

  @Test func theLimitGivesUp() {
    #expect(RestartPolicy.always.decide(status: 1, restarts: 2, limit: 3, stopping: false) == .restart(after: 2))
    #expect(RestartPolicy.always.decide(status: 1, restarts: 3, limit: 3, stopping: false) == .giveUp)
  }

  @Test func thePauseDoublesUpToItsLongest() {
    #expect((1...7).map { RestartDecision.pause(before: $0) } == [0.5, 1, 2, 4, 8, 8, 8])
  }

  @Test func theMessageNamesHowTheProgramEnded() {
    #expect(
      RestartDecision.restart(after: 1).message(program: "foot", status: 1, restarts: 0)
        == "foot ended with status 1; starting it again (restart 1)")
    #expect(
      RestartDecision.giveUp.message(program: "cog", status: 137, restarts: 2)
        == "cog was ended by signal 9; not started again after 2 restarts")
    #expect(RestartDecision.end.message(program: "foot", status: 0, restarts: 0) == nil)
  }
}
