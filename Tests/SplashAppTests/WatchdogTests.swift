// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// systemd's watchdog fed from the run loop, on the test clock: WATCHDOG=1
/// at half the interval while the loop turns, none while it is blocked or
/// while the display is stuck, none unless systemd asked this process for
/// it. The datagrams go to a notify socket of the test's, as systemd's.
@Suite struct WatchdogLivenessTests {
  let quick = ["--display", "screen", "--size", "32x32", "--duration", "0.05", "--hold", "10"]

  /// What systemd got: every line of the datagrams to its notify socket,
  /// read as it would, each half second of the test clock (the socket
  /// holds only a few).
  final class Systemd {
    let socket: NotifyListener
    private(set) var lines: [String] = []
    init() throws { socket = try NotifyListener() }
    func read() { lines += socket.received(limit: 10_000).flatMap(\.lines) }
    var pings: Int { lines.filter { $0 == "WATCHDOG=1" }.count }
  }

  /// A harness whose splash runs under a notify socket of the test's, with
  /// the watchdog's variables `watchdog` (none when empty).
  func harness(_ watchdog: [String: String]) throws -> (Harness, Systemd) {
    let splash = try Harness()
    splash.screens.size = PixelSize(width: 32, height: 32)
    let systemd = try Systemd()
    splash.environment["NOTIFY_SOCKET"] = systemd.socket.name
    splash.environment.merge(watchdog) { $1 }
    for half in 0..<40 { splash.clock.at(Double(half) / 2 + 0.25) { systemd.read() } }
    return (splash, systemd)
  }

  /// The WATCHDOG=1 lines systemd got, once the run is over.
  func pings(_ systemd: Systemd) -> Int {
    systemd.read()
    return systemd.pings
  }

  var ours: [String: String] { ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getpid())] }

  /// splashd's own process (it handles crashes) under a watchdog: a crash
  /// turns the watchdog off (WATCHDOG_USEC=0) before it hands over, as the
  /// hand-over by execve does. In a forked child, under the test's
  /// notify socket; not under ThreadSanitizer, whose runtime does not
  /// support a child of a threaded process that goes on running Swift (it
  /// spun there for good once).
  @Test(.enabled(if: !runsUnderThreadSanitizer)) func aCrashTurnsTheWatchdogOff() throws {
    let systemd = try Systemd()
    let status = try statusOfAForkedChild {
      let lifecycle = Lifecycle(
        started: 0, notifySocket: systemd.socket.name, environment: ours, processID: getpid(), handlesCrashes: true,
        log: Log { _ in })
      withExtendedLifetime(lifecycle) { _ = kill(getpid(), SIGSEGV) }
    }
    #expect(status & 0x7f == SIGSEGV, "the child ended with \(status), not by its SIGSEGV")
    systemd.read()
    #expect(systemd.lines == ["WATCHDOG_USEC=0"])
  }

  @Test func pingsGoAtHalfTheIntervalWhileTheLoopRuns() throws {
    let (splash, systemd) = try harness(ours)
    #expect(splash.run(quick) == .exit(0))
    let sent = try #require(splash.session?.watchdog?.sent)
    // The hold is 10 s: a ping each second of it.
    #expect(sent.count >= 10 && sent.count <= 12, "\(sent)")
    for (earlier, later) in zip(sent, sent.dropFirst()) { #expect(abs(later - earlier - 1) < 0.05, "\(sent)") }
    #expect(pings(systemd) == sent.count)
  }

  /// A loop that is blocked (here, 5 s inside one of its turns) sends
  /// nothing meanwhile: the pings come from the loop, not a timer thread.
  @Test func aBlockedLoopSendsNothing() throws {
    let (splash, systemd) = try harness(ours)
    splash.clock.at(3.5) { splash.clock.advance(by: 5) }
    #expect(splash.run(quick) == .exit(0))
    let sent = try #require(splash.session?.watchdog?.sent)
    #expect(!sent.contains { $0 > 103.5 && $0 < 108.5 }, "\(sent)")
    #expect(sent.contains { $0 >= 108.5 }, "\(sent)")
    #expect(pings(systemd) == sent.count)
  }

  /// A page flip stuck past its timeout withholds the pings (systemd then
  /// restarts splashd); they go again once the display completes flips.
  @Test func aStuckDisplayWithholdsThePings() throws {
    let (splash, systemd) = try harness(ours)
    splash.clock.at(2.5) { splash.screens.opened.last?.flipsStuckSince = splash.clock.now() }
    splash.clock.at(7.5) { splash.screens.opened.last?.flipsStuckSince = nil }
    #expect(splash.run(quick) == .exit(0))
    let sent = try #require(splash.session?.watchdog?.sent)
    #expect(!sent.contains { $0 > 103.5 + 1e-9 && $0 < 107.5 }, "\(sent)")
    #expect(sent.contains { $0 < 102.5 } && sent.contains { $0 >= 107.5 }, "\(sent)")
    #expect(pings(systemd) == sent.count)
    #expect(splash.lines.contains { $0.contains("WATCHDOG=1 withheld") }, "\(splash.lines)")
  }

  @Test func withoutWatchdogUsecNothingIsSent() throws {
    let (splash, systemd) = try harness([:])
    #expect(splash.run(quick) == .exit(0))
    #expect(splash.session?.watchdog == nil)
    #expect(pings(systemd) == 0)
  }

  /// WATCHDOG_PID of another process (a parent's environment passed on):
  /// not ours, as systemd's own reader says.
  @Test func watchdogPidOfAnotherProcessIsHonoured() throws {
    let (splash, systemd) = try harness(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getppid())])
    #expect(splash.run(quick) == .exit(0))
    #expect(splash.session?.watchdog == nil)
    #expect(pings(systemd) == 0)
  }

  /// A program that takes splashd's place (execve) does not feed splashd's
  /// watchdog: systemd is told to watch no more.
  @Test func aHandOffInPlaceTurnsTheWatchdogOff() throws {
    let (splash, systemd) = try harness(ours)
    let ending = splash.run(quick + ["--", "/bin/true"])
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    systemd.read()
    #expect(systemd.lines.last == "WATCHDOG_USEC=0", "\(systemd.lines)")
  }
}
