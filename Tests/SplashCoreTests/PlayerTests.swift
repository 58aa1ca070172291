// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// Like FakeVsyncDisplay but without a vsync to block on: present returns
/// at once and reports nothing, as offscreen rendering does.
final class FakeTimerDisplay: FrameSink, PresentationClock {
  var time = 50.0
  let refreshPeriod = 1.0 / 30
  var shownAt: [(frame: FrameRequest, clock: Double)] = []
  func now() -> Double { time }
  func sleep(until deadline: Double) { time = max(time, deadline) }
  func present(_ frame: FrameRequest) throws -> Double? {
    time += 0.002
    shownAt.append((frame, time))
    return nil
  }
}

/// A display with a vsync every `period` seconds on a fake clock. Drawing a
/// frame costs `renderCost(frameIndex)` seconds; the frame then reaches the
/// screen at the next vsync, whose timestamp is reported with `jitter`.
final class FakeVsyncDisplay: FrameSink, PresentationClock {
  var time: Double
  let period: Double
  let renderCost: (Int) -> Double
  let jitter: (Int) -> Double
  /// Each frame with the vsync it really reached the screen at.
  var shown: [(frame: FrameRequest, vsync: Double)] = []
  var sleeps: [(from: Double, to: Double)] = []
  /// Time that passes before frame N is begun (the process was not scheduled).
  var pauses: [Int: Double] = [:]

  init(
    start: Double = 1000, period: Double = 1.0 / 60, renderCost: @escaping (Int) -> Double = { _ in 0.004 },
    jitter: @escaping (Int) -> Double = { _ in 0 }
  ) {
    time = start
    self.period = period
    self.renderCost = renderCost
    self.jitter = jitter
  }

  var refreshPeriod: Double { period }
  func now() -> Double {
    if let pause = pauses.removeValue(forKey: shown.count) { time += pause }
    return time
  }

  func sleep(until deadline: Double) {
    sleeps.append((time, deadline))
    time = max(time, deadline)
  }

  func present(_ frame: FrameRequest) throws -> Double? {
    time += renderCost(shown.count)
    let vsync = (time / period - 1e-9).rounded(.up) * period
    time = vsync
    shown.append((frame, vsync))
    return vsync + jitter(shown.count)
  }
}

@Suite struct PlayerTests {
  let timeline = Timeline(hold: 0, duration: 1.2, easing: .easeInOut)

  /// Checks what every playback must satisfy: progress never goes back,
  /// the last frame is exactly 1, and each frame's progress is the
  /// timeline's progress at its predicted presentation time, counted from
  /// `start`, the time the first frame was shown.
  func checkInvariants(_ report: PlaybackReport, _ timeline: Timeline, start: Double) {
    var previous = -1.0
    for frame in report.frames {
      #expect(frame.progress >= previous)
      previous = frame.progress
      #expect(frame.progress == timeline.progress(at: frame.presentationTime - start))
    }
    #expect(report.frames.last?.progress == 1)
    #expect(report.frames.last?.phase != .hold)
  }

  @Test func steady60HzFollowsEveryVsync() throws {
    let display = FakeVsyncDisplay()
    let report = try Player(timeline: timeline).play(on: display, clock: display)
    checkInvariants(report, timeline, start: report.firstFrameShown)
    // One frame per vsync: the first reaches the first vsync (time 0 of
    // the splash), then one at each of the 72 vsyncs up to 1.2 s after it.
    #expect(report.frames.count == 73)
    #expect(report.skippedVsyncs == 0)
    for (frame, vsync) in display.shown.dropFirst() {
      #expect(abs(frame.presentationTime - vsync) < 1e-9)
    }
    #expect(abs(display.shown.last!.vsync - report.firstFrameShown - 1.2) < 1e-9)
    // The transition's vsyncs, as the display reported them, one refresh apart.
    #expect(report.transitionVsyncs == display.shown.dropFirst().map(\.vsync))
    #expect(abs(report.medianVsyncInterval! - 1.0 / 60) < 1e-9)
  }

  @Test func jitteredTimestampsStillTrackTheClock() throws {
    var seed: UInt64 = 42
    let display = FakeVsyncDisplay(jitter: { _ in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.002  // ±1 ms
    })
    let report = try Player(timeline: timeline).play(on: display, clock: display)
    checkInvariants(report, timeline, start: report.firstFrameShown)
    for (frame, vsync) in display.shown.dropFirst() {
      // Predicted within the jitter of the real vsync: progress follows the clock.
      #expect(abs(frame.presentationTime - vsync) < 0.0015)
    }
    #expect(report.frames.count >= 71 && report.frames.count <= 73)
  }

