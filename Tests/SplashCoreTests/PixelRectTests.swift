// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

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
