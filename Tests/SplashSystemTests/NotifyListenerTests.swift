// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem
import SplashTestSupport
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

  /// A listener closed while a child forked meanwhile still holds its
  /// socket keeps its name bound; the next listener, which may get the same
  /// descriptor number, still binds (before: the name came from the
  /// descriptor, and the next bind failed with EADDRINUSE, as a forked crash
  /// test running beside the watchdog's tests once made it). Not under
  /// ThreadSanitizer, where such a child blocked for good.
  @Test(.enabled(if: !runsUnderThreadSanitizer)) func aListenerAfterOneAForkedChildStillHoldsBinds() throws {
    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    var child: pid_t = -1
    var firstName = ""
    do {
      let first = try NotifyListener()
      firstName = first.name
      child = fork()
      try #require(child >= 0)
      if child == 0 {
        // Holds the inherited socket until the parent closes the pipe.
        alarm(20)
        close(pipeEnds[1])
        var byte: UInt8 = 0
        _ = read(pipeEnds[0], &byte, 1)
        _exit(0)
      }
    }
    let second = try NotifyListener()
    #expect(second.name != firstName)
    close(pipeEnds[0])
    close(pipeEnds[1])
    _ = try statusOfChild(child)
  }
}
