import SplashCore
import SplashSystem

/// The monotonic clock, with sleeps that end early when SIGTERM or SIGINT
/// arrives or `splashctl quit` does: playback then stops with
/// `PlaybackInterrupted`. Its waits also serve the control socket.
final class StoppableClock: PresentationClock {
  let monotonic: MonotonicClock
  let stopSignals: StopSignals?
  var control: ControlServer?
  /// An accelerometer followed while the splash holds.
  var follower: OrientationFollower?
  /// Signals that arrived during the splash, for a spawned program to hear of.
  private(set) var signalsForProgram: [Int32] = []

  init(_ monotonic: MonotonicClock, stopSignals: StopSignals?) {
    self.monotonic = monotonic
    self.stopSignals = stopSignals
  }

  func now() -> Double { monotonic.now() }

  func sleep(until deadline: Double) throws {
    while try sleep(until: deadline, wakingFor: []) != nil {}
  }

  /// Sleeps until `deadline` or until one of `descriptors` is readable or a
  /// control client has been served; returns the descriptor that woke it,
  /// or nil at the deadline.
  func sleep(until deadline: Double, wakingFor descriptors: [FileDescriptor]) throws -> FileDescriptor? {
    let signals = stopSignals.map { [$0.descriptor] } ?? []
    let watched = descriptors + signals + (control?.descriptors ?? []) + (follower?.descriptors ?? [])
    if watched.isEmpty {
      monotonic.sleep(until: deadline)
      return nil
    }
    guard let woke = monotonic.sleep(until: deadline, wakingFor: watched) else { return nil }
    try checkForStop()
    return woke
  }

  /// Serves the control socket, then throws when a stop has been asked for.
  func checkForStop() throws {
    while let signal = stopSignals?.next() {
      signalsForProgram.append(signal)
      if StopSignals.stops(signal) { throw PlaybackInterrupted(reason: StopSignals.name(signal)) }
    }
    control?.service()
    follower?.service()
    if control?.quitRequested == true { throw PlaybackInterrupted(reason: "splashctl quit") }
  }
}
