// SPDX-License-Identifier: Apache-2.0
/// The phases a splash goes through once it is on screen.
public enum Phase: String, Equatable, Sendable {
  /// The picture stands still until the transition starts.
  case hold
  /// The transition runs; progress goes from 0 to 1.
  case transition
  /// The transition has ended; the background alone is shown.
  case done
}

/// Where a splash is at a given time since it was first shown.
///
/// Time 0 is the first frame (splash shown, doors closed); the transition
/// runs over [hold, hold + duration] and ends at exactly progress 1.
public struct Timeline: Equatable, Sendable {
  public let hold: Double
  public let duration: Double
  public let easing: Easing

  public init(hold: Double, duration: Double, easing: Easing) {
    self.hold = hold
    self.duration = duration
    self.easing = easing
  }

  /// The time at which the transition reaches progress 1.
  public var end: Double { hold + duration }

  /// Times within this many seconds of the end count as the end, so that
  /// rounding in clock arithmetic never adds a frame after the last one.
  public static let endTolerance = 1e-6

  /// Whether `t` is at or after the end of the transition.
  public func isFinished(at t: Double) -> Bool { t >= end - Self.endTolerance }

  /// The phase at time `t`; the end instant itself still belongs to the
  /// transition, so that its last frame is drawn.
  public func phase(at t: Double) -> Phase {
    if t < hold && !isFinished(at: t) { return .hold }
    if t <= end + Self.endTolerance { return .transition }
    return .done
  }

  /// Linear progress through the transition at time `t`, clamped to [0, 1].
  public func linearProgress(at t: Double) -> Double {
    if isFinished(at: t) { return 1 }
    if t <= hold || duration <= 0 { return 0 }
    return (t - hold) / duration
  }

  /// Eased progress at time `t`: 0 during the hold, exactly 1 from the end on.
  public func progress(at t: Double) -> Double {
    easing.value(at: linearProgress(at: t))
  }

  /// The times of a recording at `fps` frames per second: every 1/fps
  /// seconds from 0, with the last frame at exactly `end`.
  public func recordingTimes(fps: Double) -> [Double] {
    let step = 1 / fps
    // A tick within the end tolerance of the end is the end frame itself.
    let count = Int(((end - Self.endTolerance) * fps).rounded(.down)) + 1
    var times = (0..<max(count, 1)).map { Double($0) * step }
    if end > 0 { times.append(end) }
    return times
  }
}
