import SplashCore
import SplashSystem

/// The monotonic clock, with sleeps that end early when SIGTERM or SIGINT
/// arrives: playback then stops with `PlaybackInterrupted`.
final class StoppableClock: PresentationClock {
  let monotonic: MonotonicClock
  let stopSignals: StopSignals?

  init(_ monotonic: MonotonicClock, stopSignals: StopSignals?) {
    self.monotonic = monotonic
    self.stopSignals = stopSignals
  }

  func now() -> Double { monotonic.now() }

  func sleep(until deadline: Double) throws {
    _ = try sleep(until: deadline, wakingFor: [])
  }

  /// Sleeps until `deadline` or until one of `descriptors` is readable;
  /// returns that descriptor, or nil at the deadline.
  func sleep(until deadline: Double, wakingFor descriptors: [FileDescriptor]) throws -> FileDescriptor? {
    let watched = descriptors + (stopSignals.map { [$0.descriptor] } ?? [])
    if watched.isEmpty {
      monotonic.sleep(until: deadline)
      return nil
    }
    while true {
      guard let woke = monotonic.sleep(until: deadline, wakingFor: watched) else { return nil }
      if woke != stopSignals?.descriptor { return woke }
      try checkForStop()
    }
  }

  func checkForStop() throws {
    if let signal = stopSignals?.arrived() { throw PlaybackInterrupted(reason: signal) }
  }
}
