// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct SwitchEventTests {
  /// A rotation switch's events decode like any other; the accelerometer's
  /// state ignores them.
  @Test func switchEventsDecodeAndLeaveTheAxesAlone() {
    var decoder = InputEventDecoder()
    let events = decoder.decode(inputEventBytes([(5, 1, 1), (5, 5, 0), (1, 183, 1), (0, 0, 0)]))
    #expect(
      events == [
        InputEvent(type: InputEvent.switchEvent, code: 1, value: 1),
        InputEvent(type: InputEvent.switchEvent, code: 5, value: 0),
        InputEvent(type: InputEvent.key, code: 183, value: 1), InputEvent(type: 0, code: 0, value: 0),
      ])
    var state = AccelerometerEvents(seed: [1, 2, 3])
    #expect(events.map { state.apply($0) } == [.pending, .pending, .pending, .pending])
    #expect(state.axes == [1, 2, 3])
  }
}
