// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// A gate that opens at a fixed time on a fake display's clock.
final class FakeGate: RevealGate {
  let display: FakeVsyncDisplay
  let opensAt: Double
  var waitedUntil: Double?

  init(display: FakeVsyncDisplay, opensAt: Double) {
    self.display = display
    self.opensAt = opensAt
  }

  var isOpen: Bool { display.time >= opensAt }

  func wait(until deadline: Double) throws -> String? {
    waitedUntil = deadline
    if opensAt <= deadline {
      display.time = max(display.time, opensAt)
      return "opened"
    }
    display.time = max(display.time, deadline)
    return nil
  }
}

@Suite struct RevealGateTests {
  let timeline = Timeline(hold: 1, duration: 0.5, easing: .linear)

  func play(opensAfter seconds: Double, timeout: Double) throws -> (FakeVsyncDisplay, PlaybackReport, [PlaybackEvent]) {
    let display = FakeVsyncDisplay()
    var events: [PlaybackEvent] = []
    var player = Player(timeline: timeline) { events.append($0) }
    player.gate = FakeGate(display: display, opensAt: display.time + seconds)
    player.gateTimeout = timeout
    let report = try player.play(on: display, clock: display)
    return (display, report, events)
  }

  @Test func theTransitionStartsOnTheFirstVsyncAfterTheGateOpens() throws {
    let (display, report, events) = try play(opensAfter: 3.005, timeout: 30)
    let start = display.shown[0].frame.presentationTime
    let first = report.frames[1]
    #expect(first.presentationTime >= start + 3.005)
    #expect(first.presentationTime < start + 3.005 + display.period + 1e-9)
    #expect(first.phase == .transition)
    #expect(first.progress < 0.05)
    #expect(report.frames.last?.progress == 1)
    #expect(events.contains { if case .gateOpened(_, "opened") = $0 { return true } else { return false } })
  }

  @Test func theHoldIsAMinimumEvenWhenTheGateIsAlreadyOpen() throws {
    let (display, report, _) = try play(opensAfter: 0, timeout: 30)
    let start = display.shown[0].frame.presentationTime
    #expect(report.frames[1].presentationTime >= start + 1)
    #expect(report.frames[1].presentationTime < start + 1 + display.period + 1e-9)
  }

  @Test func theTimeoutCountsFromTheFirstFrame() throws {
    let (display, report, events) = try play(opensAfter: 100, timeout: 5)
    let start = report.firstFrameShown
    #expect(abs(report.frames[1].presentationTime - start - 5) <= display.period + 1e-9)
    #expect(events.contains { if case .gateTimedOut = $0 { return true } else { return false } })
    #expect(!events.contains { if case .gateOpened = $0 { return true } else { return false } })
    #expect(report.skippedVsyncs == 0)
  }

  /// The hold and the gate's timeout count from the first frame on the
  /// screen, however long its first present took (a window under load).
  @Test func aSlowFirstPresentDoesNotEatTheHoldOrTheTimeout() throws {
    let display = FakeVsyncDisplay(renderCost: { $0 == 0 ? 1.7 : 0.004 })
    let start = display.time
    let gate = FakeGate(display: display, opensAt: .infinity)
    var player = Player(timeline: Timeline(hold: 1, duration: 0.5, easing: .linear))
    player.gate = gate
    player.gateTimeout = 5
    let report = try player.play(on: display, clock: display)
    #expect(report.firstFrameShown - start >= 1.7 - 1e-9)
    #expect(report.frames[1].presentationTime - report.firstFrameShown >= 5 - 1e-9)
    #expect(gate.waitedUntil == report.firstFrameShown + 5)
    // And without a gate, the hold alone.
    let slow = FakeVsyncDisplay(renderCost: { $0 == 0 ? 1.7 : 0.004 })
    let held = try Player(timeline: Timeline(hold: 1, duration: 0.5, easing: .linear)).play(on: slow, clock: slow)
    #expect(held.frames[1].presentationTime - held.firstFrameShown >= 1 - 1e-9)
    #expect(held.frames[1].presentationTime - held.firstFrameShown < 1 + slow.period + 1e-9)
  }

  /// `waiting` comes when the hold is over and the gate still holds the
  /// splash, not when the gate opened during the hold.
  @Test func waitingIsReportedOnlyWhileTheGateHoldsPastTheHold() throws {
    func names(_ events: [PlaybackEvent]) -> [String] {
      events.map { event in
        switch event {
        case .appeared: "appeared"
        case .waiting: "waiting"
        case .gateOpened: "opened"
        case .gateTimedOut: "timed out"
        case .willDisappear: "will-disappear"
        case .didDisappear: "did-disappear"
        }
      }
    }
    let (_, _, late) = try play(opensAfter: 3, timeout: 30)
    #expect(names(late) == ["appeared", "waiting", "opened", "will-disappear", "did-disappear"])
    let (_, _, early) = try play(opensAfter: 0.5, timeout: 30)
    #expect(names(early) == ["appeared", "opened", "will-disappear", "did-disappear"])
    var phase = SplashPhase.starting
    var phases: [SplashPhase] = []
    for event in late {
      phase = phase.after(event)
      phases.append(phase)
    }
    #expect(phases == [.holding, .waiting, .waiting, .transition, .done])
  }

  @Test func noTimeoutWaitsForTheGate() throws {
    let (display, _, _) = try play(opensAfter: 500, timeout: 0)
    #expect(display.shown[1].vsync - display.shown[0].vsync > 499)
  }
}
