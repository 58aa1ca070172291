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

  /// The unit square's map shows a picture's logical rectangle where the
  /// turn puts it: each corner of a rectangle on the canvas goes where
  /// `physicalRect` puts that corner's pixel, and the inverse turn takes
  /// the physical rectangle back.
  @Test(arguments: Rotation.allCases)
  func theUnitSquareMapPutsAPictureWhereTheTurnPutsIt(rotation: Rotation) {
    let logical = Rect(x: 40, y: 30, width: 100, height: 60)
    let destination = rotation.physicalRect(logical, inLogical: canvas)
    let map = rotation.unitSquareMap(onto: destination)
    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.25, 0.5)] {
      // The logical point, and the physical one a zero-sized rectangle there goes to.
      let point = Rect(x: logical.x + u * logical.width, y: logical.y + v * logical.height, width: 0, height: 0)
      let turned = rotation.physicalRect(point, inLogical: canvas)
      let mapped = map.apply(u, v)
      #expect(mapped.x == turned.x && mapped.y == turned.y, "(\(u), \(v)): \(mapped) against \(turned)")
    }
    let physical = rotation.physicalSize(ofLogical: canvas)
    let back = rotation.inverse.physicalRect(destination, inLogical: physical)
    #expect(back == logical, "\(back)")
  }
}
