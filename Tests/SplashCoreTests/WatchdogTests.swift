// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// systemd's watchdog read as `sd_watchdog_enabled` reads it.
@Suite struct WatchdogTests {
  @Test func theIntervalComesFromWatchdogUsecAndPingsGoAtItsHalf() throws {
    let watchdog = try #require(Watchdog(environment: ["WATCHDOG_USEC": "30000000"], processID: 42))
    #expect(watchdog.interval == 30 && watchdog.pingInterval == 15)
    #expect(watchdog.nextPing(after: 100) == 115)
  }

  @Test func withoutWatchdogUsecOrWithABadOneThereIsNone() {
    #expect(Watchdog(environment: [:], processID: 42) == nil)
    for bad in ["", "0", "-5", "abc", "12s", "1.5", "18446744073709551615", "99999999999999999999999"] {
      #expect(Watchdog(environment: ["WATCHDOG_USEC": bad], processID: 42) == nil, "\(bad)")
    }
  }

  /// WATCHDOG_PID names the process the watchdog is meant for: a parent's
  /// environment passed on to another process is not that process's.
  @Test func watchdogPidOfAnotherProcessIsNotOurs() {
    let asked = ["WATCHDOG_USEC": "2000000"]
    #expect(Watchdog(environment: asked.merging(["WATCHDOG_PID": "42"]) { $1 }, processID: 42)?.interval == 2)
    #expect(Watchdog(environment: asked.merging(["WATCHDOG_PID": "41"]) { $1 }, processID: 42) == nil)
    #expect(Watchdog(environment: asked.merging(["WATCHDOG_PID": "x"]) { $1 }, processID: 42) == nil)
    #expect(Watchdog(environment: asked.merging(["WATCHDOG_PID": "0"]) { $1 }, processID: 42) == nil)
  }

  @Test func aStuckDisplayWithholdsThePing() {
    #expect(Watchdog.mayPing(displayStuck: false))
    #expect(!Watchdog.mayPing(displayStuck: true))
  }
}