  @Test func droppedFramesSkipAheadAndNeverSlowTheAnimation() throws {
    // Every 7th frame takes 1.6 periods to draw: it misses its vsync.
    let display = FakeVsyncDisplay(renderCost: { $0 % 7 == 3 ? 0.0266 : 0.004 })
    let report = try Player(timeline: timeline).play(on: display, clock: display)
    checkInvariants(report, timeline, start: report.firstFrameShown)
    #expect(report.skippedVsyncs > 0)
    #expect(report.frames.count < 72)
    // The animation still ends on time, within one period of 1.2 s.
    #expect(abs(display.shown.last!.vsync - report.firstFrameShown - 1.2) <= display.period + 1e-9)
    // After each drop the next frame is predicted exactly again.
    for (index, (frame, vsync)) in display.shown.enumerated().dropFirst() where index % 7 != 3 {
      #expect(abs(frame.presentationTime - vsync) < 1e-9)
    }
    // A late frame jumps: its step in progress is bigger than a steady one's would be.
    let times = display.shown.map(\.vsync)
    #expect(zip(times, times.dropFirst()).contains { $1 - $0 > 1.5 * display.period })
  }

  @Test func aFrameBegunLateIsTimedForTheVsyncItCanStillMake() throws {
    // 50 ms pass before frame 10 is begun: three vsyncs go by unused.
    let display = FakeVsyncDisplay()
    display.pauses[10] = 0.05
    let report = try Player(timeline: timeline).play(on: display, clock: display)
    checkInvariants(report, timeline, start: report.firstFrameShown)
    // Frame 10 was predicted for the vsync it really reached, not for one already past.
    let (frame, vsync) = display.shown[10]
    #expect(abs(frame.presentationTime - vsync) < 1e-9)
    #expect(vsync - display.shown[9].vsync > 3 * display.period)
    #expect(report.skippedVsyncs >= 3)
  }

  @Test func aStallLongerThanTheTransitionEndsAtExactlyOne() throws {
    // Frame 5 takes three seconds, longer than the whole 1.2 s transition.
    let display = FakeVsyncDisplay(renderCost: { $0 == 5 ? 3.0 : 0.004 })
    let start = display.time
    let report = try Player(timeline: timeline).play(on: display, clock: display)
    checkInvariants(report, timeline, start: report.firstFrameShown)
    // The frame after the stall is the last, at progress 1: no slow catch-up.
    #expect(report.frames.count == 7)
    #expect(report.frames[5].progress < 1)
    #expect(report.frames[6].progress == 1)
    #expect(display.shown[6].vsync - start > 3)
  }

  @Test func holdDrawsNothingAndSleeps() throws {
    let held = Timeline(hold: 10, duration: 1.2, easing: .easeInOut)
    let display = FakeVsyncDisplay()
    var events: [PlaybackEvent] = []
    let report = try Player(timeline: held, onEvent: { events.append($0) }).play(on: display, clock: display)
    checkInvariants(report, held, start: report.firstFrameShown)
    // Only the first frame belongs to the hold; the player slept through it.
    #expect(report.frames.filter { $0.phase == .hold }.count == 1)
    #expect(display.sleeps.contains { $0.to - $0.from > 9.9 })
    let firstTransition = display.shown[1].vsync - report.firstFrameShown
    #expect(firstTransition >= 10 && firstTransition < 10 + display.period + 1e-9)
    #expect(report.frames.count == 74)
    #expect(report.skippedVsyncs == 0)
    guard events.count == 3, case .appeared = events[0], case .willDisappear = events[1],
      case .didDisappear(let end) = events[2]
    else {
      Issue.record("expected appeared, will-disappear, did-disappear; got \(events)")
      return
    }
    #expect(abs(end - report.firstFrameShown - 11.2) < display.period)
  }

  @Test func withoutVsyncThePlayerPacesByTheClock() throws {
    let display = FakeTimerDisplay()
    let start = display.time
    let report = try Player(timeline: Timeline(hold: 0.5, duration: 0.5, easing: .linear)).play(
      on: display, clock: display)
    // Frames land on the 30 Hz grid, not as fast as they can be drawn.
    #expect(report.frames.count == 17)  // the first frame, then 16 ticks from 0.5 s to 1.0 s
    for (a, b) in zip(report.frames.dropFirst(), report.frames.dropFirst(2)) {
      #expect(abs(b.presentationTime - a.presentationTime - 1.0 / 30) < 1e-6)
    }
    #expect(report.frames.last?.progress == 1)
    // The grid starts when the first frame was really shown (after its 2 ms of drawing).
    #expect(abs(report.firstFrameShown - start - 0.002) < 1e-9)
    #expect(abs(report.frames.last!.presentationTime - report.firstFrameShown - 1.0) < 1e-6)
    // The clock's times are not the display's vsyncs: none are reported.
    #expect(report.transitionVsyncs.isEmpty && report.medianVsyncInterval == nil)
  }
}
