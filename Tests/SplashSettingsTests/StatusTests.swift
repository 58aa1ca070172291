// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

/// The status layers' settings, layout and timing, and their commands.
@Suite struct StatusTests {
  func settings(_ pairs: [(String, String)]) throws(SettingsError) -> Settings {
    var s = Settings()
    for (k, v) in pairs { try s.apply(key: k, value: v, from: .commandLine) }
    return s
  }

  func refusal(_ key: String, _ value: String) -> String? {
    do {
      _ = try settings([(key, value)])
      return nil
    } catch {
      return error.message
    }
  }

  @Test func defaultsAreTheDocumentedOnes() throws {
    let s = try settings([])
    #expect(!s.progress.show && s.progress.rect == FractionRect(x: 0.3, y: 0.88, width: 0.4, height: 0.012))
    #expect(s.progress.color.hex == "#FFFFFF" && s.progress.track?.hex == "#404040" && s.progress.source == .client)
    #expect(s.message.text == nil && s.message.font == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    #expect(s.message.size == 0.035 && s.message.center == FractionPoint(x: 0.5, y: 0.82))
    #expect(s.animation.file == nil && s.animation.fps == nil)
    #expect(BootStatus(s) == BootStatus(progress: nil, message: nil))
    // --progress N shows the bar at N.
    let shown = try settings([("progress", "40"), ("message", "Hi there")])
    #expect(BootStatus(shown) == BootStatus(progress: 40, message: "Hi there"))
  }

