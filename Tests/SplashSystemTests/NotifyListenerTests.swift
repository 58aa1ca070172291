// SPDX-License-Identifier: Apache-2.0
import SplashSystem
import Testing

/// The notify sockets of programs splashd starts itself.
@Suite struct NotifyListenerTests {
  /// Two listeners open at once in one process (a restarted program's and
  /// its predecessor's, or two sessions in one test process) each have a
  /// name of their own (before: both took `@splashd/PID/notify`, and the
  /// second failed with EADDRINUSE).
  @Test func twoListenersAtOnceHaveNamesOfTheirOwn() throws {
    let first = try NotifyListener()
    let second = try NotifyListener()
    #expect(first.name != second.name)
    #expect(first.name.hasPrefix("@splashd/") && second.name.hasPrefix("@splashd/"))
  }
}
