// SPDX-License-Identifier: Apache-2.0
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
  /// The vsync times the display reported for the transition's frames
  /// (none when it reports none).
  public var transitionVsyncs: [Double] = []

  /// The median time between the transition's vsyncs, nil under two.
  public var medianVsyncInterval: Double? {
    guard transitionVsyncs.count >= 2 else { return nil }
    let intervals = zip(transitionVsyncs.dropFirst(), transitionVsyncs).map { $0 - $1 }.sorted()
    return intervals[intervals.count / 2]
  }
}

/// What the held splash waits for before its transition may start.
public protocol RevealGate: AnyObject {
  /// Whether the gate is open already (`wait` would return at once).
  var isOpen: Bool { get }
  /// Waits until the gate opens or the clock reaches `deadline`. Returns
  /// what opened it (such as "/run/ready appeared"), nil at the deadline;
  /// throws `PlaybackInterrupted` when asked to stop meanwhile.
  func wait(until deadline: Double) throws -> String?
}

/// The splash's lifecycle, as the player reports it, with clock times.
public enum PlaybackEvent: Equatable, Sendable {
  /// The first frame is on screen.
  case appeared(at: Double)
  /// The hold is over but the reveal gate is still shut: the splash waits for it.
  case waiting(at: Double)
  /// The reveal gate opened, for `reason`.
  case gateOpened(at: Double, reason: String)
  /// The reveal gate stayed shut until the timeout.
  case gateTimedOut(at: Double)
  /// The hold is over; the transition's frames begin.
  case willDisappear(at: Double)
  /// The transition's last frame (progress 1) is on screen.
  case didDisappear(at: Double)
}

/// Plays a timeline on a sink, paced by the display's vsync.
///
/// The first frame is shown at once; the splash's time starts when it is on
/// the screen, however long its first present took. While the picture
/// stands still (the hold) nothing is drawn and the player sleeps, waking
/// one refresh period before the transition so its first frame lands on
/// time. With a reveal gate, the hold is a minimum: the transition starts on
/// the first vsync after the gate opens, or after `gateTimeout` seconds from
/// the first frame at the latest. During the transition each frame's progress is computed
/// for its predicted presentation time; the last frame is drawn at exactly
/// progress 1.
public struct Player {
  public let timeline: Timeline
  /// What must happen, besides the hold, before the transition.
  public var gate: RevealGate?
  /// The longest the gate may hold the splash, in seconds from the first
  /// frame; 0 for no limit.
  public var gateTimeout: Double = 0

  /// Called as the splash appears, starts and ends its transition.
  public var onEvent: (PlaybackEvent) -> Void

  public init(timeline: Timeline, onEvent: @escaping (PlaybackEvent) -> Void = { _ in }) {
    self.timeline = timeline
    self.onEvent = onEvent
  }

  public func play(on sink: FrameSink, clock: PresentationClock) throws -> PlaybackReport {
    var report = PlaybackReport()
    var pacer = FramePacer(period: sink.refreshPeriod)
    // Until the first frame is shown; then the time it was.
    var start = clock.now()
    // The timeline as played: the gate may lengthen the hold.
    var played = timeline
    // Vsyncs without a new frame count as skipped only between transition frames.
    var countsSkips = false

    func show(_ presentationTime: Double) throws {
      try clock.checkForStop()
      let t = presentationTime - start
      let frame = FrameRequest(
        time: t, phase: played.phase(at: t), progress: played.progress(at: t),
        presentationTime: presentationTime)
      let vsync = try sink.present(frame)
      // A display without a blocking vsync is paced by the clock instead.
      var shown = vsync ?? clock.now()
      if vsync == nil && shown < presentationTime - pacer.period / 4 {
        try clock.sleep(until: presentationTime)
        shown = presentationTime
      }
      if countsSkips, let last = pacer.lastVsync, shown - last > pacer.period * 1.5 {
        report.skippedVsyncs += Int(((shown - last) / pacer.period).rounded()) - 1
      }
      pacer.didPresent(at: shown)
      if !report.frames.isEmpty, let vsync { report.transitionVsyncs.append(vsync) }
      report.frames.append(frame)
    }

    try show(start)
    // The hold and the gate's timeout count from the first frame on the screen.
    start = pacer.lastVsync ?? start
    report.firstFrameShown = start
    onEvent(.appeared(at: start))
    if timeline.hold > 0 {
      try clock.sleep(until: start + timeline.hold - pacer.period)
    }
    if let gate {
      let deadline = gateTimeout > 0 ? start + gateTimeout : .infinity
      if !gate.isOpen { onEvent(.waiting(at: clock.now())) }
      let reason = try gate.wait(until: deadline)
      let now = clock.now()
      onEvent(reason.map { .gateOpened(at: now, reason: $0) } ?? .gateTimedOut(at: now))
      played = Timeline(hold: max(timeline.hold, now - start), duration: timeline.duration, easing: timeline.easing)
    }
    if sink.refreshPeriod != pacer.period {
      // The splash moved to another display while it held: its refresh paces the transition.
      let last = pacer.lastVsync
      pacer = FramePacer(period: sink.refreshPeriod)
      if let last { pacer.didPresent(at: last) }
    }
    onEvent(.willDisappear(at: clock.now()))
    while true {
      // The transition's first frame is the first vsync at or after the hold's end.
      let target = pacer.predictedPresentation(after: clock.now(), notBefore: start + played.hold)
      try show(target)
      countsSkips = true
      if played.isFinished(at: target - start) { break }
    }
    onEvent(.didDisappear(at: pacer.lastVsync ?? clock.now()))
    return report
  }
}
