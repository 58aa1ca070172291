// SPDX-License-Identifier: Apache-2.0
import CSDL2
import CSDL2Image
import Foundation
import SplashCore
import SplashRender
import SplashSettings
import SplashTestSupport
import Testing

/// The status layers as rendered: pixels computed in the test.
@Suite struct StatusLayerTests {
  static let splashColor: UInt32 = 0x20_3040
  static let fill: UInt32 = 0xFF_FFFF
  static let track: UInt32 = 0x40_4040

  /// A uniform splash picture, with `settings`' status layers over it, at
  /// `progress` and `time`, on a display of `display`.
  func frame(
    _ pairs: [(String, String)], display: PixelSize = PixelSize(width: 400, height: 200), rotation: Rotation = .none,
    transition: TransitionKind = .doors, progress: Double = 0, time: Double = 0, status: BootStatus? = nil,
    animation: DecodedAnimation? = nil
  ) throws -> Frame {
    SDLThreadCleanup.register()
    let dir = try TemporaryDirectory()
    let path = dir.path + "/splash.png"
    writePNG(path, width: 40, height: 20) { _, _ in 0xFF00_0000 | Self.splashColor }
    var settings = Settings()
    for (key, value) in pairs { try settings.apply(key: key, value: value, from: .commandLine) }
    var budget = PixelBudget(limit: 1_000_000)
    let image = try DecodedImage(path: path, what: "test", budget: &budget)
    let layout = SplashLayout(
      canvas: rotation.logicalSize(ofPhysical: display), artwork: .single(image.info), backdrop: .color(.black),
      fit: .cover)
    let offscreen = try OffscreenOutput(size: display)
    let scene = try SceneRenderer(
      painter: offscreen.painter, layout: layout, transition: transition, rotation: rotation,
      images: [.splash: image])
    let height = StatusLayout(settings, canvas: layout.canvas).textHeight
    let shown = status ?? BootStatus(settings)
    scene.status = try StatusLayers(
      settings, renderer: scene, message: shown.message,
      font: { () throws(RenderError) in
        try Font(path: settings.message.font, pixels: height, what: "--message-font")
      }, animation: animation)
    scene.draw(progress: progress, time: time, status: shown)
    return Frame(width: display.width, height: display.height, pixels: offscreen.pixels())
  }

