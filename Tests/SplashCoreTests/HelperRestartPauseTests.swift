// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// How long a helper that ended (the on-screen keyboard) waits before it
/// is started again.
@Suite struct HelperRestartPauseTests {
  /// Each end at once doubles the pause, up to a minute; one that lasted
  /// brings it back to a second, and the doubling starts again.
  @Test func failuresAtOnceDoubleThePauseAndALongLifeResetsIt() {
    var pauses = HelperRestartPause()
    let atOnce = (0..<8).map { _ in pauses.afterEnd(lasted: 0.2) }
    #expect(atOnce == [1, 2, 4, 8, 16, 32, 60, 60])
    #expect(pauses.afterEnd(lasted: HelperRestartPause.shortLife) == 1)
    #expect(pauses.afterEnd(lasted: 3) == 2)
    #expect(pauses.afterEnd(lasted: 3600) == 1)
  }
}
