/// Predicts when the frame being drawn now will reach the screen.
///
/// It follows the display's vsync: the presentation time of the next frame
/// is the last vsync plus one refresh period, or, when that instant has
/// already passed (a late or dropped frame), the first vsync on that grid
/// still ahead. Progress is computed for that instant, so a late frame skips
/// ahead and the animation is never slowed down.
public struct FramePacer: Equatable, Sendable {
  /// Seconds between two vsyncs.
  public let period: Double
  /// When the last frame reached the screen, if one has.
  public private(set) var lastVsync: Double?

  public init(period: Double) {
    precondition(period > 0, "refresh period must be positive")
    self.period = period
  }

  /// The presentation time of a frame begun at `now`: the first vsync on
  /// the grid after both `now` and `earliest`, one period after the last
  /// vsync at the soonest.
  public func predictedPresentation(after now: Double, notBefore earliest: Double = -.infinity) -> Double {
    guard let lastVsync else { return max(now, earliest) }
    let due = max(now, earliest)
    // A hair of slack so that a due time exactly on the grid is not pushed a period on.
    let periods = max(1, ((due - lastVsync) / period - 1e-9).rounded(.up))
    return lastVsync + periods * period
  }

  /// Records that a frame reached the screen at `timestamp`.
  public mutating func didPresent(at timestamp: Double) {
    lastVsync = timestamp
  }
}
