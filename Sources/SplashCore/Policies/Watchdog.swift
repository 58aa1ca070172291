// SPDX-License-Identifier: Apache-2.0
/// systemd's service watchdog (`WatchdogSec=`) as splashd keeps it: whether
/// systemd asked for it, as `sd_watchdog_enabled` reads the environment,
/// and when the next `WATCHDOG=1` is due. The run loop sends it (a loop
/// that is blocked sends nothing), and not while the display is stuck, so
/// that systemd restarts a splashd that no longer shows anything.
public struct Watchdog: Equatable, Sendable {
  /// The interval systemd waits for a `WATCHDOG=1`, in seconds.
  public let interval: Double

  /// The watchdog systemd asked process `processID` for, from its
  /// environment's `WATCHDOG_USEC` (microseconds, a whole number above 0)
  /// and `WATCHDOG_PID` (when set, the process it is meant for: another
  /// process's, such as a parent's that passed its environment on, is not
  /// ours); nil when it asked for none, or said it in a way systemd's own
  /// reader refuses.
  public init?(environment: [String: String], processID: Int32) {
    guard let text = environment["WATCHDOG_USEC"], let microseconds = Watchdog.wholeNumber(text),
      microseconds > 0, microseconds < UInt64.max
    else { return nil }
    if let pid = environment["WATCHDOG_PID"] {
      guard let owner = Watchdog.wholeNumber(pid), owner > 0, owner == UInt64(processID) else { return nil }
    }
    interval = Double(microseconds) / 1_000_000
  }

  /// How often `WATCHDOG=1` goes out: at half the interval, as systemd
  /// advises, so that a late turn of the loop is not yet a miss.
  public var pingInterval: Double { interval / 2 }

  /// When the next `WATCHDOG=1` is due after one sent at `sent`.
  public func nextPing(after sent: Double) -> Double { sent + pingInterval }

  /// Whether a `WATCHDOG=1` goes out now: only while the display is not
  /// stuck (a page flip overdue past its timeout).
  public static func mayPing(displayStuck: Bool) -> Bool { !displayStuck }

  /// The digits of `text` as a number (surrounding blanks allowed, as
  /// systemd's `safe_atou64` allows leading ones; no sign); nil otherwise.
  private static func wholeNumber(_ text: String) -> UInt64? {
    let trimmed = text.trimmingBlanks
    guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return UInt64(trimmed)
  }
}

extension String {
  /// Without the spaces, tabs and line breaks at either end.
  fileprivate var trimmingBlanks: Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    let start = firstIndex { !blank($0) } ?? endIndex
    let end = lastIndex { !blank($0) }.map { index(after: $0) } ?? start
    return self[start..<max(start, end)]
  }
}
