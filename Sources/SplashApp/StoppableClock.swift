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
    guard let stopSignals else { return monotonic.sleep(until: deadline) }
    if monotonic.sleep(until: deadline, wakingFor: [stopSignals.descriptor]) != nil { try checkForStop() }
  }

  func checkForStop() throws {
    if let signal = stopSignals?.arrived() { throw PlaybackInterrupted(reason: signal) }
  }
}
