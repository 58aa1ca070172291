// SPDX-License-Identifier: Apache-2.0
/// What a splashd hands to the one that adopts it, besides the display's
/// descriptors: the reply to `handover` after `ok `, one line of fields,
/// `handover display=kms rotation=0 cards=/dev/dri/card0 progress=40
/// message=Checking disks` (progress and message only when shown; the
/// message is the rest of the line).
public struct AdoptionState: Equatable, Sendable {
  /// The back end that shows the splash ("kms", "fbdev").
  public var display: String
  /// The DRM cards whose descriptors follow, in order (kms only).
  public var cards: [String]
  public var rotation: Rotation
  public var status: BootStatus

  public init(display: String, cards: [String], rotation: Rotation, status: BootStatus) {
    self.display = display
    self.cards = cards
    self.rotation = rotation
    self.status = status
  }

  /// The reply's text after `ok `.
  public var text: String {
    var fields = ["handover", "display=\(display)", "rotation=\(rotation.rawValue)"]
    if !cards.isEmpty { fields.append("cards=" + cards.joined(separator: ",")) }
    if let progress = status.progress { fields.append("progress=\(formatNumber(progress))") }
    if let message = status.message { fields.append("message=" + message) }
    return fields.joined(separator: " ")
  }

  /// Parses a reply's text after `ok `; nil when it is not a handover a
  /// splashd would send (an unknown field, a card that is not a device
  /// path, a message with a line break).
  public static func parse(_ text: String) -> AdoptionState? {
    guard text.hasPrefix("handover ") else { return nil }
    // The message is the rest of the line: the fields before it have no blanks.
    var rest = Substring(text.dropFirst("handover".count))
    var message: String?
    if let range = rest.firstRange(of: " message=") {
      message = String(rest[range.upperBound...])
      rest = rest[..<range.lowerBound]
    }
    guard message.map({ !$0.isEmpty && !$0.contains("\n") && $0.utf8.count <= BootStatus.maxMessageBytes }) ?? true
    else { return nil }
    var state = AdoptionState(
      display: "", cards: [], rotation: .none, status: BootStatus(progress: nil, message: message))
    var seen: Set<String> = []
    for field in rest.split(separator: " ") {
      guard let equals = field.firstIndex(of: "=") else { return nil }
      let key = String(field[..<equals])
      let value = String(field[field.index(after: equals)...])
      guard seen.insert(key).inserted else { return nil }
      switch key {
      case "display":
        guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        state.display = value
      case "rotation":
        guard let degrees = Int(value), let rotation = Rotation(rawValue: degrees) else { return nil }
        state.rotation = rotation
      case "cards":
        let cards = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard cards.allSatisfy({ $0.hasPrefix("/dev/") && !$0.contains("..") }) else { return nil }
        state.cards = cards
      case "progress":
        guard let percent = parseSignedDecimal(value), abs(percent) <= 100 else { return nil }
        state.status.progress = percent
      default: return nil
      }
    }
    guard !state.display.isEmpty else { return nil }
    return state
  }
}
