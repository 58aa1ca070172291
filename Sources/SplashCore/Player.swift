/// A source of monotonic time in seconds, which can also wait.
public protocol PresentationClock: AnyObject {
  /// The current time, in seconds, on a monotonic clock.
  func now() -> Double
  /// Sleeps until the clock reads `deadline` (returns at once if it has
  /// passed); throws `PlaybackInterrupted` when asked to stop meanwhile.
  func sleep(until deadline: Double) throws
  /// Throws `PlaybackInterrupted` when a stop has been asked for; called
  /// once a frame.
  func checkForStop() throws
}

extension PresentationClock {
  public func checkForStop() throws {}
}

/// One frame to draw, and when it is meant to be seen.
public struct FrameRequest: Equatable, Sendable {
  /// Seconds since the splash was first shown.
  public var time: Double
  public var phase: Phase
  /// Eased transition progress, 0…1.
  public var progress: Double
  /// The absolute clock time the frame is predicted to reach the screen.
  public var presentationTime: Double

  public init(time: Double, phase: Phase, progress: Double, presentationTime: Double) {
    self.time = time
    self.phase = phase
    self.progress = progress
    self.presentationTime = presentationTime
  }
}

/// Something that draws frames and shows them.
public protocol FrameSink: AnyObject {
  /// Seconds between two vsyncs of the display.
  var refreshPeriod: Double { get }
  /// Draws the frame and shows it, returning once it is shown (at vsync when
  /// the display has one). Returns the vsync timestamp when the display
  /// reports one, else nil.
  func present(_ frame: FrameRequest) throws -> Double?
}

/// Thrown by a sink to end playback early, such as when its window is closed.
public struct PlaybackInterrupted: Error, Equatable, Sendable {
  public let reason: String
  public init(reason: String) { self.reason = reason }
}

/// What a playback did.
public struct PlaybackReport: Equatable, Sendable {
  /// Every frame presented, in order.
  public var frames: [FrameRequest] = []
  /// Clock time the first frame was on screen.
  public var firstFrameShown: Double = 0
  /// Vsyncs that passed with no new frame during the transition (dropped
  /// frames), from the times frames were really shown.
  public var skippedVsyncs = 0
}

/// The splash's lifecycle, as the player reports it, with clock times.
public enum PlaybackEvent: Equatable, Sendable {
  /// The first frame is on screen.
  case appeared(at: Double)
  /// The hold is over; the transition's frames begin.
  case willDisappear(at: Double)
  /// The transition's last frame (progress 1) is on screen.
  case didDisappear(at: Double)
}

/// Plays a timeline on a sink, paced by the display's vsync.
///
/// The first frame is shown at once. While the picture stands still (the
/// hold) nothing is drawn and the player sleeps, waking one refresh period
/// before the transition so its first frame lands on time. During the
/// transition each frame's progress is computed for its predicted
/// presentation time; the last frame is drawn at exactly progress 1.
public struct Player {
  public let timeline: Timeline

  /// Called as the splash appears, starts and ends its transition.
  public var onEvent: (PlaybackEvent) -> Void

  public init(timeline: Timeline, onEvent: @escaping (PlaybackEvent) -> Void = { _ in }) {
    self.timeline = timeline
    self.onEvent = onEvent
  }

  public func play(on sink: FrameSink, clock: PresentationClock) throws -> PlaybackReport {
    var report = PlaybackReport()
    var pacer = FramePacer(period: sink.refreshPeriod)
    let start = clock.now()

    func show(_ presentationTime: Double) throws {
      try clock.checkForStop()
      let t = presentationTime - start
      let frame = FrameRequest(
        time: t, phase: timeline.phase(at: t), progress: timeline.progress(at: t),
        presentationTime: presentationTime)
      let vsync = try sink.present(frame)
      // A display without a blocking vsync is paced by the clock instead.
      var shown = vsync ?? clock.now()
      if vsync == nil && shown < presentationTime - pacer.period / 4 {
        try clock.sleep(until: presentationTime)
        shown = presentationTime
      }
      if let last = pacer.lastVsync, report.frames.last?.phase == .transition, shown - last > pacer.period * 1.5 {
        report.skippedVsyncs += Int(((shown - last) / pacer.period).rounded()) - 1
      }
      pacer.didPresent(at: shown)
      report.frames.append(frame)
    }

    try show(start)
    report.firstFrameShown = pacer.lastVsync ?? start
    onEvent(.appeared(at: report.firstFrameShown))
    if timeline.hold > 0 {
      try clock.sleep(until: start + timeline.hold - pacer.period)
    }
    onEvent(.willDisappear(at: clock.now()))
    while true {
      // The transition's first frame is the first vsync at or after the hold's end.
      let target = pacer.predictedPresentation(after: clock.now(), notBefore: start + timeline.hold)
      try show(target)
      if timeline.isFinished(at: target - start) { break }
    }
    onEvent(.didDisappear(at: pacer.lastVsync ?? clock.now()))
    return report
  }
}
