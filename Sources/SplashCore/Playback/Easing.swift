// SPDX-License-Identifier: Apache-2.0
/// A cubic Bézier timing curve from (0, 0) to (1, 1) with control points
/// (x1, y1) and (x2, y2), as in CSS `cubic-bezier()`.
///
/// `x1` and `x2` must lie in [0, 1] so that x(t) is monotonic and the curve
/// is a function of x; `y1` and `y2` may overshoot.
public struct CubicBezier: Equatable, Sendable {
  public let x1: Double
  public let y1: Double
  public let x2: Double
  public let y2: Double

  /// The largest error in x that `value(at:)` accepts when it solves for the
  /// curve parameter.
  public static let tolerance = 1e-7

  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
  }

  /// The curve's x coordinate at parameter `t`.
  public func x(atParameter t: Double) -> Double { Self.coordinate(t, x1, x2) }
  /// The curve's y coordinate at parameter `t`.
  public func y(atParameter t: Double) -> Double { Self.coordinate(t, y1, y2) }

  /// The eased value for input `x`; exactly 0 for x ≤ 0 and exactly 1 for x ≥ 1.
  public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    return y(atParameter: parameter(forX: x))
  }

  /// Solves x(t) = x for t in [0, 1]: Newton's method, then bisection when
  /// Newton does not converge (flat slopes near the ends).
  public func parameter(forX x: Double) -> Double {
    var t = x
    for _ in 0..<8 {
      let error = self.x(atParameter: t) - x
      if abs(error) < Self.tolerance { return t }
      let slope = Self.derivative(t, x1, x2)
      if abs(slope) < 1e-9 { break }
      t -= error / slope
      if t < 0 || t > 1 { break }
    }
    var low = 0.0
    var high = 1.0
    t = x
    for _ in 0..<64 {
      let value = self.x(atParameter: t)
      if abs(value - x) < Self.tolerance { return t }
      if value < x { low = t } else { high = t }
      t = (low + high) / 2
    }
    return t
  }

  private static func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
  }

  private static func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
  }
}

/// How progress through a transition maps to the distance moved.
public enum Easing: Equatable, Sendable {
  case linear
  case easeIn
  case easeOut
  case easeInOut
  case cubicBezier(CubicBezier)

  /// The Bézier curve behind each named easing (CSS's definitions).
  public var curve: CubicBezier? {
    switch self {
    case .linear: return nil
    case .easeIn: return CubicBezier(0.42, 0, 1, 1)
    case .easeOut: return CubicBezier(0, 0, 0.58, 1)
    case .easeInOut: return CubicBezier(0.42, 0, 0.58, 1)
    case .cubicBezier(let curve): return curve
    }
  }

  /// The eased value for linear progress `x`, clamped so that x ≤ 0 gives
  /// exactly 0 and x ≥ 1 gives exactly 1.
  public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    guard let curve else { return x }
    return curve.value(at: x)
  }

  /// The spelling used on the command line and in the config file.
  public var name: String {
    switch self {
    case .linear: return "linear"
    case .easeIn: return "ease-in"
    case .easeOut: return "ease-out"
    case .easeInOut: return "ease-in-out"
    case .cubicBezier(let c):
      return "cubic-bezier(\(formatNumber(c.x1)),\(formatNumber(c.y1)),"
        + "\(formatNumber(c.x2)),\(formatNumber(c.y2)))"
    }
  }
}
