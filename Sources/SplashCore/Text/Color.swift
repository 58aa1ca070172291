// SPDX-License-Identifier: Apache-2.0
/// An opaque 8-bit RGB colour.
public struct Color: Equatable, Sendable {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public static let black = Color(red: 0, green: 0, blue: 0)

  /// Parses `#RRGGBB` or `#RGB` (hex digits in either case; `#F80` is
  /// `#FF8800`, as in CSS); nil for anything else.
  public init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 7 || digits.count == 4, digits[0] == UInt8(ascii: "#") else { return nil }
    var channels: [UInt8] = []
    if digits.count == 4 {
      for digit in digits[1...] {
        guard let value = hexValue(digit) else { return nil }
        channels.append(value << 4 | value)
      }
    } else {
      for i in stride(from: 1, to: 7, by: 2) {
        guard let high = hexValue(digits[i]), let low = hexValue(digits[i + 1]) else { return nil }
        channels.append(high << 4 | low)
      }
    }
    self.init(red: channels[0], green: channels[1], blue: channels[2])
  }

  /// `#RRGGBB` in upper case.
  public var hex: String {
    let digits = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = [UInt8(ascii: "#")]
    for c in [red, green, blue] {
      bytes.append(digits[Int(c >> 4)])
      bytes.append(digits[Int(c & 15)])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

private func hexValue(_ c: UInt8) -> UInt8? {
  switch c {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
  default: return nil
  }
}
