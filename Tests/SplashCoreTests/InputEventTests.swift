// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

private let evSyn: UInt16 = 0

private let evAbs: UInt16 = 3

/// The bytes evdev writes for `events` on 64-bit Linux (24 bytes each:
/// seconds and microseconds, then type, code and value, little-endian).
func inputEventBytes(_ events: [(UInt16, UInt16, Int32)], startingAt second: UInt64 = 1_700_000_000) -> [UInt8] {
  var bytes: [UInt8] = []
  for (index, (type, code, value)) in events.enumerated() {
    func little<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
      (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) }
    }
    bytes +=
      little(second) + little(UInt64(index * 1000)) + little(type) + little(code) + little(UInt32(bitPattern: value))
  }
  return bytes
}

@Suite struct InputEventTests {
  @Test func recordsSplitAcrossReadsComeOutWhole() {
    let stream = inputEventBytes([(evAbs, 0, -17), (evAbs, 1, 256), (evSyn, 0, 0)])
    var decoder = InputEventDecoder()
    #expect(decoder.decode(Array(stream[0..<10])).isEmpty)
    #expect(decoder.decode(Array(stream[10..<30])) == [InputEvent(type: evAbs, code: 0, value: -17)])
    #expect(
      decoder.decode(Array(stream[30...]))
        == [InputEvent(type: evAbs, code: 1, value: 256), InputEvent(type: evSyn, code: 0, value: 0)])
  }

  /// Feeds `events` through the decoder and the accelerometer state; returns
  /// each outcome that was not `.pending`, with the axes after it.
  func play(_ state: inout AccelerometerEvents, _ events: [(UInt16, UInt16, Int32)]) -> [(
    AccelerometerEvents.Outcome, [Int32]
  )] {
    var decoder = InputEventDecoder()
    var seen: [(AccelerometerEvents.Outcome, [Int32])] = []
    for event in decoder.decode(inputEventBytes(events)) {
      let outcome = state.apply(event)
      if outcome != .pending { seen.append((outcome, state.axes)) }
    }
    return seen
  }

  @Test func axesChangeTogetherAtSynReport() {
    var state = AccelerometerEvents(seed: [0, -256, 0])
    // Only the axes that changed are sent; nothing counts before SYN_REPORT.
    var decoder = InputEventDecoder()
    for event in decoder.decode(inputEventBytes([(evAbs, 0, -256), (evAbs, 1, 3)])) {
      #expect(state.apply(event) == .pending)
    }
    #expect(state.axes == [0, -256, 0])
    #expect(state.apply(InputEvent(type: evSyn, code: 0, value: 0)) == .committed)
    #expect(state.axes == [-256, 3, 0])
    // A report with no axis in it changes nothing; other event types are ignored.
    let quiet = play(&state, [(evSyn, 0, 0), (1, 30, 1), (evAbs, 40, 9), (evSyn, 0, 0)])
    #expect(quiet.isEmpty)
    #expect(state.axes == [-256, 3, 0])
  }

  @Test func droppedEventsAreSkippedUntilTheNextReportThenReseeded() {
    var state = AccelerometerEvents(seed: [0, -256, 0])
    let seen = play(
      &state,
      [
        (evAbs, 0, 100), (evSyn, 3, 0),  // SYN_DROPPED: the half-read report is lost
        (evAbs, 0, 200), (evAbs, 2, 50), (evSyn, 0, 0),  // skipped, then: ask the device
        (evAbs, 1, -250), (evSyn, 0, 0),  // back to normal
      ])
    #expect(seen.map(\.0) == [.needsResync, .committed])
    // Until reseeded, the dropped values were not applied.
    #expect(seen.first?.1 == [0, -256, 0])
    state.reseed([7, 8, 9])
    #expect(state.axes == [7, 8, 9])
    #expect(play(&state, [(evAbs, 2, 1), (evSyn, 0, 0)]).map(\.1) == [[7, 8, 1]])
  }

  @Test func evdevReadingsUseTheResolutionAsUnitsPerG() {
    // 1 g = 1024 units: (0, −1024, 0) is 1 g down the display's y axis.
    let reading = OrientationRule.normalise(
      raw: (0, -1024, 0), unitsPerG: (1024, 1024, 1024), matrix: .identity)
    #expect(reading == (0, -256, 0))
    #expect(OrientationRule.decide(reading, previous: nil) == .normal)
    // Without a resolution the raw values stand: only their angles matter.
    let raw = OrientationRule.normalise(raw: (-300, 10, 0), unitsPerG: (0, 0, 0), matrix: .identity)
    #expect(raw == (-300, 10, 0))
    #expect(OrientationRule.decide(raw, previous: nil) == .rightUp)
    // The mount matrix comes first.
    let turned = OrientationRule.normalise(
      raw: (0, -1024, 0), unitsPerG: (1024, 1024, 1024), matrix: MountMatrix("0, 1, 0; -1, 0, 0; 0, 0, 1")!)
    #expect(OrientationRule.decide(turned, previous: nil) == .rightUp)
  }
}
