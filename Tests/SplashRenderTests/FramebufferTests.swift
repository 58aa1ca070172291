// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

/// A screen layout as a framebuffer driver reports it.
struct FakeMode: CustomStringConvertible, Sendable {
  var name: String
  var bitsPerPixel: Int
  var red: ChannelBits
  var green: ChannelBits
  var blue: ChannelBits
  var alpha = ChannelBits(offset: 0, length: 0)
  var description: String { name }

  static func bits(_ offset: Int, _ length: Int) -> ChannelBits { ChannelBits(offset: offset, length: length) }

  static let all = [
    FakeMode(name: "XRGB8888", bitsPerPixel: 32, red: bits(16, 8), green: bits(8, 8), blue: bits(0, 8)),
    FakeMode(name: "XBGR8888", bitsPerPixel: 32, red: bits(0, 8), green: bits(8, 8), blue: bits(16, 8)),
    FakeMode(
      name: "ARGB8888", bitsPerPixel: 32, red: bits(16, 8), green: bits(8, 8), blue: bits(0, 8), alpha: bits(24, 8)),
    FakeMode(name: "RGB24", bitsPerPixel: 24, red: bits(16, 8), green: bits(8, 8), blue: bits(0, 8)),
    FakeMode(name: "BGR24", bitsPerPixel: 24, red: bits(0, 8), green: bits(8, 8), blue: bits(16, 8)),
    FakeMode(name: "RGB565", bitsPerPixel: 16, red: bits(11, 5), green: bits(5, 6), blue: bits(0, 5)),
    FakeMode(name: "BGR565", bitsPerPixel: 16, red: bits(0, 5), green: bits(5, 6), blue: bits(11, 5)),
    FakeMode(
      name: "ARGB1555", bitsPerPixel: 16, red: bits(10, 5), green: bits(5, 5), blue: bits(0, 5), alpha: bits(15, 1)),
  ]
}

extension RenderTests {
  /// The framebuffer back end on a regular file standing in for /dev/fb0,
  /// with made-up modes: every pixel layout, a stride wider than the row,
  /// and a visible area offset into the virtual screen.
  @Suite struct FramebufferTests {
    let dir = try! TemporaryDirectory()
    static let untouched: UInt8 = 0xA5

    /// A file of `length` bytes, every one `untouched`.
    func fakeScreen(length: Int) -> String {
      let path = dir.path + "/fb-\(length)"
      let bytes = [UInt8](repeating: Self.untouched, count: length)
      let file = fopen(path, "w")!
      fwrite(bytes, 1, bytes.count, file)
      fclose(file)
      return path
    }

