// SPDX-License-Identifier: Apache-2.0
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
  /// the grid strictly after `now` (one on `now` itself is too soon for a
  /// frame still to be drawn), and not before `earliest`.
  public func predictedPresentation(after now: Double, notBefore earliest: Double = -.infinity) -> Double {
    guard let lastVsync else { return max(now, earliest) }
    // A hair of slack keeps rounding from moving a time that is on the grid.
    let slack = 1e-9
    var periods = max(1, ((now - lastVsync) / period + slack).rounded(.down) + 1)
    if lastVsync + periods * period < earliest {
      periods = ((earliest - lastVsync) / period - slack).rounded(.up)
    }
    return lastVsync + periods * period
  }

  /// Records that a frame reached the screen at `timestamp`.
  public mutating func didPresent(at timestamp: Double) {
    lastVsync = timestamp
  }
}