  @Test func theBarFillsItsShareOfItsRectInTheFillColourAndTheRestIsTrack() throws {
    SDLThreadCleanup.register()
    let frame = try frame([("progress", "40"), ("progress-rect", "0.1, 0.5, 0.5, 0.1")])
    // The rect is 200x20 at (40, 100): filled 80 pixels, track 120.
    for y in 100..<120 {
      for x in 40..<120 { #expect(frame.at(x, y) == Self.fill, "(\(x), \(y))") }
      for x in 120..<240 { #expect(frame.at(x, y) == Self.track, "(\(x), \(y))") }
    }
    // Around it, the picture.
    for (x, y) in [(39, 110), (240, 110), (100, 99), (100, 120), (0, 0), (399, 199)] {
      #expect(frame.at(x, y) == Self.splashColor, "(\(x), \(y))")
    }
  }

  @Test func aHiddenBarAndNoTrackDrawNothing() throws {
    SDLThreadCleanup.register()
    let plain = try frame([])
    #expect(plain.pixels.allSatisfy { $0 == Self.splashColor })
    let untracked = try frame([("progress", "0"), ("progress-track", "none")])
    #expect(untracked.pixels.allSatisfy { $0 == Self.splashColor })
  }

  @Test func turnedTheBarIsTheUprightRenderTurned() throws {
    SDLThreadCleanup.register()
    let settings = [("progress", "40"), ("progress-rect", "0.1, 0.5, 0.5, 0.1"), ("progress-color", "#FF8000")]
    let upright = try frame(settings, display: PixelSize(width: 200, height: 400))
    for rotation in [Rotation.quarter, .half, .threeQuarters] {
      let display = rotation.physicalSize(ofLogical: PixelSize(width: 200, height: 400))
      let turned = try frame(settings, display: display, rotation: rotation)
      #expect(turned == upright.turned(rotation), "\(rotation)")
    }
  }

  @Test func theBarFadesWithTheTransition() throws {
    SDLThreadCleanup.register()
    let settings = [("progress", "100"), ("progress-rect", "0.1, 0.5, 0.5, 0.1")]
    // Cross-fade at 0.5: the bar at half over the picture at half over black.
    let half = try frame(settings, transition: .crossfade, progress: 0.5)
    let (r, g, b) = channels(half.at(100, 110))
    // Picture 0x203040 at half over black: 0x101820; the white bar at half over that.
    #expect(
      abs(r - (0x10 + 255) / 2) <= 2 && abs(g - (0x18 + 255) / 2) <= 2 && abs(b - (0x20 + 255) / 2) <= 2,
      "\(r) \(g) \(b)")
    // Doors: half gone at 1/8 of the way, gone at a quarter.
    let eighth = try frame(settings, progress: 0.125)
    let (r8, _, _) = channels(eighth.at(45, 110))
    #expect(abs(r8 - (0x20 + 255) / 2) <= 2, "\(r8)")
    let quarter = try frame(settings, progress: 0.25)
    #expect(quarter.at(20, 110) == Self.splashColor)
  }

  @Test func theMessageRendersInsideItsBoxAndNowhereElse() throws {
    SDLThreadCleanup.register()
    let settings = [("message", "Hello, kiosk"), ("message-center", "0.5, 0.5"), ("message-size", "0.2")]
    let shown = try frame(settings)
    let plain = try frame([])
    var changed: [(Int, Int)] = []
    for y in 0..<200 { for x in 0..<400 where shown.at(x, y) != plain.at(x, y) { changed.append((x, y)) } }
    #expect(changed.count > 200, "the text drew \(changed.count) pixels")
    // Lines are 40 px high (0.2 of the shorter side), centred at (200, 100).
    for (x, y) in changed { #expect(abs(y - 100) <= 20 && abs(x - 200) < 180, "(\(x), \(y))") }
    // Anti-aliased white text: some pixels are white, some in between.
    #expect(changed.contains { shown.at($0.0, $0.1) == 0xFF_FFFF })
    #expect(changed.contains { channels(shown.at($0.0, $0.1)).0 < 0xF0 })
  }

  @Test func aMessageTooWideIsCutWithAnEllipsis() throws {
    SDLThreadCleanup.register()
    let font = try Font(path: MessageSettings.defaultFont, pixels: 20, what: "font")
    let long = String(repeating: "Mounting the data partition ", count: 20)
    let cut = font.fitted(long, maxWidth: 300)
    #expect(cut.hasSuffix("…") && font.width(of: cut) <= 300 && cut.count > 10)
    #expect(font.width(of: String(long.prefix(cut.count))) > 300 - font.width(of: "M"))
    #expect(font.fitted("Short", maxWidth: 300) == "Short")
    // Grapheme clusters stay whole: a flag is two scalars.
    let flags = font.fitted(String(repeating: "🇫🇷", count: 200), maxWidth: 100)
    #expect(flags.unicodeScalars.count % 2 == 1, "\(flags)")
  }

  @Test func aMissingOrBadFontIsAClearError() throws {
    SDLThreadCleanup.register()
    #expect(throws: RenderError(call: "--message-font /nope.ttf", reason: "no such file or directory")) {
      _ = try Font(path: "/nope.ttf", pixels: 20, what: "--message-font /nope.ttf")
    }
    let dir = try TemporaryDirectory()
    let bogus = dir.path + "/bogus.ttf"
    try Data("not a font".utf8).write(to: URL(fileURLWithPath: bogus))
    do {
      _ = try Font(path: bogus, pixels: 20, what: "--message-font")
      Issue.record("a text file opened as a font")
    } catch {
      #expect(error.description.hasPrefix("--message-font: not a font SDL2_ttf can read"), "\(error)")
    }
    #expect(throws: RenderError.self) { _ = try Font(path: dir.path, pixels: 20, what: "--message-font") }
  }

  @Test func theAnimationShowsItsFramesInOrderAtTheirTimes() throws {
    SDLThreadCleanup.register()
    let dir = try TemporaryDirectory()
    let colors: [UInt32] = [0xFF_0000, 0x00_FF00, 0x00_00FF]
    // Numbered out of lexical order: 10 comes after 9.
    for (number, color) in zip([1, 9, 10], colors) {
      writePNG(dir.path + "/frame\(number).png", width: 8, height: 8) { _, _ in 0xFF00_0000 | color }
    }
    let animation = try DecodedAnimation(path: dir.path, what: "--animation", fps: 10)
    #expect(animation.frames.count == 3 && animation.size == PixelSize(width: 8, height: 8))
    let settings = [("animation", dir.path), ("animation-rect", "0.25, 0.25, 0.5, 0.5")]
    for (time, color) in [(0.0, colors[0]), (0.15, colors[1]), (0.25, colors[2]), (0.31, colors[0])] {
      let shown = try frame(settings, time: time, animation: animation)
      // A square in a 200x100 box: 100x100 at (150, 50).
      #expect(shown.at(150, 50) == color && shown.at(249, 149) == color, "at \(time)")
      #expect(shown.at(149, 100) == Self.splashColor && shown.at(250, 100) == Self.splashColor)
    }
  }

  @Test func animationsAreSizedBeforeTheyAreDecoded() throws {
    SDLThreadCleanup.register()
    let dir = try TemporaryDirectory()
    // A GIF whose canvas claims 16384x16384: refused from its blocks.
    var huge: [UInt8] = Array("GIF89a".utf8) + [0x00, 0x40, 0x00, 0x40, 0x00, 0, 0]
    huge += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
    try Data(huge).write(to: URL(fileURLWithPath: dir.path + "/huge.gif"))
    do {
      _ = try DecodedAnimation(path: dir.path + "/huge.gif", what: "--animation", fps: nil)
      Issue.record("a 16384x16384 GIF was decoded")
    } catch {
      #expect(error.reason == "1 frames of 16384x16384 take 1024 MiB decoded; at most 64 MiB are accepted", "\(error)")
    }
    // A frame larger than its canvas counts at its own size.
    var sneaky: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x00, 0, 0]
    sneaky += [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
    try Data(sneaky).write(to: URL(fileURLWithPath: dir.path + "/sneaky.gif"))
    #expect(throws: RenderError.self) { _ = try DecodedAnimation(path: dir.path + "/sneaky.gif", what: "x", fps: nil) }
    // More than 600 frames.
    var many: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x00, 0, 0]
    for _ in 0..<601 { many += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0] }
    many.append(0x3B)
    try Data(many).write(to: URL(fileURLWithPath: dir.path + "/many.gif"))
    do {
      _ = try DecodedAnimation(path: dir.path + "/many.gif", what: "--animation", fps: nil)
      Issue.record("a 601-frame GIF was decoded")
    } catch {
      #expect(error.reason == "has 601 frames; at most 600 are accepted", "\(error)")
    }
    // Not a GIF, an empty folder, a missing file.
    try Data("hello".utf8).write(to: URL(fileURLWithPath: dir.path + "/text.gif"))
    #expect(throws: RenderError.self) { _ = try DecodedAnimation(path: dir.path + "/text.gif", what: "x", fps: nil) }
    let empty = dir.path + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
    do {
      _ = try DecodedAnimation(path: empty, what: "--animation", fps: nil)
      Issue.record("an empty folder was an animation")
    } catch {
      #expect(error.description == "--animation \(empty): holds no numbered PNG files (1.png, 2.png, ...)")
    }
    #expect(throws: RenderError.self) { _ = try DecodedAnimation(path: dir.path + "/none.gif", what: "x", fps: nil) }
  }

  @Test func aFolderOfFramesIsCheckedFromTheirHeadersFirst() throws {
    SDLThreadCleanup.register()
    func refusal(_ files: [String: Data]) throws -> String {
      let dir = try TemporaryDirectory()
      for (name, data) in files { try data.write(to: URL(fileURLWithPath: dir.path + "/" + name)) }
      do {
        _ = try DecodedAnimation(path: dir.path, what: "--animation", fps: nil)
        return "taken"
      } catch {
        return error.reason
      }
    }
    let square = makePNG(width: 8, height: 8) { _, _ in (1, 2, 3) }
    #expect(
      try refusal(["1.png": square, "2.png": makePNG(width: 8, height: 4) { _, _ in (1, 2, 3) }])
        == "2.png is 8x4, the first frame 1.png 8x8")
    // Frames that would take 128 MiB: refused from their headers alone (they hold no pixels).
    let big = pngHeaderOnly(width: 4096, height: 4096)
    #expect(
      try refusal(["1.png": big, "2.png": big])
        == "2 frames of 4096x4096 take 128 MiB decoded; at most 64 MiB are accepted")
    var bmp = Data("BM".utf8) + Data(repeating: 0, count: 52)
    bmp[18] = 8
    bmp[22] = 8
    bmp[14] = 40
    #expect(try refusal(["1.png": square, "2.png": bmp]).hasPrefix("2.png"))
    // A frame cut short after its header is refused as it is decoded, by name.
    #expect(try refusal(["1.png": square, "2.png": pngHeaderOnly(width: 8, height: 8)]).hasPrefix("2.png: "))
  }

  @Test func anAnimatedGIFDecodesWithItsDelays() throws {
    SDLThreadCleanup.register()
    let dir = try TemporaryDirectory()
    let path = dir.path + "/spin.gif"
    // Two 2x2 frames, red then green, 50 and 200 ms (hand-built: LZW of four pixels).
    var gif: [UInt8] = Array("GIF89a".utf8) + [2, 0, 2, 0, 0xF0, 0, 0]
    gif += [0xFF, 0, 0, 0, 0xFF, 0]  // global colours: red, green
    for (delay, index) in [(5, 0), (20, 1)] {
      gif += [0x21, 0xF9, 4, 0, UInt8(delay), 0, 0, 0]
      gif += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0]
      // Min code size 2; codes: clear(4), idx x4, end(5), 3 bits each.
      let codes = [4, index, index, index, index, 5]
      var bits = 0
      var count = 0
      var data: [UInt8] = []
      for code in codes {
        bits |= code << count
        count += 3
        while count >= 8 {
          data.append(UInt8(bits & 0xFF))
          bits >>= 8
          count -= 8
        }
      }
      if count > 0 { data.append(UInt8(bits & 0xFF)) }
      gif += [2, UInt8(data.count)] + data + [0]
    }
    gif.append(0x3B)
    try Data(gif).write(to: URL(fileURLWithPath: path))
    let animation = try DecodedAnimation(path: path, what: "--animation", fps: nil)
    #expect(animation.frames.count == 2 && animation.size == PixelSize(width: 2, height: 2))
    #expect(animation.timeline.delays == [0.05, 0.2])
    let fixed = try DecodedAnimation(path: path, what: "--animation", fps: 4)
    #expect(fixed.timeline.delays == [0.25, 0.25])
  }
}
