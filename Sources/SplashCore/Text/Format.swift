// SPDX-License-Identifier: Apache-2.0
/// Formats a number for humans: integers without a fraction, others with up
/// to six decimals and no trailing zeros (`1.2`, `0.5`, `60`).
public func formatNumber(_ value: Double) -> String {
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return formatFixed(value, decimals: 6, trimZeros: true)
}

/// Formats `value` with exactly `decimals` digits after the point, or with
/// trailing zeros removed when `trimZeros` is set. Rounds half away from zero.
public func formatFixed(_ value: Double, decimals: Int, trimZeros: Bool = false) -> String {
  var scale: Int64 = 1
  for _ in 0..<decimals { scale *= 10 }
  // Beyond what 64-bit integers hold at this scale (or not a number): the
  // shortest text that reads back as the value, never a trap.
  guard value.isFinite, abs(value) * Double(scale) < 9e18 else { return "\(value)" }
  let negative = value < 0
  let scaled = Int64((abs(value) * Double(scale)).rounded())
  let whole = scaled / scale
  // No digits at all for no decimals (scaled % 1 is 0, one digit too many).
  var fraction = decimals > 0 ? String(scaled % scale) : ""
  fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
  if trimZeros {
    while fraction.last == "0" { fraction.removeLast() }
  }
  let sign = negative && scaled != 0 ? "-" : ""
  return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}

/// `text` with control characters escaped (`\n`, `\t`, `\x1B`, …), so that
/// a message built from untrusted input stays one line and never drives the
/// terminal it is printed on.
public func printable(_ text: String) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": result += "\\n"
    case "\t": result += "\\t"
    case "\r": result += "\\r"
    case "\\": result += "\\\\"
    case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
      let digits = Array("0123456789ABCDEF")
      result += "\\x" + String(digits[Int(scalar.value >> 4) & 15]) + String(digits[Int(scalar.value) & 15])
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// Parses a plain non-negative decimal (`12`, `0.5`, `.5`); nil for signs,
/// exponents, `inf`, `nan` and anything else.
public func parseDecimal(_ text: String) -> Double? {
  var digits = 0
  var points = 0
  for c in text.utf8 {
    if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
      digits += 1
    } else if c == UInt8(ascii: ".") {
      points += 1
    } else {
      return nil
    }
  }
  guard digits > 0, points <= 1 else { return nil }
  return Double(text.hasPrefix(".") ? "0" + text : text)
}
