// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashWaylandHost
import Testing

/// Whether a program's buffer has anything in it.
@Suite struct HostedBufferTests {
  /// `pixels` as a buffer of `width` pixels a row and `stride` bytes from
  /// one row to the next, told to `body`.
  func buffer<Result>(
    _ pixels: [UInt32], width: Int, stride: Int, hasAlpha: Bool, _ body: (HostedBuffer) -> Result
  ) -> Result {
    pixels.withUnsafeBytes { bytes in
      body(
        HostedBuffer(
          pixels: bytes.baseAddress!, size: PixelSize(width: width, height: pixels.count * 4 / stride),
          stride: stride, hasAlpha: hasAlpha))
    }
  }

  @Test func aTransparentBufferShowsNothing() {
    #expect(buffer([UInt32](repeating: 0, count: 12), width: 4, stride: 16, hasAlpha: true) { $0.showsNothing })
    // Colour without alpha is still nothing: premultiplied, it cannot be there.
    let colourWithoutAlpha = [UInt32](repeating: 0x00FF_FFFF, count: 12)
    #expect(buffer(colourWithoutAlpha, width: 4, stride: 16, hasAlpha: true) { $0.showsNothing })
  }

  @Test func onePixelWithAlphaIsSomething() {
    var pixels = [UInt32](repeating: 0, count: 12)
    pixels[11] = 0x0100_0000
    #expect(!buffer(pixels, width: 4, stride: 16, hasAlpha: true) { $0.showsNothing })
  }

  /// Black without alpha (XRGB8888) is a colour: the buffer shows it.
  @Test func aBufferWithoutAlphaAlwaysShowsSomething() {
    #expect(!buffer([UInt32](repeating: 0, count: 12), width: 4, stride: 16, hasAlpha: false) { $0.showsNothing })
  }

  /// What lies past a row's pixels, before the next row, is not looked at.
  @Test func theBytesBetweenRowsAreNotPixels() {
    // Rows of 3 pixels, 4 apart: the fourth of each opaque, outside the buffer.
    let pixels: [UInt32] = [0, 0, 0, 0xFF00_0000, 0, 0, 0, 0xFF00_0000]
    #expect(buffer(pixels, width: 3, stride: 16, hasAlpha: true) { $0.showsNothing })
  }
}
