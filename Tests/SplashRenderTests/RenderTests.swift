// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Foundation
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

// SDL_image initialises its PNG codec lazily and not thread-safely: one render at a time.

@Suite(.serialized) struct RenderTests {
  let dir = try! TemporaryDirectory()
  let display = PixelSize(width: 320, height: 180)

  func solid(_ name: String, _ color: UInt32, width: Int = 160, height: Int = 180) -> String {
    let path = "\(dir.path)/\(name).png"
    writePNG(path, width: width, height: height) { _, _ in color }
    return path
  }

  func pattern(_ name: String, width: Int, height: Int) -> String {
    let path = "\(dir.path)/\(name).png"
    writePNG(path, width: width, height: height) { gradient($0, $1, width: width, height: height) }
    return path
  }

  /// Pictures of a pixel or a row, scaled to any display (down to one
  /// pixel) and turned, render: what `--check` accepts must render.
  @Test(arguments: [(1, 1), (1, 7), (7, 1), (2, 2)])
  func tinyPicturesRender(width: Int, height: Int) throws {
    let image = solid("tiny-\(width)x\(height)", 0xFF30_6090, width: width, height: height)
    for display in [PixelSize(width: 320, height: 180), PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 1)]
    {
      for rotation in [Rotation.none, .quarter] {
        for fit in [Fit.cover, .contain, .stretch, .center] {
          let frame = try render([.splash: image], display: display, rotation: rotation, fit: fit, progress: 0)
          #expect(frame.pixels.contains(0x306090), "\(width)x\(height) on \(display.description), \(fit)")
        }
      }
      let leaves = try render(
        [.left: image, .right: image], display: display, transition: .doors, progress: 0.5)
      #expect(leaves.pixels.count == display.width * display.height)
    }
  }

  @Test func firstFrameShowsTheSplashPixelForPixel() throws {
    SDLThreadCleanup.register()
    let image = pattern("exact", width: 320, height: 180)
    let frame = try render([.splash: image], display: display, progress: 0)
    for y in 0..<180 {
      for x in 0..<320 where frame.at(x, y) != gradient(x, y, width: 320, height: 180) & 0xFF_FFFF {
        Issue.record("pixel (\(x), \(y)) is \(frame.at(x, y)), expected the picture's")
        return
      }
    }
  }

  @Test(arguments: [TransitionKind.doors, .crossfade])
  func lastFrameShowsOnlyTheBackground(transition: TransitionKind) throws {
    let image = pattern("last", width: 320, height: 180)
    let color = Color(red: 0x33, green: 0x66, blue: 0x99)
    let frame = try render([.splash: image], display: display, transition: transition, background: color, progress: 1)
    #expect(frame.pixels.allSatisfy { $0 == 0x336699 })
    // And a background picture is shown in full.
    let backdrop = pattern("backdrop", width: 320, height: 180)
    let withPicture = try render(
      [.splash: image, .background: backdrop], display: display, transition: transition, progress: 1)
    #expect(
      withPicture.pixels
        == (0..<180).flatMap { y in (0..<320).map { gradient($0, y, width: 320, height: 180) & 0xFF_FFFF } })
  }

  @Test(arguments: [0.0, 0.25, 0.5, 0.7, 0.95])
  func doorLeafEdgesSitWhereTheEasedProgressPutsThem(linear: Double) throws {
    let timeline = Timeline(hold: 0, duration: 1.2, easing: .easeInOut)
    let progress = timeline.progress(at: linear * 1.2)
    let left = solid("red", 0xFFFF_0000)
    let right = solid("green", 0xFF00_FF00)
    let frame = try render(
      [.left: left, .right: right], display: display, background: Color(red: 0, green: 0, blue: 255),
      progress: progress)
    for y in [0, 90, 179] {
      let row = (0..<320).map { frame.at($0, y) }
      let leftEdge = (row.lastIndex(of: 0xFF0000) ?? -1) + 1
      let rightEdge = row.firstIndex(of: 0x00FF00) ?? 320
      #expect(abs(Double(leftEdge) - (160 - progress * 160)) <= 1)
      #expect(abs(Double(rightEdge) - (160 + progress * 160)) <= 1)
      // Nothing but background between the leaves, nothing stale anywhere.
      #expect(row[leftEdge..<rightEdge].allSatisfy { $0 == 0x0000FF })
      #expect(row.allSatisfy { $0 == 0xFF0000 || $0 == 0x00FF00 || $0 == 0x0000FF })
    }
  }

  @Test(arguments: [0.1, 0.3, 0.5, 0.77, 0.9])
  func crossfadePixelIsTheBlendForItsProgress(progress: Double) throws {
    let image = solid("orange", 0xFFC8_6432, width: 320)
    let background = Color(red: 20, green: 40, blue: 60)
    let frame = try render(
      [.splash: image], display: display, transition: .crossfade, background: background, progress: progress)
    let expected = [(200, 20), (100, 40), (50, 60)].map { Double($0.0) * (1 - progress) + Double($0.1) * progress }
    for (x, y) in [(0, 0), (160, 90), (319, 179)] {
      let (r, g, b) = channels(frame.at(x, y))
      #expect(
        abs(Double(r) - expected[0]) <= 2 && abs(Double(g) - expected[1]) <= 2 && abs(Double(b) - expected[2]) <= 2,
        "(\(r),\(g),\(b)) vs \(expected)")
    }
  }

  @Test(arguments: [Rotation.quarter, .half, .threeQuarters])
  func turnedRenderEqualsTheUprightRenderTurned(rotation: Rotation) throws {
    // A picture of another aspect, so that scaling and cutting take part too.
    let image = pattern("turn", width: 150, height: 110)
    for transition in TransitionKind.allCases {
      for fit in [Fit.cover, .contain] {
        for progress in [0, 0.137, 0.5, 0.861, 1] {
          let upright = try render(
            [.splash: image], display: display, transition: transition, fit: fit, progress: progress)
          let turned = try render(
            [.splash: image], display: rotation.physicalSize(ofLogical: display), rotation: rotation,
            transition: transition, fit: fit, background: .black, progress: progress)
          #expect(turned == upright.turned(rotation), "\(transition) \(fit) at \(progress)")
        }
      }
    }
  }

  @Test func transparentPixelsShowTheBackground() throws {
    SDLThreadCleanup.register()
    let path = "\(dir.path)/alpha.png"
    // Left half opaque white, right half fully transparent.
    writePNG(path, width: 320, height: 180) { x, _ in x < 160 ? 0xFFFF_FFFF : 0x00FF_FFFF }
    let frame = try render([.splash: path], display: display, background: Color(red: 9, green: 9, blue: 9), progress: 0)
    #expect(frame.at(10, 10) == 0xFFFFFF)
    #expect(frame.at(300, 10) == 0x090909)
  }

  /// Host mode, the program alone: the splash's pictures are let go of
  /// (the painter keeps only the program's frame behind), and the frame
  /// drawn then is the one drawn before, the program's own pixels.
  @Test func theProgramAloneNeedsNoneOfTheSplashsPictures() throws {
    SDLThreadCleanup.register()
    var budget = PixelBudget(limit: 64_000_000)
    let images = try [AssetID.left: solid("left", 0xFFFF_0000), .right: solid("right", 0xFF00_FF00)].mapValues {
      try DecodedImage(path: $0, what: "test", budget: &budget)
    }
    let layout = SplashLayout(
      canvas: display, artwork: .leaves(left: images[.left]!.info, right: images[.right]!.info),
      backdrop: .color(Color(red: 0, green: 0, blue: 255)), fit: .cover)
    let offscreen = try OffscreenOutput(size: display)
    let scene = try SceneRenderer(
      painter: offscreen.painter, layout: layout, transition: .doors, rotation: .none, images: images)
    let program = try Pixels(width: display.width, height: display.height, format: SDL_PIXELFORMAT_ARGB8888.rawValue)
    let surface = program.surface.pointee
    for y in 0..<display.height {
      let row = (surface.pixels + y * Int(surface.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<display.width { row[x] = gradient(x, y, width: display.width, height: display.height) }
    }
    try scene.showBehind(program)
    scene.draw(progress: 1)
    let before = offscreen.pixels()
    let painter = try #require(offscreen.painter as? SurfacePainter)
    #expect(painter.heldAssets == [.left, .right, .background])
    scene.releaseSplashPictures()
    #expect(painter.heldAssets == [.background])
    scene.draw(progress: 1)
    #expect(offscreen.pixels() == before)
    let expected = (0..<display.height).flatMap { y in
      (0..<display.width).map { gradient($0, y, width: display.width, height: display.height) & 0xFF_FFFF }
    }
    let differing = zip(before, expected).filter { $0 & 0xFF_FFFF != $1 }.count
    #expect(before.count == expected.count && differing == 0, "\(differing) pixels are not the program's")
  }

  /// Host mode: a program's frame lent to an upright screen in its layout
  /// is drawn from the program's own memory at each draw, the painter
  /// keeping no copy of it (what it draws follows that memory); a turned
  /// screen keeps a turned copy.
  @Test func aLentProgramFrameIsDrawnFromWhereItLiesWithoutACopy() throws {
    SDLThreadCleanup.register()
    let (width, height) = (display.width, display.height)
    var memory = (0..<height).flatMap { y in (0..<width).map { gradient($0, y, width: width, height: height) } }
    func scene(turned rotation: Rotation) throws -> (SceneRenderer, OffscreenOutput) {
      let layout = SplashLayout(
        canvas: display, artwork: .single(ImageInfo(size: display, opaque: true)),
        backdrop: .color(Color(red: 0, green: 0, blue: 255)), fit: .cover)
      let offscreen = try OffscreenOutput(size: display)
      let scene = try SceneRenderer(
        painter: offscreen.painter, layout: layout, transition: .doors, rotation: rotation, images: [:])
      return (scene, offscreen)
    }
    func drawn(_ scene: SceneRenderer, _ offscreen: OffscreenOutput) throws -> [UInt32] {
      try memory.withUnsafeBytes { bytes in
        scene.lend(try Pixels(lending: bytes.baseAddress!, size: display, stride: width * 4))
        scene.draw(progress: 1)
        scene.endLending()
      }
      return offscreen.pixels().map { $0 & 0xFF_FFFF }
    }
    let (upright, uprightOutput) = try scene(turned: .none)
    try memory.withUnsafeBytes { bytes in
      try upright.showBehind(try Pixels(lending: bytes.baseAddress!, size: display, stride: width * 4), lent: true)
    }
    let painter = try #require(uprightOutput.painter as? SurfacePainter)
    #expect(upright.drawsBehindInPlace)
    #expect(!painter.heldAssets.contains(.background))
    #expect(try drawn(upright, uprightOutput) == memory.map { $0 & 0xFF_FFFF })
    #expect(!painter.heldAssets.contains(.background))
    // The program draws into the same memory: the next frame shows it.
    for index in memory.indices { memory[index] = 0x00C0_8020 }
    #expect(try drawn(upright, uprightOutput) == memory.map { $0 & 0xFF_FFFF })

    let (turned, turnedOutput) = try scene(turned: .half)
    try memory.withUnsafeBytes { bytes in
      try turned.showBehind(try Pixels(lending: bytes.baseAddress!, size: display, stride: width * 4), lent: true)
    }
    #expect(!turned.drawsBehindInPlace)
    #expect(try #require(turnedOutput.painter as? SurfacePainter).heldAssets.contains(.background))
    for index in memory.indices { memory[index] = 0x0010_2030 }
    turned.draw(progress: 1)
    #expect(turnedOutput.pixels().allSatisfy { $0 & 0xFF_FFFF == 0xC0_8020 }, "the copy made when it was shown")
  }
}
