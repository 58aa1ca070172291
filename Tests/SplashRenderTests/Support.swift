// SPDX-License-Identifier: Apache-2.0
import CSDL2
import CSDL2Image
import Glibc
import SplashCore
import SplashRender
import SplashTestSupport

/// Writes a PNG of `width`×`height` whose pixel (x, y) is `color(x, y)` as 0xAARRGGBB.
func writePNG(_ path: String, width: Int, height: Int, color: (Int, Int) -> UInt32) {
  SDLThreadCleanup.register()
  let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)!
  defer { SDL_FreeSurface(surface) }
  for y in 0..<height {
    let row = (surface.pointee.pixels! + y * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
    for x in 0..<width { row[x] = color(x, y) }
  }
  precondition(IMG_SavePNG(surface, path) == 0)
}

/// A picture whose every pixel differs from its neighbours, so a turned or
/// shifted render cannot pass by accident.
func gradient(_ x: Int, _ y: Int, width: Int, height: Int) -> UInt32 {
  let r = UInt32(x * 255 / max(width - 1, 1))
  let g = UInt32(y * 255 / max(height - 1, 1))
  let b = UInt32((x * 7 + y * 13) & 0xFF)
  return 0xFF00_0000 | r << 16 | g << 8 | b
}

/// A rendered frame: width, height and 0xRRGGBB pixels row by row.
struct Frame: Equatable {
  var width: Int
  var height: Int
  var pixels: [UInt32]

  func at(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

  /// This frame turned clockwise by `rotation`, computed directly from the
  /// definition of a clockwise turn.
  func turned(_ rotation: Rotation) -> Frame {
    switch rotation {
    case .none: return self
    case .quarter:
      // New width = old height; new (px, py) shows old (py, H − 1 − px).
      return Frame(
        width: height, height: width,
        pixels: (0..<width).flatMap { py in (0..<height).map { px in at(py, height - 1 - px) } })
    case .half:
      return Frame(width: width, height: height, pixels: pixels.reversed())
    case .threeQuarters:
      return Frame(
        width: height, height: width,
        pixels: (0..<width).flatMap { py in (0..<height).map { px in at(width - 1 - py, px) } })
    }
  }
}

/// Decodes `paths` and renders the frame at `progress` offscreen.
func render(
  _ paths: [AssetID: String], display: PixelSize, rotation: Rotation = .none, transition: TransitionKind = .doors,
  fit: Fit = .cover, background: Color = .black, progress: Double
) throws -> Frame {
  SDLThreadCleanup.register()
  var budget = PixelBudget(limit: 64_000_000)
  let images = try paths.mapValues { try DecodedImage(path: $0, what: "test", budget: &budget) }
  let artwork: Artwork =
    images[.splash].map { .single($0.info) } ?? .leaves(left: images[.left]!.info, right: images[.right]!.info)
  let backdrop: Backdrop = images[.background].map { .image($0.info) } ?? .color(background)
  let layout = SplashLayout(
    canvas: rotation.logicalSize(ofPhysical: display), artwork: artwork, backdrop: backdrop, fit: fit)
  let offscreen = try OffscreenOutput(size: display)
  let scene = try SceneRenderer(
    painter: offscreen.painter, layout: layout, transition: transition, rotation: rotation, images: images)
  scene.draw(progress: progress)
  return Frame(width: display.width, height: display.height, pixels: offscreen.pixels())
}

func channels(_ p: UInt32) -> (Int, Int, Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }
