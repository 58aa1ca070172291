// SPDX-License-Identifier: Apache-2.0
import Glibc  // atan2: maths only, no I/O

/// Which edge of the display is up, as accelerometers report it.
public enum Orientation: String, CaseIterable, Equatable, Sendable {
  case normal
  case rightUp = "right-up"
  case bottomUp = "bottom-up"
  case leftUp = "left-up"

  /// The clockwise turn that shows content upright: normal → 0,
  /// right-up → 90, bottom-up → 180, left-up → 270.
  public var rotation: Rotation {
    switch self {
    case .normal: return .none
    case .rightUp: return .quarter
    case .bottomUp: return .half
    case .leftUp: return .threeQuarters
    }
  }
}

/// A 3×3 matrix mapping the sensor's axes onto the display's, written
/// "a, b, c; d, e, f; g, h, i" (rows separated by semicolons).
public struct MountMatrix: Equatable, Sendable {
  public let rows: [[Double]]

  public static let identity = MountMatrix(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

  init(rows: [[Double]]) { self.rows = rows }

  /// The largest entry a matrix may have (mount matrices hold -1, 0 and 1,
  /// or their fractions).
  public static let maxEntry = 1000.0

  /// Parses the text form; nil when it is not three rows of three numbers
  /// from −`maxEntry` to `maxEntry`, or a row is all zeros.
  public init?(_ text: String) {
    let rows = text.split(separator: ";", omittingEmptySubsequences: false).map { row in
      row.split(separator: ",", omittingEmptySubsequences: false).map { Double(trimmingBlanks($0)) }
    }
    guard rows.count == 3,
      rows.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.map { abs($0) <= Self.maxEntry } ?? false } })
    else { return nil }
    let values = rows.map { $0.map { $0! } }
    guard values.allSatisfy({ $0.contains { $0 != 0 } }) else { return nil }
    self.rows = values
  }

  /// The matrix applied to (x, y, z).
  public func apply(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
    func row(_ r: [Double]) -> Double { r[0] * v.0 + r[1] * v.1 + r[2] * v.2 }
    return (row(rows[0]), row(rows[1]), row(rows[2]))
  }
}

/// The orientation rule iio-sensor-proxy uses (from Nokia's sensorfw),
/// reimplemented from its description: tilt angles with a 35° threshold,
/// a dead zone on the diagonals, and "keep the previous" when lying flat.
public enum OrientationRule {
  /// Readings are normalised so that 1 g is this many units.
  public static let unitsPerG = 256.0
  /// Standard gravity, in m/s².
  public static let gravity = 9.81

  /// Normalises a raw reading: the mount matrix first, then each axis
  /// scaled (m/s² per unit) to 1 g = 256 and truncated.
  public static func normalise(
    raw: (Double, Double, Double), scale: (Double, Double, Double), matrix: MountMatrix
  ) -> (Double, Double, Double) {
    let m = matrix.apply(raw)
    func unit(_ v: Double, _ s: Double) -> Double { (v * s * unitsPerG / gravity).rounded(.towardZero) }
    return (unit(m.0, scale.0), unit(m.1, scale.1), unit(m.2, scale.2))
  }

  /// Normalises an evdev reading: the mount matrix first, then each axis
  /// from its units per g (`absinfo.resolution`) to 1 g = 256, truncated.
  /// A resolution of 0 (not given) leaves the values as they are: the rule
  /// looks only at angles, so any unit shared by the axes does.
  public static func normalise(
    raw: (Double, Double, Double), unitsPerG: (Double, Double, Double), matrix: MountMatrix
  ) -> (Double, Double, Double) {
    let m = matrix.apply(raw)
    func unit(_ v: Double, _ perG: Double) -> Double { perG > 0 ? (v * Self.unitsPerG / perG).rounded(.towardZero) : v }
    return (unit(m.0, unitsPerG.0), unit(m.1, unitsPerG.1), unit(m.2, unitsPerG.2))
  }

  /// The orientation for a normalised reading, given the previous one
  /// (nil at start); nil while it is still undecided.
  public static func decide(_ v: (Double, Double, Double), previous: Orientation?) -> Orientation? {
    func degrees(_ a: Double, _ b: Double, _ c: Double) -> Double {
      (atan2(a, (b * b + c * c).squareRoot()) * 180 / Double.pi).rounded(.toNearestOrAwayFromZero)
    }
    let portrait = degrees(v.0, v.1, v.2)
    let landscape = degrees(v.1, v.0, v.2)
    let threshold = 35.0
    switch (abs(portrait) > threshold, abs(landscape) > threshold) {
    case (true, true), (false, false): return previous
    case (true, false): return portrait > 0 ? .leftUp : .rightUp
    case (false, true): return landscape > 0 ? .bottomUp : .normal
    }
  }
}

/// The rotation the kernel command line asks for: `video=…,rotate=DEGREES`,
/// then `video=…:panel_orientation=…`, then `fbcon=rotate:N`.
public func kernelCommandLineRotation(_ commandLine: String) -> Rotation? {
  let words = commandLine.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
  let video = words.filter { $0.hasPrefix("video=") }.map { String($0.dropFirst(6)) }
  for option in video.flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == ":" }) }) {
    if option.hasPrefix("rotate="), let degrees = Int(option.dropFirst(7)), let r = Rotation(rawValue: degrees) {
      return r
    }
  }
  for option in video.flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == ":" }) })
  where option.hasPrefix("panel_orientation=") {
    if let rotation = panelOrientationRotation(String(option.dropFirst("panel_orientation=".count))) {
      return rotation
    }
  }
  for word in words where word.hasPrefix("fbcon=") {
    for option in word.dropFirst(6).split(separator: ",") where option.hasPrefix("rotate:") {
      if let n = Int(option.dropFirst(7)), (0...3).contains(n) { return Rotation(rawValue: n * 90) }
    }
  }
  return nil
}

/// The turn that shows content upright on a panel mounted as its DRM
/// "panel orientation" says, by the property's enum name ("Left Side Up")
/// or the kernel command line's spelling ("left_side_up"): a panel mounted
/// with its left side up is turned 90° clockwise, so content turns 270°,
/// as fbcon does (FB_ROTATE_CCW).
public func panelOrientationRotation(_ name: String) -> Rotation? {
  switch String(name.lowercased().map { $0 == " " ? "_" : $0 }) {
  case "normal": return Rotation.none
  case "upside_down": return .half
  case "left_side_up": return .threeQuarters
  case "right_side_up": return .quarter
  default: return nil
  }
}

/// `text` without blanks (spaces, tabs, newlines, carriage returns) at either end.
public func trimmingBlanks(_ text: some StringProtocol) -> String {
  let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
  guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else {
    return ""
  }
  return String(text[first...last])
}
