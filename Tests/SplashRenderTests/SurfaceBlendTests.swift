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
  @Test(arguments: [0.0, 0.25, 0.5, 0.9, 1.0])
  func anOpaquePictureBlendsByteForByteInsideItsClippedRectangle(alpha: Double) throws {
    SDLThreadCleanup.register()
    let format = SDL_PIXELFORMAT_RGB888.rawValue
    let target = try Pixels(width: 37, height: 11, format: format)
    let picture = try Pixels(width: 20, height: 9, format: format)
    func fill(_ pixels: Pixels, _ color: (Int, Int) -> UInt32) {
      for y in 0..<pixels.height {
        let row = (pixels.surface.pointee.pixels! + y * Int(pixels.surface.pointee.pitch)).assumingMemoryBound(
          to: UInt32.self)
        for x in 0..<pixels.width { row[x] = color(x, y) }
      }
    }
    func at(_ x: Int, _ y: Int) -> UInt32 {
      (target.surface.pointee.pixels! + y * Int(target.surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)[x]
    }
    let under: (Int, Int) -> UInt32 = { x, y in UInt32(x * 6) << 16 | UInt32(y * 20) << 8 | 0x40 }
    let over: (Int, Int) -> UInt32 = { x, y in 0xC8 << 16 | UInt32(x * 12) << 8 | UInt32(255 - y * 25) }
    fill(target, under)
    fill(picture, over)
    let painter = SurfacePainter(target: target.surface)
    try painter.adopt(picture, as: AssetID.splash, opaque: true)
    // Hanging off the target's left and bottom edges: 20x9 at (-5, 4).
    painter.draw(
      AssetID.splash, source: PixelRect(x: 0, y: 0, width: 20, height: 9),
      destination: Rect(x: -5, y: 4, width: 20, height: 9),
      alpha: alpha)
    let weight = UInt32((alpha * 256).rounded())
    func mix(_ a: UInt32, _ b: UInt32, _ shift: UInt32) -> UInt32 {
      ((a >> shift & 0xFF) * weight + (b >> shift & 0xFF) * (256 - weight)) >> 8
    }
    for y in 0..<11 {
      for x in 0..<37 {
        let inside = x < 15 && y >= 4
        let expected =
          inside
          ? mix(over(x + 5, y - 4), under(x, y), 16) << 16 | mix(over(x + 5, y - 4), under(x, y), 8) << 8
            | mix(over(x + 5, y - 4), under(x, y), 0)
          : under(x, y)
        #expect(at(x, y) & 0xFF_FFFF == expected, "(\(x), \(y)) at \(alpha)")
      }
    }
  }
}
