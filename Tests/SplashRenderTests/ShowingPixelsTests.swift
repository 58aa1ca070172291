// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

/// `Pixels.showing`: a part of the program's window on a screen's canvas,
/// copied where the sizes agree and scaled where they differ, the rest the
/// background (host mode's `screens`).
@Suite struct ShowingPixelsTests {
  static let red: UInt32 = 0xFF0000
  static let green: UInt32 = 0x00FF00
  static let blue = Color(red: 0, green: 0, blue: 255)

  /// A window of `width`x`height`, its left half red, its right half green.
  func window(width: Int, height: Int) throws -> Pixels {
    SDLThreadCleanup.register()
    let window = try Pixels(width: width, height: height, format: SDL_PIXELFORMAT_RGB888.rawValue)
    for y in 0..<height {
      let row = (window.surface.pointee.pixels! + y * Int(window.surface.pointee.pitch)).assumingMemoryBound(
        to: UInt32.self)
      for x in 0..<width { row[x] = x < width / 2 ? Self.red : Self.green }
    }
    return window
  }

  func pixel(_ pixels: Pixels, _ x: Int, _ y: Int) -> UInt32 {
    (pixels.surface.pointee.pixels! + y * Int(pixels.surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)[x]
      & 0xFF_FFFF
  }

  /// The right half of a 40x20 window, copied to the left of a 30x20 canvas.
  @Test func aPartOfTheSameSizeIsCopied() throws {
    let placed = Placement(
      source: Rect(x: 20, y: 0, width: 20, height: 20), destination: PixelRect(x: 0, y: 0, width: 20, height: 20))
    let shown = try Pixels.showing(
      window(width: 40, height: 20), placed: placed, on: PixelSize(width: 30, height: 20), fill: Self.blue)
    #expect(shown.width == 30 && shown.height == 20)
    #expect((0..<20).allSatisfy { x in (0..<20).allSatisfy { pixel(shown, x, $0) == Self.green } })
    #expect((20..<30).allSatisfy { x in (0..<20).allSatisfy { pixel(shown, x, $0) == 0x0000FF } })
  }

  /// A 40x20 window fitted into 80x60: doubled, centred (rows 10 to 49),
  /// the background above and below.
  @Test func theWholeWindowIsScaledToItsPlace() throws {
    let placed = Fit.contain.placement(
      of: PixelSize(width: 40, height: 20), in: PixelRect(x: 0, y: 0, width: 80, height: 60))
    #expect(placed.destination == PixelRect(x: 0, y: 10, width: 80, height: 40))
    let shown = try Pixels.showing(
      window(width: 40, height: 20), placed: placed, on: PixelSize(width: 80, height: 60), fill: Self.blue)
    for y in [0, 9, 50, 59] { #expect((0..<80).allSatisfy { pixel(shown, $0, y) == 0x0000FF }, "row \(y)") }
    for y in [10, 30, 49] {
      #expect((0..<36).allSatisfy { pixel(shown, $0, y) == Self.red }, "row \(y)")
      #expect((44..<80).allSatisfy { pixel(shown, $0, y) == Self.green }, "row \(y)")
    }
  }

  /// A program's frame larger than the canvas (the old size, just after a
  /// turn), changed only where it is cut off: nothing is copied, and the
  /// picture is left as it was (this once trapped on a backwards range).
  @Test func aChangedPartWhollyCutOffCopiesNothing() throws {
    let frame = try window(width: 40, height: 20)
    let canvas = try Pixels.centred(
      frame.surface.pointee.pixels!, size: PixelSize(width: 40, height: 20),
      stride: Int(frame.surface.pointee.pitch), on: PixelSize(width: 20, height: 40), fill: Self.blue)
    let before = (0..<40).flatMap { y in (0..<20).map { pixel(canvas, $0, y) } }
    // Columns 35 to 39 lie right of the canvas (the frame's 10..<30 show).
    for part in [PixelRect(x: 35, y: 0, width: 5, height: 20), PixelRect(x: 0, y: 0, width: 5, height: 20)] {
      canvas.placeCentred(
        frame.surface.pointee.pixels!, size: PixelSize(width: 40, height: 20),
        stride: Int(frame.surface.pointee.pitch), part: part)
    }
    #expect((0..<40).flatMap { y in (0..<20).map { pixel(canvas, $0, y) } } == before)
  }
}
