// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem
import Testing

@testable import SplashApp

/// Which way each screen of a KMS card is turned.
@Suite struct ScreenRotationTests {
  func screen(_ name: String, panel: Rotation?) throws -> OutputScreen {
    OutputScreen(
      name: name, size: PixelSize(width: 8, height: 8),
      painter: try OffscreenOutput(size: PixelSize(width: 8, height: 8)).painter,
      panelRotation: panel, mode: "8x8@60", frameAge: nil)
  }

  @Test func aSectionThenAnExplicitRotateThenThePanelThenTheSplashsTurn() throws {
    var settings = Settings()
    let panel = try screen("DSI-1", panel: .threeQuarters)
    let plain = try screen("HDMI-A-1", panel: nil)
    // Nothing said: the panel's own orientation, else the splash's (resolved) turn.
    #expect(SceneMaker.rotation(of: panel, settings, global: .half) == .threeQuarters)
    #expect(SceneMaker.rotation(of: plain, settings, global: .half) == .half)
    // rotate = 90 given: it beats the panel's property.
    try settings.apply(key: "rotate", value: "90", from: .commandLine)
    #expect(SceneMaker.rotation(of: panel, settings, global: .quarter) == .quarter)
    // A screen's own section beats everything.
    settings.screens["DSI-1"] = ScreenSettings(rotate: Rotation.none)
    #expect(SceneMaker.rotation(of: panel, settings, global: .quarter) == Rotation.none)
  }
}
