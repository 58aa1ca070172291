// SPDX-License-Identifier: Apache-2.0
/// Screens' names as `splashctl status` lists them: a KMS connector's name
/// as the kernel makes it (its type, then its number: `HDMI-A-1`, `DSI-1`,
/// `eDP-1`), after `cardN-` on a card other than the first
/// (`card1-HDMI-A-1`). A setting that names a screen may leave the card out.
public enum ScreenName {
  /// `listed` without its `cardN-`; nil when it has none.
  public static func withoutCard(_ listed: String) -> Substring? {
    let parts = listed.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, parts[0].hasPrefix("card"), parts[0].count > 4, parts[0].dropFirst(4).allSatisfy(\.isNumber)
    else { return nil }
    return parts[1]
  }

  /// Whether the screen listed as `listed` is the one a setting calls
  /// `name`: the same name, or `name` on another card.
  public static func `is`(_ listed: String, called name: String) -> Bool {
    listed == name || withoutCard(listed).map { $0 == name } == true
  }

  /// Whether `text` reads as a connector's name: letters, digits, '-' and
  /// '_', up to 32 characters, ending in '-' and the connector's number.
  public static func isConnectorName(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count <= 32, let dash = bytes.lastIndex(of: UInt8(ascii: "-")), dash > 0, dash < bytes.count - 1
    else { return false }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 97 && byte | 0x20 <= 122 }
    return bytes[(dash + 1)...].allSatisfy(isDigit)
      && bytes[..<dash].allSatisfy { isDigit($0) || isLetter($0) || $0 == 45 || $0 == 95 }
  }
}
