// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// systemd's watchdog fed from the run loop: `WATCHDOG=1` at half the
/// interval systemd asked for (`Watchdog`), as a wake of the loop, so that
/// a loop that is blocked sends nothing; and none while the display is
/// stuck (a page flip overdue), so that systemd restarts a splashd that
/// shows nothing any more. Without `WATCHDOG_USEC` there is none.
final class WatchdogPinger: EventSource {
  private let watchdog: Watchdog
  private let clock: EventClock
  /// Sends a notify line to systemd.
  private let send: (String) -> Void
  /// Whether the display is stuck now.
  private let displayStuck: () -> Bool
  private let log: Log
  /// When the next `WATCHDOG=1` is due.
  private var due: Double
  /// When each `WATCHDOG=1` went out (the tests look at them).
  private(set) var sent: [Double] = []
  /// Whether the pings are withheld now (said once each time).
  private var withheld = false

  init(
    _ watchdog: Watchdog, clock: EventClock, send: @escaping (String) -> Void,
    displayStuck: @escaping () -> Bool, log: Log
  ) {
    self.watchdog = watchdog
    self.clock = clock
    self.send = send
    self.displayStuck = displayStuck
    self.log = log
    due = clock.now()
    log.info("systemd's watchdog: WATCHDOG=1 every \(formatNumber(watchdog.pingInterval)) s from the run loop")
  }

  var descriptors: [FileDescriptor] { [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {}

  var wakeTime: Double? { due }

  func wake() {
    let now = clock.now()
    guard now >= due else { return }
    due = watchdog.nextPing(after: now)
    guard Watchdog.mayPing(displayStuck: displayStuck()) else {
      if !withheld {
        log.error("systemd's watchdog: the display has not completed a page flip in time; WATCHDOG=1 withheld")
      }
      withheld = true
      return
    }
    if withheld { log.info("systemd's watchdog: the display completes its page flips again") }
    withheld = false
    send("WATCHDOG=1")
    sent.append(now)
  }
}
