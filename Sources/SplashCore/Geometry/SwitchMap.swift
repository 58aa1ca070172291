// SPDX-License-Identifier: Apache-2.0
/// `switch-map`: which switch or key, when on, means which angle, such as
/// "SW_ROTATE_LOCK=90, KEY_F13=180". The first entry that is on wins.
public struct SwitchMap: Equatable, Sendable, CustomStringConvertible {
  /// One entry: an EV_SW switch or an EV_KEY key, by code.
  public struct Entry: Equatable, Sendable {
    public var isKey: Bool
    public var code: UInt16
    public var name: String
    public var rotation: Rotation
  }

  public let entries: [Entry]

  /// Parses "NAME=ANGLE, …": NAME is a switch from <linux/input-event-codes.h>
  /// (SW_LID … SW_MACHINE_COVER), KEY_F13 … KEY_F24, or SW_<number> /
  /// KEY_<number> for any code; ANGLE is 0, 90, 180 or 270. Nil when malformed.
  public init?(_ text: String) {
    var entries: [Entry] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = item.split(separator: "=", omittingEmptySubsequences: false).map { trimmingBlanks($0) }
      guard parts.count == 2, let degrees = Int(parts[1]), let rotation = Rotation(rawValue: degrees),
        let (isKey, code) = Self.code(of: parts[0])
      else { return nil }
      entries.append(Entry(isKey: isKey, code: code, name: parts[0], rotation: rotation))
    }
    guard !entries.isEmpty else { return nil }
    self.entries = entries
  }

  public var description: String { entries.map { "\($0.name)=\($0.rotation.rawValue)" }.joined(separator: ", ") }

  /// The angle of the first entry that is on, given each entry's state.
  public func rotation(isOn: (Entry) -> Bool) -> Rotation? { entries.first(where: isOn)?.rotation }

  /// The switches of <linux/input-event-codes.h>, by code.
  static let switches = [
    "SW_LID", "SW_TABLET_MODE", "SW_HEADPHONE_INSERT", "SW_RFKILL_ALL", "SW_MICROPHONE_INSERT", "SW_DOCK",
    "SW_LINEOUT_INSERT", "SW_JACK_PHYSICAL_INSERT", "SW_VIDEOOUT_INSERT", "SW_CAMERA_LENS_COVER", "SW_KEYPAD_SLIDE",
    "SW_FRONT_PROXIMITY", "SW_ROTATE_LOCK", "SW_LINEIN_INSERT", "SW_MUTE_DEVICE", "SW_PEN_INSERTED",
    "SW_MACHINE_COVER",
  ]

  /// (is a key, code) for a name; nil for an unknown one.
  static func code(of name: String) -> (Bool, UInt16)? {
    if let index = switches.firstIndex(of: name) { return (false, UInt16(index)) }
    if name.hasPrefix("KEY_F"), let n = Int(name.dropFirst(5)), (13...24).contains(n) { return (true, UInt16(170 + n)) }
    for (prefix, isKey, limit) in [("SW_", false, 0x10), ("KEY_", true, 0x2ff)] where name.hasPrefix(prefix) {
      let digits = name.dropFirst(prefix.count)
      if !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(digits), n <= limit {
        return (isKey, UInt16(n))
      }
    }
    return nil
  }
}
