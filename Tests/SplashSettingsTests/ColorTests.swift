// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

@Suite struct ColorTests {
  @Test func parsesAndFormatsHex() {
    #expect(Color(hex: "#FF8000") == Color(red: 255, green: 128, blue: 0))
    #expect(Color(hex: "#ff8000")?.hex == "#FF8000")
    #expect(Color(hex: "FF8000") == nil)
    #expect(Color(hex: "#FF800") == nil)
    #expect(Color(hex: "#f80") == Color(red: 255, green: 136, blue: 0))
    #expect(Color(hex: "#f8") == nil)
    #expect(Color(hex: "#FF80000") == nil)
  }

  @Test func formatsNumbers() {
    #expect(formatNumber(1.2) == "1.2")
    #expect(formatNumber(60) == "60")
    #expect(formatFixed(0.0166666, decimals: 6) == "0.016667")
    #expect(formatFixed(1, decimals: 3) == "1.000")
    // No decimals: rounded to a whole number, no point (this trapped once).
    #expect(formatFixed(12.6, decimals: 0) == "13" && formatFixed(0, decimals: 0) == "0")
  }
}
