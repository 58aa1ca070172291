// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

/// The surface painter's blend of an opaque picture (a cross-fade's frame):
/// every byte the weighted mean of picture and target, to the unit, and only
/// inside the picture's rectangle clipped to the target. The contract a
/// faster blend than SDL's blit (#27) must keep.
@Suite struct SurfaceBlendTests {
  static let format = SDL_PIXELFORMAT_RGB888.rawValue
  /// The target's pixels before drawing, and the picture's.
  static func under(_ x: Int, _ y: Int) -> UInt32 { UInt32(x * 6) << 16 | UInt32(y * 20) << 8 | 0x40 }
  static func over(_ x: Int, _ y: Int) -> UInt32 { 0xC8 << 16 | UInt32(x * 12) << 8 | UInt32(255 - y * 25) }

  /// A 37x11 target holding `under`, a painter on it and a 20x9 picture of
  /// `over` adopted as the splash.
  func scene() throws -> (Pixels, SurfacePainter) {
    SDLThreadCleanup.register()
    let target = try Pixels(width: 37, height: 11, format: Self.format)
    let picture = try Pixels(width: 20, height: 9, format: Self.format)
    fill(target, Self.under)
    fill(picture, Self.over)
    let painter = SurfacePainter(target: target.surface)
    try painter.adopt(picture, as: AssetID.splash, opaque: true)
    return (target, painter)
  }

  func fill(_ pixels: Pixels, _ color: (Int, Int) -> UInt32) {
    for y in 0..<pixels.height {
      let row = (pixels.surface.pointee.pixels! + y * Int(pixels.surface.pointee.pitch)).assumingMemoryBound(
        to: UInt32.self)
      for x in 0..<pixels.width { row[x] = color(x, y) }
    }
  }

  func pixel(_ pixels: Pixels, _ x: Int, _ y: Int) -> UInt32 {
    (pixels.surface.pointee.pixels! + y * Int(pixels.surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)[x]
      & 0xFF_FFFF
  }

  /// Picture over target at `alpha`, a byte at a time, to the unit.
  func mixed(_ picture: UInt32, _ below: UInt32, alpha: Double) -> UInt32 {
    let weight = UInt32((alpha * 256).rounded())
    func mix(_ shift: UInt32) -> UInt32 {
      (((picture >> shift & 0xFF) * weight + (below >> shift & 0xFF) * (256 - weight)) >> 8) << shift
    }
    return mix(16) | mix(8) | mix(0)
  }

  /// Draws the picture hanging off the target's left and bottom edges: 20x9
  /// at (-5, 4), so that it shows at x < 15, y >= 4.
  func drawPicture(_ painter: SurfacePainter, alpha: Double) {
    painter.draw(
      AssetID.splash, source: PixelRect(x: 0, y: 0, width: 20, height: 9),
      destination: Rect(x: -5, y: 4, width: 20, height: 9), alpha: alpha)
  }

  @Test(arguments: [0.0, 0.25, 0.5, 0.9, 1.0])
  func anOpaquePictureBlendsByteForByteInsideItsClippedRectangle(alpha: Double) throws {
    let (target, painter) = try scene()
    drawPicture(painter, alpha: alpha)
    painter.finish()
    for y in 0..<11 {
      for x in 0..<37 {
        let expected =
          x < 15 && y >= 4 ? mixed(Self.over(x + 5, y - 4), Self.under(x, y), alpha: alpha) : Self.under(x, y)
        #expect(pixel(target, x, y) == expected, "(\(x), \(y)) at \(alpha)")
      }
    }
  }

  /// A cross-fade over the background colour: the picture blended with the
  /// fill's colour where it lies, the fill painted everywhere else (the
  /// painter blends with the colour rather than painting the fill first).
  @Test(arguments: [0.25, 0.5, 0.9])
  func aPictureOverAFillBlendsWithItsColourAndTheRestIsFilled(alpha: Double) throws {
    let (target, painter) = try scene()
    let color: UInt32 = 0x20_80E0
    painter.fill(Rect(x: 0, y: 0, width: 37, height: 11), with: Color(red: 0x20, green: 0x80, blue: 0xE0), alpha: 1)
    drawPicture(painter, alpha: alpha)
    painter.finish()
    for y in 0..<11 {
      for x in 0..<37 {
        let expected = x < 15 && y >= 4 ? mixed(Self.over(x + 5, y - 4), color, alpha: alpha) : color
        #expect(pixel(target, x, y) == expected, "(\(x), \(y)) at \(alpha)")
      }
    }
  }

  /// A fill the picture only partly covers is painted before the picture
  /// is blended over it; a later fill over the picture is painted over it.
  @Test func fillsAndPicturesKeepTheirOrder() throws {
    let (target, painter) = try scene()
    let (first, last): (UInt32, UInt32) = (0x10_2030, 0xF0_E0D0)
    painter.fill(Rect(x: 0, y: 0, width: 10, height: 11), with: Color(red: 0x10, green: 0x20, blue: 0x30), alpha: 1)
    drawPicture(painter, alpha: 0.5)
    painter.fill(Rect(x: 0, y: 0, width: 37, height: 2), with: Color(red: 0xF0, green: 0xE0, blue: 0xD0), alpha: 1)
    painter.finish()
    for y in 0..<11 {
      for x in 0..<37 {
        let below = x < 10 ? first : Self.under(x, y)
        let expected =
          y < 2 ? last : x < 15 && y >= 4 ? mixed(Self.over(x + 5, y - 4), below, alpha: 0.5) : below
        #expect(pixel(target, x, y) == expected, "(\(x), \(y))")
      }
    }
  }
}
