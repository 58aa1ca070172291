// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore

/// A clock that run loops wait on: it tells the time and waits for
/// descriptors to become ready until a deadline. `MonotonicClock` is the
/// real one; tests drive the run loop with a clock of their own.
public protocol EventClock: AnyObject {
  /// The current time, in seconds, on a monotonic clock.
  func now() -> Double
  /// Waits until one of `descriptors` is ready (their `revents` set) or the
  /// clock reads `deadline`, whichever comes first; true when one is ready.
  func poll(_ descriptors: inout [pollfd], until deadline: Double) -> Bool
}

/// CLOCK_MONOTONIC in seconds, with sleeps to an absolute deadline.
public final class MonotonicClock: EventClock, Sendable {
  public init() {}

  /// Seconds on CLOCK_MONOTONIC.
  public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }

  /// Sleeps until CLOCK_MONOTONIC reads `deadline`.
  private func sleep(until deadline: Double) {
    guard deadline.isFinite else { return }
    var ts = timespec()
    ts.tv_sec = Int(deadline.rounded(.down))
    ts.tv_nsec = Int((deadline - Double(ts.tv_sec)) * 1e9)
    // clock_nanosleep returns its error rather than setting errno.
    _ = try? retryingInterrupts("clock_nanosleep") { () -> Int32 in
      let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
      if result == 0 { return 0 }
      errno = result
      return -1
    }
  }

  /// Waits in poll(2) for whole milliseconds, then sleeps the rest exactly.
  public func poll(_ descriptors: inout [pollfd], until deadline: Double) -> Bool {
    while true {
      let remaining = deadline - now()
      // No deadline waits for ever; one that has passed does not wait at all.
      let milliseconds = remaining == .infinity ? -1 : Int32(max(0, min(remaining * 1000, 3_600_000)).rounded(.down))
      let count = descriptors.count
      let ready = (try? retryingInterrupts("poll") { Glibc.poll(&descriptors, nfds_t(count), milliseconds) }) ?? -1
      if ready > 0 { return true }
      if ready < 0 { return false }
      if deadline - now() < 0.001 {
        sleep(until: deadline)
        return false
      }
    }
  }
}