  @Test func badValuesAreRefusedNamingTheOption() {
    #expect(refusal("progress", "abc") == "--progress: expected a number from 0 to 100, got \"abc\"")
    #expect(refusal("progress", "101")?.hasPrefix("--progress: expected a number from 0 to 100") == true)
    #expect(refusal("progress", "-1") != nil)
    for rect in [
      "0.5, 0.5, 0.6, 0.1", "0.1, 0.1, 0, 0.1", "0.1, 0.1, 0.1", "a, b, c, d", "0.1,0.1,0.1,0.1,0.1",
      "-0.1, 0, 0.5, 0.5",
    ] {
      #expect(refusal("progress-rect", rect)?.hasPrefix("--progress-rect: expected X, Y, W, H") == true, "\(rect)")
      #expect(refusal("animation-rect", rect) != nil, "\(rect)")
    }
    #expect(refusal("progress-color", "red") == "--progress-color: expected #RRGGBB or #RGB, got \"red\"")
    #expect(refusal("progress-track", "#12345") == "--progress-track: expected #RRGGBB, #RGB or none, got \"#12345\"")
    #expect(refusal("message-color", "white") != nil)
    #expect(refusal("message-size", "0") != nil && refusal("message-size", "0.6") != nil)
    #expect(refusal("message-center", "0.5") != nil && refusal("message-center", "1.5, 0.5") != nil)
    #expect(refusal("message", "") != nil)
    #expect(refusal("message", String(repeating: "x", count: 1025)) != nil)
    #expect(refusal("animation-fps", "0") != nil && refusal("animation-fps", "241") != nil)
    #expect(
      refusal("progress-source", "psplash") == "--progress-source: expected client, time or systemd, got \"psplash\"")
  }

  @Test func fractionsOfTheCanvasBecomeWholePixels() throws {
    let rect = try #require(FractionRect("0.30, 0.88, 0.40, 0.012"))
    #expect(rect.pixels(in: PixelSize(width: 1920, height: 1080)) == PixelRect(x: 576, y: 950, width: 768, height: 13))
    // At least one pixel on a side, however small.
    let tiny = try #require(FractionRect("0, 0, 0.0001, 0.0001"))
    #expect(tiny.pixels(in: PixelSize(width: 100, height: 100)) == PixelRect(x: 0, y: 0, width: 1, height: 1))
    #expect(FractionRect("0, 0, 1, 1") != nil)
  }

  @Test func theBarFillsFromTheLeftOrFromTheRightWhenNegative() throws {
    let s = try settings([("progress-rect", "0.1, 0.5, 0.5, 0.1")])
    let layout = StatusLayout(s, canvas: PixelSize(width: 200, height: 100))
    #expect(layout.bar == PixelRect(x: 20, y: 50, width: 100, height: 10))
    #expect(layout.filled(percent: 40) == PixelRect(x: 20, y: 50, width: 40, height: 10))
    #expect(layout.filled(percent: -25) == PixelRect(x: 95, y: 50, width: 25, height: 10))
    #expect(layout.filled(percent: 250) == layout.bar)
    #expect(layout.filled(percent: 0) == nil)
    let track = Color(red: 0x40, green: 0x40, blue: 0x40)
    let white = Color(red: 255, green: 255, blue: 255)
    #expect(
      layout.barLayers(percent: 40, alpha: 1) == [
        Layer(content: .color(track), destination: Rect(x: 60, y: 50, width: 60, height: 10)),
        Layer(content: .color(white), destination: Rect(x: 20, y: 50, width: 40, height: 10)),
      ])
    #expect(
      layout.barLayers(percent: -25, alpha: 0.5) == [
        Layer(content: .color(track), destination: Rect(x: 20, y: 50, width: 75, height: 10), alpha: 0.5),
        Layer(content: .color(white), destination: Rect(x: 95, y: 50, width: 25, height: 10), alpha: 0.5),
      ])
    let noTrack = StatusLayout(try settings([("progress-track", "none")]), canvas: PixelSize(width: 200, height: 100))
    #expect(noTrack.barLayers(percent: 0, alpha: 1).isEmpty)
    #expect(noTrack.barLayers(percent: 100, alpha: 1).count == 1)
  }

  @Test func theMessageIsCentredAndTheAnimationFittedInItsBox() throws {
    let s = try settings([
      ("message-center", "0.5, 0.8"), ("message-size", "0.1"), ("animation-rect", "0, 0, 0.5, 0.5"),
    ])
    let layout = StatusLayout(s, canvas: PixelSize(width: 400, height: 200))
    #expect(layout.textHeight == 20 && layout.textMaxWidth == 360)
    #expect(
      layout.messageRect(size: PixelSize(width: 100, height: 20)) == PixelRect(x: 150, y: 150, width: 100, height: 20))
    // A square animation in a 200x100 box: 100x100, centred.
    #expect(
      layout.animationRect(frameSize: PixelSize(width: 64, height: 64))
        == PixelRect(x: 50, y: 0, width: 100, height: 100))
  }

  @Test func theLayersFadeWithTheTransition() {
    #expect(StatusLayout.alpha(progress: 0, transition: .crossfade) == 1)
    #expect(StatusLayout.alpha(progress: 0.4, transition: .crossfade) == 0.6)
    #expect(StatusLayout.alpha(progress: 0.125, transition: .doors) == 0.5)
    #expect(StatusLayout.alpha(progress: 0.25, transition: .doors) == 0)
    #expect(StatusLayout.alpha(progress: 1, transition: .doors) == 0)
  }

  @Test func animationFramesLoopAtTheirDelays() throws {
    let timeline = AnimationTimeline(delays: [0.1, 0.2, 0.1])
    #expect(timeline.period == 0.4)
    #expect([0, 0.05, 0.1, 0.29, 0.31, 0.4, 0.55, 0.85].map(timeline.frame(at:)) == [0, 0, 1, 1, 2, 0, 1, 0])
    #expect(try #require(timeline.nextChange(after: 0)) == 0.1)
    #expect(abs(try #require(timeline.nextChange(after: 0.15)) - 0.3) < 1e-9)
    #expect(abs(try #require(timeline.nextChange(after: 0.35)) - 0.4) < 1e-9)
    #expect(abs(try #require(timeline.nextChange(after: 0.45)) - 0.5) < 1e-9)
    // A GIF that asks for no delay plays at 10 frames a second; one frame never changes.
    #expect(AnimationTimeline(delays: [0, 0]).delays == [0.1, 0.1])
    #expect(AnimationTimeline(delays: [0.1]).nextChange(after: 3) == nil)
    #expect(AnimationTimeline(count: 30, fps: 30).frame(at: 1.5) == 15)
  }

  @Test func aClippedSceneRepaintsOnlyInsideTheClip() {
    let scene = Scene(layers: [
      Layer(content: .color(.black), destination: Rect(x: 0, y: 0, width: 100, height: 100)),
      Layer(
        content: .image(.splash, source: PixelRect(x: 0, y: 0, width: 50, height: 100)),
        destination: Rect(x: 0, y: 0, width: 50, height: 100)),
      Layer(
        content: .image(.background, source: PixelRect(x: 0, y: 0, width: 20, height: 20)),
        destination: Rect(x: 60, y: 0, width: 40, height: 40)),
    ])
    let clipped = scene.clipped(to: Rect(x: 40, y: 10, width: 30, height: 20))
    #expect(
      clipped.layers == [
        Layer(content: .color(.black), destination: Rect(x: 40, y: 10, width: 30, height: 20)),
        Layer(
          content: .image(.splash, source: PixelRect(x: 40, y: 10, width: 10, height: 20)),
          destination: Rect(x: 40, y: 10, width: 10, height: 20)),
        // Scaled 2:1: the source is cut at half the size.
        Layer(
          content: .image(.background, source: PixelRect(x: 0, y: 5, width: 5, height: 10)),
          destination: Rect(x: 60, y: 10, width: 10, height: 20)),
      ])
    #expect(scene.clipped(to: Rect(x: 200, y: 200, width: 5, height: 5)).layers.isEmpty)
  }

  @Test func statusCommandsParse() {
    #expect(ControlCommand.parse("progress 40") == .success(.progress(40)))
    #expect(ControlCommand.parse("progress 150") == .success(.progress(100)))
    #expect(ControlCommand.parse("progress -5") == .success(.progress(0)))
    #expect(ControlCommand.parse("progress 12.5") == .success(.progress(12.5)))
    #expect(ControlCommand.parse("progress x") == .failure(ControlError("progress needs one number, 0 to 100")))
    #expect(ControlCommand.parse("progress") == .failure(ControlError("progress needs one number, 0 to 100")))
    #expect(ControlCommand.parse("progress 1e3") == .failure(ControlError("progress needs one number, 0 to 100")))
    #expect(ControlCommand.parse("message Mounting  /data …") == .success(.message("Mounting  /data …")))
    #expect(ControlCommand.parse("message Hi\r") == .success(.message("Hi")))
    #expect(ControlCommand.parse("message") == .success(.message(nil)))
    #expect(ControlCommand.parse("message ") == .success(.message(nil)))
    #expect(ControlCommand.parse("message " + String(repeating: "x", count: 1025)) != .success(.message(nil)))
    #expect(ControlCommand.parse("snapshot") == .success(.snapshot))
    #expect(ControlCommand.parse("snapshot /tmp/x.png") == .failure(ControlError("snapshot takes no argument")))
  }
}
