// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct PanelOrientationTests {
  /// A panel mounted left side up is turned 90° clockwise: content turns
  /// 270° (fbcon's FB_ROTATE_CCW); the property's names and the kernel
  /// command line's spellings agree.
  @Test func propertyNamesAndCommandLineSpellingsMapAlike() {
    let expected: [(String, String, Rotation)] = [
      ("Normal", "normal", .none), ("Upside Down", "upside_down", .half),
      ("Left Side Up", "left_side_up", .threeQuarters),
      ("Right Side Up", "right_side_up", .quarter),
    ]
    for (property, spelling, rotation) in expected {
      #expect(panelOrientationRotation(property) == rotation)
      #expect(kernelCommandLineRotation("video=eDP-1:panel_orientation=\(spelling)") == rotation)
    }
    #expect(panelOrientationRotation("Sideways") == nil)
  }
}
