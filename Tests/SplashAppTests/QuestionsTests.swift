// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

@testable import SplashApp

/// Questions asked on a held splash, in process, answered at a
/// pseudo-terminal standing in for the console.
@Suite struct QuestionsTests {
  /// A splash asking a question is not handed over (its answer would be
  /// lost with it); once answered, it may be.
  @Test func aSplashAskingAQuestionIsNotHandedOver() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    var asker: TestClient?
    var adopter: [String] = []
    var answer: [String] = []
    splash.clock.at(0.5) {
      asker = TestClient(splash.controlPath)
      asker?.send("ask-password Disk\n")
    }
    splash.clock.at(1) {
      let client = TestClient(splash.controlPath)
      client.send("handover\n")
      splash.clock.at(1.1) { adopter = client.replies }
    }
    splash.clock.at(2) { console.type("pw\r") }
    splash.clock.at(2.1) {
      answer = asker?.replies ?? []
      TestClient(splash.controlPath).send("reveal\n")
    }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath, "--prompt-tty", console.terminal,
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(adopter == ["error handover: a question waits for its answer here"])
    #expect(answer == ["ok pw"])
    #expect(splash.revealReason == "splashctl reveal")
  }

  /// A question that cannot be asked (the prompt's terminal is not one)
  /// is answered with why, naming the terminal, not with "the splash ended
  /// first": the splash goes on.
  @Test func aQuestionThatCannotBeAskedSaysWhy() throws {
    let splash = try Harness()
    var answer: [String] = []
    var status: [String] = []
    splash.clock.at(0.5) {
      let asker = TestClient(splash.controlPath)
      asker.send("ask-password Disk\n")
      splash.clock.at(0.6) {
        answer = asker.replies
        let client = TestClient(splash.controlPath)
        client.send("status\n")
        splash.clock.at(0.7) {
          status = client.replies
          TestClient(splash.controlPath).send("reveal\n")
        }
      }
    }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath, "--prompt-tty", "/dev/null",
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(answer == ["error ask-password: no answer: /dev/null: not a terminal"])
    #expect(status.first?.hasPrefix("ok phase=waiting ") == true, "\(status)")
    #expect(splash.revealReason == "splashctl reveal")
  }
}
