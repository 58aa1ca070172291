// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct TimelineTests {
  let timeline = Timeline(hold: 2, duration: 1.2, easing: .easeInOut)

  @Test func phases() {
    #expect(timeline.phase(at: 0) == .hold)
    #expect(timeline.phase(at: 1.999) == .hold)
    #expect(timeline.phase(at: 2) == .transition)
    #expect(timeline.phase(at: 3.2) == .transition)
    #expect(timeline.phase(at: 3.2001) == .done)
    #expect(timeline.end == 3.2)
  }

  @Test func progress() {
    #expect(timeline.progress(at: 0) == 0)
    #expect(timeline.progress(at: 2) == 0)
    #expect(timeline.progress(at: 3.2) == 1)
    #expect(timeline.progress(at: 100) == 1)
    #expect(abs(timeline.progress(at: 2.6) - 0.5) < 1e-9)
    #expect(timeline.linearProgress(at: 2.3) > 0.24 && timeline.linearProgress(at: 2.3) < 0.26)
  }

  @Test func zeroDurationJumpsToTheEnd() {
    let cut = Timeline(hold: 1, duration: 0, easing: .linear)
    #expect(cut.progress(at: 0.5) == 0)
    #expect(cut.progress(at: 1.0001) == 1)
  }

  @Test func recordingTimesStepByOneFrameAndEndExactly() {
    let times = timeline.recordingTimes(fps: 60)
    #expect(times.first == 0)
    #expect(times.last == timeline.end)
    #expect(times.count == 193)  // 0 … 3.2 s at 60 fps: 192 steps, plus frame 0
    for (a, b) in zip(times, times.dropFirst()) {
      #expect(b > a)
      #expect(b - a <= 1.0 / 60 + 1e-9)
    }
    // An end between two ticks gets its own last frame.
    let odd = Timeline(hold: 0, duration: 0.11, easing: .linear).recordingTimes(fps: 30)
    #expect(odd.count == 5)  // 0, 1/30, 2/30, 3/30, 0.11
    #expect(odd.last == 0.11)
    #expect(Timeline(hold: 0, duration: 0, easing: .linear).recordingTimes(fps: 60) == [0])
  }
}