    func read(_ path: String, length: Int) -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: length)
      let file = fopen(path, "r")!
      fread(&bytes, 1, length, file)
      fclose(file)
      return bytes
    }

    /// Closed doors (copies), half-open doors (copies and a fill), and a
    /// crossfade (blends, which SDL does in the screen's own layout: a
    /// channel may be one step off the reduced 32-bit blend).
    static let frames: [(TransitionKind, Double)] = [(.doors, 0), (.doors, 0.5), (.crossfade, 0.5)]

    @Test(arguments: FakeMode.all, frames)
    func everyPixelLayoutShowsTheFrameAndNothingOutsideItChanges(
      layout: FakeMode, frame: (transition: TransitionKind, progress: Double)
    ) throws {
      let (width, height, xOffset, yOffset) = (64, 40, 3, 5)
      let bytesPerPixel = layout.bitsPerPixel / 8
      let lineLength = width * bytesPerPixel + 24 + xOffset * bytesPerPixel
      let length = lineLength * (height + yOffset + 2)
      let mode = FramebufferMode(
        width: width, height: height, bitsPerPixel: layout.bitsPerPixel, lineLength: lineLength, xOffset: xOffset,
        yOffset: yOffset, red: layout.red, green: layout.green, blue: layout.blue, alpha: layout.alpha,
        memoryLength: length)
      let path = fakeScreen(length: length)
      let picture = "\(dir.path)/picture.png"
      writePNG(picture, width: width, height: height) { gradient($0, $1, width: width, height: height) }
      // What the offscreen path draws for the same scene, in XRGB.
      let size = PixelSize(width: width, height: height)
      let background = Color(red: 0x33, green: 0x66, blue: 0x99)
      let expected = try render(
        [.splash: picture], display: size, transition: frame.transition, background: background,
        progress: frame.progress)

      let display = try FramebufferDisplay(framebuffer: try Framebuffer(file: path, mode: mode))
      var notes: [String] = []
      display.onNote = { notes.append($0) }
      var budget = PixelBudget(limit: 64_000_000)
      let image = try DecodedImage(path: picture, what: "test", budget: &budget)
      let scene = try SceneRenderer(
        painter: display.painter,
        layout: SplashLayout(canvas: size, artwork: .single(image.info), backdrop: .color(background), fit: .cover),
        transition: frame.transition, rotation: .none, images: [.splash: image])
      scene.draw(progress: frame.progress)
      _ = display.show(clock: { 0 })
      _ = display.show(clock: { 0 })
      #expect(notes == ["\(path): no vsync (FBIO_WAITFORVSYNC unsupported); pacing by a 60 Hz timer"])

      let bytes = read(path, length: length)
      var wrong = 0
      for row in 0..<(height + yOffset + 2) {
        for column in 0..<(lineLength / bytesPerPixel) {
          let at = row * lineLength + column * bytesPerPixel
          let (x, y) = (column - xOffset, row - yOffset)
          guard x >= 0, x < width, y >= 0, y < height else {
            // Outside the visible area (offsets, stride padding, spare rows): as it was.
            if bytes[at..<at + bytesPerPixel].contains(where: { $0 != Self.untouched }) { wrong += 1 }
            continue
          }
          var pixel: UInt32 = 0
          for i in 0..<bytesPerPixel { pixel |= UInt32(bytes[at + i]) << (8 * i) }
          let rgb = expected.at(x, y)
          func channel(_ bits: ChannelBits) -> UInt32 { (pixel & bits.mask) >> bits.offset }
          // SDL reduces a channel to fewer bits by dropping the low ones.
          let slack: UInt32 = frame.transition == .crossfade ? 1 : 0
          func near(_ bits: ChannelBits, _ value: UInt32) -> Bool {
            let wanted = (value & 0xFF) >> (8 - bits.length)
            let got = channel(bits)
            return got <= wanted + slack && got + slack >= wanted
          }
          let matches =
            near(layout.red, rgb >> 16) && near(layout.green, rgb >> 8) && near(layout.blue, rgb)
            && (layout.alpha.length == 0 || channel(layout.alpha) == layout.alpha.mask >> layout.alpha.offset)
          if !matches {
            if wrong < 5 {
              Issue.record(
                "(\(x), \(y)): \(String(pixel, radix: 16)) for \(String(rgb, radix: 16)) in \(layout), \(frame)")
            }
            wrong += 1
          }
        }
      }
      #expect(wrong == 0, "\(wrong) wrong pixels in \(layout)")
    }

    @Test func aPaletteScreenIsRefusedByName() throws {
      SDLThreadCleanup.register()
      let length = 64 * 40
      let mode = FramebufferMode(
        width: 64, height: 40, bitsPerPixel: 8, lineLength: 64, red: FakeMode.bits(0, 8), green: FakeMode.bits(0, 8),
        blue: FakeMode.bits(0, 8), isTrueColor: false, memoryLength: length)
      let path = fakeScreen(length: length)
      #expect {
        _ = try FramebufferDisplay(framebuffer: try Framebuffer(file: path, mode: mode))
      } throws: {
        "\($0)" == "\(path): unsupported pixel format: 8 bpp palette, red 8@0, green 8@0, blue 8@0 "
          + "(splashd draws 16, 24 and 32 bpp true colour)"
      }
    }

    @Test func aModeLargerThanItsMemoryIsRefused() throws {
      SDLThreadCleanup.register()
      let mode = FramebufferMode(
        width: 64, height: 40, bitsPerPixel: 32, lineLength: 256, yOffset: 40, red: FakeMode.bits(16, 8),
        green: FakeMode.bits(8, 8), blue: FakeMode.bits(0, 8), memoryLength: 256 * 60)
      let path = fakeScreen(length: 256 * 60)
      #expect {
        _ = try FramebufferDisplay(framebuffer: try Framebuffer(file: path, mode: mode))
      } throws: {
        "\($0)".hasSuffix("the mode 64x40 at (0, 40), 256 bytes a row, does not fit its 15360 bytes of memory")
      }
      let short = fakeScreen(length: 100)
      #expect(throws: SystemError(short, code: EINVAL, reason: "smaller than the mode's 15360 bytes")) {
        _ = try Framebuffer(file: short, mode: mode)
      }
    }
  }
}
