// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct RotationTests {
  let canvas = PixelSize(width: 400, height: 300)

  @Test func logicalCanvasSwapsForQuarterTurns() {
    let display = PixelSize(width: 1920, height: 1080)
    #expect(Rotation.none.logicalSize(ofPhysical: display) == display)
    #expect(Rotation.half.logicalSize(ofPhysical: display) == display)
    #expect(Rotation.quarter.logicalSize(ofPhysical: display) == PixelSize(width: 1080, height: 1920))
    #expect(Rotation.threeQuarters.logicalSize(ofPhysical: display) == PixelSize(width: 1080, height: 1920))
  }

  @Test func quarterTurnMovesTheTopLeftCornerToTheTopRight() {
    // A 10×20 block at the logical top-left corner of a 400×300 canvas.
    let block = PixelRect(x: 0, y: 0, width: 10, height: 20)
    // 90° clockwise: the physical display is 300×400; the block lands top right, turned.
    #expect(Rotation.quarter.physicalRect(block, inLogical: canvas) == PixelRect(x: 280, y: 0, width: 20, height: 10))
    #expect(Rotation.half.physicalRect(block, inLogical: canvas) == PixelRect(x: 390, y: 280, width: 10, height: 20))
    #expect(
      Rotation.threeQuarters.physicalRect(block, inLogical: canvas) == PixelRect(x: 0, y: 390, width: 20, height: 10))
  }

  /// A touch on the panel lands where the content under it is: every
  /// logical point, turned onto the panel and read back as fractions of the
  /// panel's width and height (what a touch screen reports), maps home.
  @Test(arguments: Rotation.allCases)
  func aTouchOnThePanelLandsOnTheContentUnderIt(rotation: Rotation) {
    let map = rotation.logicalPointMap(inLogical: canvas)
    let panel = rotation.physicalSize(ofLogical: canvas)
    for (x, y) in [(0.0, 0.0), (400, 0), (0, 300), (100, 50), (399.5, 299.5)] {
      let touched = rotation.physicalRect(Rect(x: x, y: y, width: 0, height: 0), inLogical: canvas)
      let landed = map.apply(touched.x / Double(panel.width), touched.y / Double(panel.height))
      #expect(abs(landed.x - x) < 1e-9 && abs(landed.y - y) < 1e-9, "\(rotation) (\(x), \(y)) → \(landed)")
    }
  }

  /// The panel's top-left corner (where a touch screen reports 0, 0) is
  /// the logical canvas's bottom-left corner once the content is turned 90°.
  @Test func aQuarterTurnPutsThePanelsTopLeftAtTheCanvassBottomLeft() {
    let corner = Rotation.quarter.logicalPointMap(inLogical: canvas).apply(0, 0)
    #expect(corner == (x: 0, y: 300))
  }

  @Test(arguments: Rotation.allCases)
  func pixelMappingAgreesWithRectMapping(rotation: Rotation) {
    // Every logical pixel, as a 1×1 rect, maps to the physical pixel that
    // logicalPixel(ofPhysical:) maps back to it.
    let size = PixelSize(width: 7, height: 5)
    for y in 0..<size.height {
      for x in 0..<size.width {
        let p = rotation.physicalRect(PixelRect(x: x, y: y, width: 1, height: 1), inLogical: size)
        let back = rotation.logicalPixel(ofPhysical: p.x, p.y, inLogical: size)
        #expect(back == (x, y))
        let f = rotation.physicalRect(Rect(x: Double(x), y: Double(y), width: 1, height: 1), inLogical: size)
        #expect(f == p.rect)
      }
    }
  }

  @Test(arguments: Rotation.allCases)
  func fourTurnsAreIdentity(rotation: Rotation) {
    var rect = Rect(x: 12.25, y: 3.5, width: 100.75, height: 40)
    var size = canvas
    for _ in 0..<4 {
      rect = Rotation.quarter.physicalRect(rect, inLogical: size)
      size = size.transposed
    }
    #expect(rect == Rect(x: 12.25, y: 3.5, width: 100.75, height: 40))
  }
}

@Suite struct FitTests {
  let box = PixelRect(x: 0, y: 0, width: 1920, height: 1080)

  @Test func coverFillsTheBoxAndCutsTheOverflow() {
    // A 4:3 picture covering 16:9: full width, top and bottom cut.
    let p = Fit.cover.placement(of: PixelSize(width: 800, height: 600), in: box)
    #expect(p.destination == box)
    #expect(abs(p.source.width - 800) < 1e-9)
    #expect(abs(p.source.height - 450) < 1e-9)
    #expect(abs(p.source.y - 75) < 1e-9)
  }

  @Test func containFitsInsideAndCentres() {
    let p = Fit.contain.placement(of: PixelSize(width: 800, height: 600), in: box)
    #expect(p.destination == PixelRect(x: 240, y: 0, width: 1440, height: 1080))
    #expect(p.source == Rect(x: 0, y: 0, width: 800, height: 600))
  }

  @Test func stretchFillsExactly() {
    let p = Fit.stretch.placement(of: PixelSize(width: 100, height: 700), in: box)
    #expect(p.destination == box)
    #expect(p.source == Rect(x: 0, y: 0, width: 100, height: 700))
  }

  @Test func centerKeepsPixelsOneToOne() {
    let small = Fit.center.placement(of: PixelSize(width: 200, height: 100), in: box)
    #expect(small.destination == PixelRect(x: 860, y: 490, width: 200, height: 100))
    let large = Fit.center.placement(of: PixelSize(width: 4000, height: 1080), in: box)
    #expect(large.destination == box)
    #expect(large.source == Rect(x: 1040, y: 0, width: 1920, height: 1080))
  }

  @Test func placementInAnOffsetBox() {
    let right = PixelRect(x: 960, y: 0, width: 960, height: 1080)
    let p = Fit.contain.placement(of: PixelSize(width: 100, height: 100), in: right)
    #expect(p.destination == PixelRect(x: 960, y: 60, width: 960, height: 960))
  }
}

@Suite struct PixelRectTests {
  /// Subtracting leaves exactly the pixels of the first rectangle outside
  /// the second, each in one piece only, whatever the two overlap.
  @Test(arguments: [
    PixelRect(x: 2, y: 2, width: 4, height: 3),  // inside
    PixelRect(x: -3, y: 1, width: 5, height: 20),  // over the left edge, top to bottom
    PixelRect(x: 0, y: 0, width: 10, height: 8),  // all of it
    PixelRect(x: 8, y: 6, width: 9, height: 9),  // a corner
    PixelRect(x: 20, y: 0, width: 3, height: 3),  // apart
  ])
  func subtractingLeavesEveryPixelOutsideTheOtherOnce(other: PixelRect) {
    let whole = PixelRect(x: 0, y: 0, width: 10, height: 8)
    let pieces = whole.subtracting(other)
    let pixel = { (x: Int, y: Int) in PixelRect(x: x, y: y, width: 1, height: 1) }
    for y in -4..<24 {
      for x in -4..<24 {
        let expected = whole.contains(pixel(x, y)) && !other.intersects(pixel(x, y)) ? 1 : 0
        #expect(pieces.filter { $0.contains(pixel(x, y)) }.count == expected, "(\(x), \(y))")
      }
    }
    #expect(pieces.allSatisfy { !$0.isEmpty })
    #expect(whole.intersects(other) == !(pieces == [whole]))
    #expect(
      whole.contains(other)
        == (other.x >= 0 && other.y >= 0 && other.x + other.width <= 10 && other.y + other.height <= 8))
  }
}
