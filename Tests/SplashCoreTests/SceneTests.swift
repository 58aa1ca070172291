// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct SceneTests {
  let canvas = PixelSize(width: 101, height: 50)
  let opaque = ImageInfo(size: PixelSize(width: 101, height: 50), opaque: true)

  func composer(_ transition: TransitionKind, exact: Bool, artwork: Artwork? = nil, fit: Fit = .cover) -> SceneComposer
  {
    let layout = SplashLayout(
      canvas: canvas, artwork: artwork ?? .single(opaque), backdrop: .color(.black), fit: fit)
    return SceneComposer(layout: layout, transition: transition, exactPixels: exact)
  }

  func imageLayers(_ scene: Scene) -> [Layer] {
    scene.layers.filter { if case .image = $0.content { return true } else { return false } }
  }

  @Test func doorsAtRestShowTheWholePictureSplitAtTheCentreLine() {
    let scene = composer(.doors, exact: true).scene(progress: 0)
    let leaves = imageLayers(scene)
    #expect(leaves.count == 2)
    #expect(leaves[0].destination == Rect(x: 0, y: 0, width: 50, height: 50))
    #expect(leaves[1].destination == Rect(x: 50, y: 0, width: 51, height: 50))
    #expect(leaves[0].content == .image(.splash, source: PixelRect(x: 0, y: 0, width: 50, height: 50)))
    #expect(leaves[1].content == .image(.splash, source: PixelRect(x: 50, y: 0, width: 51, height: 50)))
    // Opaque leaves cover the canvas: no background is drawn under them.
    #expect(scene.layers.count == 2)
  }

  @Test func doorsOpenFullyOffCanvas() {
    let scene = composer(.doors, exact: true).scene(progress: 1)
    #expect(imageLayers(scene).isEmpty)
    #expect(scene.layers == [Layer(content: .color(.black), destination: Rect(x: 0, y: 0, width: 101, height: 50))])
  }

  @Test func exactDoorsSnapAndFillOnlyTheGap() {
    let scene = composer(.doors, exact: true).scene(progress: 0.3)
    let leaves = imageLayers(scene)
    // Left leaf moves 0.3 × 50 = 15; right leaf 0.3 × 51 = 15.3 → 15.
    #expect(leaves[0].destination.x == -15)
    #expect(leaves[1].destination.x == 65)
    let gaps = scene.layers.filter { if case .color = $0.content { return true } else { return false } }
    #expect(gaps.map(\.destination) == [Rect(x: 35, y: 0, width: 30, height: 50)])
  }

  @Test func subPixelDoorsKeepFractionsOverAFullBackground() {
    let scene = composer(.doors, exact: false).scene(progress: 0.3)
    let leaves = imageLayers(scene)
    #expect(abs(leaves[1].destination.x - 65.3) < 1e-9)
    #expect(scene.layers.first == Layer(content: .color(.black), destination: Rect(x: 0, y: 0, width: 101, height: 50)))
  }

  @Test func transparentPicturesGetTheWholeBackgroundBehind() {
    let seeThrough = ImageInfo(size: opaque.size, opaque: false)
    let scene = composer(.doors, exact: true, artwork: .single(seeThrough)).scene(progress: 0.3)
    #expect(scene.layers.first?.destination == Rect(x: 0, y: 0, width: 101, height: 50))
  }

  @Test func crossfadeFadesTheSplashOverTheBackground() {
    let c = composer(.crossfade, exact: true)
    // One opaque picture, whole (a blend over whole rows), nothing behind.
    #expect(
      c.scene(progress: 0).layers == [
        Layer(
          content: .image(.splash, source: PixelRect(x: 0, y: 0, width: 101, height: 50)),
          destination: Rect(x: 0, y: 0, width: 101, height: 50))
      ])
    let mid = c.scene(progress: 0.25)
    #expect(mid.layers.first?.content == .color(.black))
    #expect(imageLayers(mid).count == 1 && imageLayers(mid).allSatisfy { $0.alpha == 0.75 })
    #expect(imageLayers(c.scene(progress: 1)).isEmpty)
  }

  @Test func separateLeavesEachFillTheirHalf() {
    let leaf = ImageInfo(size: PixelSize(width: 10, height: 10), opaque: true)
    let c = composer(.doors, exact: true, artwork: .leaves(left: leaf, right: leaf), fit: .contain)
    #expect(c.layout.placements[.left]?.destination == PixelRect(x: 0, y: 0, width: 50, height: 50))
    // The right half is 51 wide: its 50 px leaf is centred (x 50.5 snaps to
    // 51) and the background shows in the one open column, and only there.
    #expect(c.layout.placements[.right]?.destination == PixelRect(x: 51, y: 0, width: 50, height: 50))
    let scene = c.scene(progress: 0)
    let open = scene.layers.filter { $0.content == .color(.black) }.map(\.destination)
    #expect(open == [Rect(x: 50, y: 0, width: 1, height: 50)])
  }
}
