// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// Solves a Bézier curve by plain bisection, independently of the code under test.
private func referenceValue(_ c: CubicBezier, _ x: Double) -> Double {
  var low = 0.0
  var high = 1.0
  for _ in 0..<200 {
    let mid = (low + high) / 2
    if c.x(atParameter: mid) < x { low = mid } else { high = mid }
  }
  return c.y(atParameter: (low + high) / 2)
}

@Suite struct EasingTests {
  static let named: [Easing] = [.linear, .easeIn, .easeOut, .easeInOut]

  @Test(arguments: named + [.cubicBezier(CubicBezier(0.68, -0.55, 0.27, 1.55))])
  func endpointsAreExact(easing: Easing) {
    #expect(easing.value(at: 0) == 0)
    #expect(easing.value(at: 1) == 1)
    #expect(easing.value(at: -3) == 0)
    #expect(easing.value(at: 7) == 1)
  }

  @Test(arguments: named)
  func namedCurvesAreMonotonic(easing: Easing) {
    var previous = 0.0
    for i in 0...2000 {
      let value = easing.value(at: Double(i) / 2000)
      #expect(value >= previous - 1e-12)
      previous = value
    }
  }

  @Test func namedCurvesAreTheCSSDefinitions() {
    #expect(Easing.easeIn.curve == CubicBezier(0.42, 0, 1, 1))
    #expect(Easing.easeOut.curve == CubicBezier(0, 0, 0.58, 1))
    #expect(Easing.easeInOut.curve == CubicBezier(0.42, 0, 0.58, 1))
    #expect(Easing.linear.curve == nil)
  }

  @Test func knownValues() {
    // ease-in-out is symmetric about its midpoint.
    #expect(abs(Easing.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
    #expect(abs(Easing.easeInOut.value(at: 0.25) + Easing.easeInOut.value(at: 0.75) - 1) < 1e-6)
    #expect(Easing.linear.value(at: 0.3) == 0.3)
    // CSS "ease" at x = 0.5, as browsers compute it.
    let ease = CubicBezier(0.25, 0.1, 0.25, 1)
    #expect(abs(ease.value(at: 0.5) - 0.8024033877399112) < 1e-6)
    // ease-in starts slowly, ease-out quickly.
    #expect(Easing.easeIn.value(at: 0.2) < 0.2)
    #expect(Easing.easeOut.value(at: 0.2) > 0.2)
  }

  @Test(
    arguments: named.compactMap(\.curve) + [
      CubicBezier(0.25, 0.1, 0.25, 1), CubicBezier(0, 1, 1, 0), CubicBezier(1, 0, 0, 1),
    ])
  func solvedWithinToleranceInX(curve: CubicBezier) {
    for i in 1..<1000 {
      let x = Double(i) / 1000
      let t = curve.parameter(forX: x)
      #expect(abs(curve.x(atParameter: t) - x) < 1e-6)
      #expect(abs(curve.value(at: x) - referenceValue(curve, x)) < 1e-5)
    }
  }
}
