import Glibc
import SplashCore

/// CLOCK_MONOTONIC in seconds, with sleeps to an absolute deadline.
public final class MonotonicClock: PresentationClock, Sendable {
  public init() {}

  /// Seconds on CLOCK_MONOTONIC.
  public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
  }

  /// Sleeps until CLOCK_MONOTONIC reads `deadline`, resuming after signals.
  public func sleep(until deadline: Double) {
    guard deadline.isFinite else { return }
    var ts = timespec()
    ts.tv_sec = Int(deadline.rounded(.down))
    ts.tv_nsec = Int((deadline - Double(ts.tv_sec)) * 1e9)
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
  }
}
