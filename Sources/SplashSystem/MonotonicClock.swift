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

  /// Sleeps until `deadline` or until one of `descriptors` is readable,
  /// whichever comes first; returns that descriptor, or nil at the deadline.
  /// Waits in poll(2) for whole milliseconds, then sleeps the rest exactly.
  public func sleep(until deadline: Double, wakingFor descriptors: [FileDescriptor]) -> FileDescriptor? {
    var polled = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    while true {
      let remaining = deadline - now()
      let milliseconds = remaining.isFinite ? Int32(max(0, min(remaining * 1000, 3_600_000)).rounded(.down)) : -1
      let ready = poll(&polled, nfds_t(polled.count), milliseconds)
      if ready > 0, let index = polled.firstIndex(where: { $0.revents != 0 }) { return descriptors[index] }
      if ready == -1 && errno != EINTR { return nil }
      if ready == 0 && deadline - now() < 0.001 {
        sleep(until: deadline)
        return nil
      }
    }
  }
}
