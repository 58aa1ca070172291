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
  let negative = value < 0
  let scaled = Int64((abs(value) * Double(scale)).rounded())
  let whole = scaled / scale
  var fraction = String(scaled % scale)
  fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
  if trimZeros {
    while fraction.last == "0" { fraction.removeLast() }
  }
  let sign = negative && scaled != 0 ? "-" : ""
  return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}
