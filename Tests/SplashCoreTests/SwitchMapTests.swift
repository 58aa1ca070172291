// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct SwitchMapTests {
  @Test func namesAndCodesMapToAngles() throws {
    let map = try #require(SwitchMap("SW_ROTATE_LOCK=90, KEY_F13 = 180,SW_3=270, KEY_300=0"))
    #expect(map.entries.map(\.code) == [0x0c, 183, 3, 300])
    #expect(map.entries.map(\.isKey) == [false, true, false, true])
    #expect(map.entries.map(\.rotation) == [.quarter, .half, .threeQuarters, .none])
    #expect(map.description == "SW_ROTATE_LOCK=90, KEY_F13=180, SW_3=270, KEY_300=0")
    // The first entry that is on wins; none on, no answer.
    #expect(map.rotation { $0.isKey && $0.code == 183 } == .half)
    #expect(map.rotation { $0.code == 3 || $0.code == 0x0c } == .quarter)
    #expect(map.rotation { _ in false } == nil)
  }

  @Test(arguments: [
    "", "SW_ROTATE_LOCK", "SW_ROTATE_LOCK=45", "SW_NOPE=90", "KEY_F12=90", "KEY_F25=90", "SW_17=90", "KEY_=90",
    "KEY_-1=90", "SW_LID=90,", "SW_LID=90 KEY_F13=180",
  ])
  func malformedMapsAreRefused(text: String) {
    #expect(SwitchMap(text) == nil)
  }
}
