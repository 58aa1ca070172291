// SPDX-License-Identifier: Apache-2.0
/// One `struct input_event` as evdev delivers it on 64-bit Linux: a
/// timestamp (two 64-bit words, not kept), then type, code and value.
public struct InputEvent: Equatable, Sendable {
  public var type: UInt16
  public var code: UInt16
  public var value: Int32

  public init(type: UInt16, code: UInt16, value: Int32) {
    self.type = type
    self.code = code
    self.value = value
  }

  /// Bytes in one record.
  public static let size = 24

  // Event types and codes from <linux/input-event-codes.h>.
  public static let synchronization: UInt16 = 0x00
  public static let key: UInt16 = 0x01
  public static let absolute: UInt16 = 0x03
  public static let switchEvent: UInt16 = 0x05
  public static let synReport: UInt16 = 0
  public static let synDropped: UInt16 = 3
  /// The accelerometer axes: ABS_X, ABS_Y, ABS_Z.
  public static let axes: [UInt16] = [0x00, 0x01, 0x02]
}

/// Cuts a byte stream from an evdev device into whole `InputEvent`s; a
/// record split across reads waits for its rest.
public struct InputEventDecoder: Sendable {
  private var partial: [UInt8] = []

  public init() {}

  public mutating func decode(_ bytes: [UInt8]) -> [InputEvent] {
    partial += bytes
    let whole = partial.count / InputEvent.size
    var events: [InputEvent] = []
    events.reserveCapacity(whole)
    for index in 0..<whole {
      let base = index * InputEvent.size + 16
      func word16(_ at: Int) -> UInt16 { UInt16(partial[at]) | UInt16(partial[at + 1]) << 8 }
      let value =
        UInt32(partial[base + 4]) | UInt32(partial[base + 5]) << 8 | UInt32(partial[base + 6]) << 16
        | UInt32(partial[base + 7]) << 24
      events.append(InputEvent(type: word16(base), code: word16(base + 2), value: Int32(bitPattern: value)))
    }
    partial.removeFirst(whole * InputEvent.size)
    return events
  }
}

/// An evdev accelerometer's axes as its events report them: changes are
/// collected and committed together at SYN_REPORT. After SYN_DROPPED (the
/// kernel's buffer overflowed) everything up to the next SYN_REPORT is
/// dropped, and the device must be asked for its current values again.
public struct AccelerometerEvents: Sendable {
  /// The committed values of ABS_X, ABS_Y and ABS_Z.
  public private(set) var axes: [Int32]
  private var pending: [Int32?] = [nil, nil, nil]
  private var dropping = false

  /// What applying an event did.
  public enum Outcome: Equatable, Sendable {
    /// Nothing new to act on yet.
    case pending
    /// A SYN_REPORT committed new values.
    case committed
    /// Events were lost: query the device (EVIOCGABS) and `reseed` with its values.
    case needsResync
  }

  public init(seed axes: [Int32]) {
    precondition(axes.count == 3)
    self.axes = axes
  }

  public mutating func apply(_ event: InputEvent) -> Outcome {
    switch (event.type, event.code) {
    case (InputEvent.synchronization, InputEvent.synDropped):
      dropping = true
      pending = [nil, nil, nil]
      return .pending
    case (InputEvent.synchronization, InputEvent.synReport):
      if dropping {
        dropping = false
        return .needsResync
      }
      guard pending.contains(where: { $0 != nil }) else { return .pending }
      for axis in 0..<3 { if let value = pending[axis] { axes[axis] = value } }
      pending = [nil, nil, nil]
      return .committed
    case (InputEvent.absolute, let code):
      if !dropping, let axis = InputEvent.axes.firstIndex(of: code) { pending[axis] = event.value }
      return .pending
    default:
      return .pending
    }
  }

  /// Takes the device's current values after `needsResync`.
  public mutating func reseed(_ axes: [Int32]) {
    precondition(axes.count == 3)
    self.axes = axes
    pending = [nil, nil, nil]
  }
}
