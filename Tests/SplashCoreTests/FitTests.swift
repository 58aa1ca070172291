// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

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
