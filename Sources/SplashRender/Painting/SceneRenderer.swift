// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSettings

/// Draws scenes onto a physical display through a painter, with every asset
/// prepared once: scaled to its placement and turned to the display's
/// rotation at load, so that a frame is only plain copies (and, for the
/// cross-fade, one blend).
public final class SceneRenderer {
  public let painter: LayerPainter
  public private(set) var layout: SplashLayout
  /// The layout before `keepBehind` put what lay behind another scene in
  /// its background's place; nil when it did not.
  private var ownLayout: SplashLayout?
  public let rotation: Rotation
  public private(set) var composer: SceneComposer
  /// The progress bar, message and animation drawn over the splash; nil for none.
  public var status: StatusLayers?
  /// The logical sizes of the assets adopted after load (the message, the
  /// animation's frames).
  private var adoptedSizes: [AssetID: PixelSize] = [:]
  /// Host mode: whether what lies behind the splash is the program's frame
  /// drawn from where it lies, lent for each draw (`lend`), rather than a
  /// copy the painter keeps.
  public private(set) var drawsBehindInPlace = false

  /// Prepares `images` (keyed by asset) for `layout`, hands them to
  /// `painter`, and releases the decoded pixels; `kept` is told what the
  /// painter kept of each (what a cache may store).
  public convenience init(
    painter: LayerPainter, layout: SplashLayout, transition: TransitionKind, rotation: Rotation,
    images: [AssetID: DecodedImage], kept: ((AssetID, Pixels, Bool) -> Void)? = nil
  ) throws(RenderError) {
    self.init(painter: painter, layout: layout, transition: transition, rotation: rotation)
    for (asset, image) in images.sorted(by: { $0.key.name < $1.key.name }) {
      defer { image.release() }
      guard let placement = layout.placements[asset], !placement.destination.isEmpty else { continue }
      let opaque = Self.isOpaque(asset, in: layout)
      let prepared = try prepare(image, placement: placement, opaque: opaque)
      let adopted = try painter.adopt(prepared, as: asset, opaque: opaque)
      kept?(asset, adopted, opaque)
    }
  }

  /// Hands `painter` pictures prepared for `layout` before (by a start
  /// whose cache they come from).
  public convenience init(
    painter: LayerPainter, layout: SplashLayout, transition: TransitionKind, rotation: Rotation,
    prepared: [AssetID: Pixels]
  ) throws(RenderError) {
    self.init(painter: painter, layout: layout, transition: transition, rotation: rotation)
    for (asset, pixels) in prepared.sorted(by: { $0.key.name < $1.key.name }) {
      try painter.adopt(pixels, as: asset, opaque: Self.isOpaque(asset, in: layout))
    }
  }

  private init(painter: LayerPainter, layout: SplashLayout, transition: TransitionKind, rotation: Rotation) {
    self.painter = painter
    self.layout = layout
    self.rotation = rotation
    composer = SceneComposer(layout: layout, transition: transition, exactPixels: painter.exactPixels)
  }

  /// Whether `asset` is drawn as opaque in `layout`. A background picture's
  /// transparency is ignored: nothing lies behind it.
  public static func isOpaque(_ asset: AssetID, in layout: SplashLayout) -> Bool {
    layout.opaque.contains(asset) || asset == .background
  }

  /// The assets `layout` draws from pictures (those a scene prepares).
  public static func preparedAssets(of layout: SplashLayout) -> [AssetID] {
    layout.placements.filter { !$0.value.destination.isEmpty }.keys.sorted { $0.name < $1.name }
  }

  /// Prepares `pixels` (upright, in logical orientation), scaled to `size`,
  /// and hands them to the painter as `asset`, replacing what it had.
  public func adopt(_ pixels: Pixels, as asset: AssetID, size: PixelSize, opaque: Bool) throws(RenderError) {
    let whole = Rect(x: 0, y: 0, width: Double(pixels.width), height: Double(pixels.height))
    let prepared = try prepare(pixels, source: whole, size: size, opaque: opaque)
    try painter.adopt(prepared, as: asset, opaque: opaque)
    adoptedSizes[asset] = size
  }

  /// Host mode: `pixels` (upright, the canvas's size: the program's frame)
  /// are what lies behind the splash from now on, in place of the
  /// background colour or picture. `lent` pixels are readable only now:
  /// a screen that shows them as they are (upright, in its own layout, in
  /// memory) draws them from where they lie at each frame, lent again
  /// then (`lend`); any other keeps them prepared as every picture is.
  public func showBehind(_ pixels: Pixels, lent: Bool = false) throws(RenderError) {
    if case .color = layout.backdrop {
      layout = layout.over(.image(ImageInfo(size: layout.canvas, opaque: true)))
      composer = SceneComposer(layout: layout, transition: composer.transition, exactPixels: composer.exactPixels)
    }
    if lent, showsAsTheyAre(pixels) {
      painter.release(.background)
      adoptedSizes[.background] = layout.canvas
      drawsBehindInPlace = true
      return
    }
    drawsBehindInPlace = false
    try adopt(pixels, as: .background, size: layout.canvas, opaque: true)
  }

  /// Whether opaque `pixels` would be drawn as they are: the canvas's size,
  /// upright, kept by the painter without a conversion.
  private func showsAsTheyAre(_ pixels: Pixels) -> Bool {
    guard rotation == .none, pixels.width == layout.canvas.width, pixels.height == layout.canvas.height,
      let surfaces = painter as? SurfacePainter
    else { return false }
    return surfaces.keepsAsItIs(pixels, opaque: true)
  }

  /// Host mode, where `drawsBehindInPlace`: the program's frame as it is
  /// now (nil: there is none), for the draws until `endLending`.
  public func lend(_ frame: Pixels?) {
    guard drawsBehindInPlace, let frame, showsAsTheyAre(frame) else { return }
    // Kept as it is: there is no conversion to fail.
    _ = try? painter.adopt(frame, as: .background, opaque: true)
  }

  /// The frame `lend` gave is read no more: the painter lets go of it.
  public func endLending() {
    if drawsBehindInPlace { painter.release(.background) }
  }

  /// Host mode, the splash made again on the same screen (its painter):
  /// what lay behind `previous` (the program's last frame, which the
  /// painter still holds) lies behind this one too, unless this one has a
  /// background picture of its own, which took its place.
  public func keepBehind(from previous: SceneRenderer) {
    guard painter === previous.painter, case .color = layout.backdrop, case .image = previous.layout.backdrop,
      let size = previous.adoptedSizes[.background], size == layout.canvas
    else { return }
    ownLayout = layout
    layout = layout.over(.image(ImageInfo(size: layout.canvas, opaque: true)))
    composer = SceneComposer(layout: layout, transition: composer.transition, exactPixels: composer.exactPixels)
    adoptedSizes[.background] = size
    drawsBehindInPlace = previous.drawsBehindInPlace
  }

  /// What `keepBehind` kept goes: the scene's own background again, the
  /// program's frame let go of.
  public func dropKeptBehind() {
    guard let ownLayout else { return }
    layout = ownLayout
    composer = SceneComposer(layout: layout, transition: composer.transition, exactPixels: composer.exactPixels)
    adoptedSizes[.background] = nil
    painter.release(.background)
    drawsBehindInPlace = false
    self.ownLayout = nil
  }

  /// Host mode, once the program is alone on the screen: lets go of the
  /// splash's pictures (the leaves or the picture, the message, the
  /// animation), keeping only what lies behind (the program's frame). What
  /// this renderer draws from now on is the transition's end.
  public func releaseSplashPictures() {
    for asset in Set(layout.placements.keys).union(adoptedSizes.keys) where asset != .background {
      painter.release(asset)
    }
    adoptedSizes = adoptedSizes.filter { $0.key == .background }
  }

  /// Scales the placed part of `image` to its destination size and turns it
  /// into a surface in the display's orientation and format.
  private func prepare(_ image: DecodedImage, placement: Placement, opaque: Bool) throws(RenderError) -> Pixels {
    try prepare(image.pixels!, source: placement.source, size: placement.destination.size, opaque: opaque)
  }

  /// Scales part `source` of `decoded` to `logicalSize` and turns it into a
  /// surface in the display's orientation and format. Pixels already of
  /// that size, format and orientation are used as they are.
  private func prepare(_ decoded: Pixels, source: Rect, size logicalSize: PixelSize, opaque: Bool) throws(RenderError)
    -> Pixels
  {
    let finalFormat = opaque ? opaqueFormat : alphaFormat
    let sourceRect = clampedSourceRect(source, in: decoded.surface.pointee)
    let needsScaling =
      sourceRect.x != 0 || sourceRect.y != 0 || Int(sourceRect.w) != decoded.width
      || Int(sourceRect.h) != decoded.height || logicalSize.width != Int(sourceRect.w)
      || logicalSize.height != Int(sourceRect.h)
    if !needsScaling && rotation == .none {
      if decoded.format == finalFormat { return decoded }
      return try converted(decoded, to: finalFormat)
    }
    // Scaling and turning work on 32-bit pixels (XRGB and ARGB share a layout).
    let pixels =
      decoded.surface.pointee.format.pointee.BytesPerPixel == 4 ? decoded : try converted(decoded, to: alphaFormat)
    var scaled = pixels
    if needsScaling {
      guard
        let target = SDL_CreateRGBSurfaceWithFormat(
          0, Int32(logicalSize.width), Int32(logicalSize.height), 32, pixels.format)
      else { throw RenderError("SDL_CreateRGBSurfaceWithFormat") }
      scaled = Pixels(adopting: target)
      var rect = sourceRect
      // SDL 2.26's bilinear stretch reads past a source, or writes past a
      // target, less than two pixels wide or high (it crashed on a 1x1
      // picture): those are stretched by nearest pixel.
      let tiny = min(rect.w, rect.h) < 2 || min(logicalSize.width, logicalSize.height) < 2
      let stretched =
        tiny
        ? SDL_SoftStretch(pixels.surface, &rect, target, nil)
        : SDL_SoftStretchLinear(pixels.surface, &rect, target, nil)
      if stretched != 0 { throw RenderError(tiny ? "SDL_SoftStretch" : "SDL_SoftStretchLinear") }
    }
    let physical = rotation.physicalSize(ofLogical: logicalSize)
    let turned = try Pixels(width: physical.width, height: physical.height, format: finalFormat)
    copyTurned(from: scaled.surface.pointee, logicalSize: logicalSize, to: turned.surface.pointee, physical: physical)
    return turned
  }

  private func converted(_ pixels: Pixels, to format: UInt32) throws(RenderError) -> Pixels {
    guard let surface = SDL_ConvertSurfaceFormat(pixels.surface, format, 0) else {
      throw RenderError("SDL_ConvertSurfaceFormat")
    }
    return Pixels(adopting: surface)
  }

  private func clampedSourceRect(_ r: Rect, in s: SDL_Surface) -> SDL_Rect {
    let x = min(max(Int(r.x.rounded()), 0), Int(s.w) - 1)
    let y = min(max(Int(r.y.rounded()), 0), Int(s.h) - 1)
    let w = min(max(Int(r.width.rounded()), 1), Int(s.w) - x)
    let h = min(max(Int(r.height.rounded()), 1), Int(s.h) - y)
    return SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(w), h: Int32(h))
  }

  /// Copies the logical picture into physical pixels turned by `rotation`.
  private func copyTurned(from s: SDL_Surface, logicalSize: PixelSize, to t: SDL_Surface, physical: PixelSize) {
    let sourcePitch = Int(s.pitch)
    let targetPitch = Int(t.pitch)
    if rotation == .none {
      for y in 0..<physical.height {
        (t.pixels! + y * targetPitch).copyMemory(from: s.pixels! + y * sourcePitch, byteCount: physical.width * 4)
      }
      return
    }
    let source = s.pixels!
    for py in 0..<physical.height {
      let row = (t.pixels! + py * targetPitch).assumingMemoryBound(to: UInt32.self)
      for px in 0..<physical.width {
        let (lx, ly) = rotation.logicalPixel(ofPhysical: px, py, inLogical: logicalSize)
        row[px] = source.load(fromByteOffset: ly * sourcePitch + lx * 4, as: UInt32.self)
      }
    }
  }

  /// The frame at eased `progress`, `time` seconds after the first: the
  /// splash, and the status layers showing `boot` over it, faded with the
  /// transition (the scene's, or `transition`).
  public func scene(
    progress: Double, time: Double, status boot: BootStatus = BootStatus(), transition: TransitionKind? = nil
  ) -> Scene {
    var scene = composer.scene(progress: progress, as: transition)
    if let status {
      let alpha = StatusLayout.alpha(progress: progress, transition: transition ?? composer.transition)
      if alpha > 0 { scene.layers += status.layers(boot, time: time, alpha: alpha) }
    }
    return scene
  }

  /// Draws the frame at eased `progress`, `time` seconds after the first,
  /// with `status`, in the scene's transition or `transition`; with `clip`
  /// (logical pixels), only what falls inside it; on `drawing` (see
  /// `draw(_:on:)`) rather than with its painter.
  public func draw(
    progress: Double, time: Double = 0, status: BootStatus = BootStatus(), clip: Rect? = nil,
    transition: TransitionKind? = nil, on drawing: (any LayerDrawing)? = nil
  ) {
    let scene = scene(progress: progress, time: time, status: status, transition: transition)
    draw(clip.map { scene.clipped(to: $0) } ?? scene, on: drawing)
  }

  /// Draws `scene`, mapping the logical canvas to the physical display, with
  /// its painter or on `drawing` (host mode: the frame composed on the GPU,
  /// from the painter's pictures).
  public func draw(_ scene: Scene, on drawing: (any LayerDrawing)? = nil) {
    let painter = drawing ?? painter
    for layer in scene.layers {
      let destination = rotation.physicalRect(layer.destination, inLogical: layout.canvas)
      switch layer.content {
      case .color(let color):
        painter.fill(destination, with: color, alpha: layer.alpha)
      case .image(let asset, let source):
        guard let size = layout.preparedSize(of: asset) ?? adoptedSizes[asset] else { continue }
        let turned = rotation.physicalRect(source, inLogical: size)
        painter.draw(asset, source: turned, destination: destination, alpha: layer.alpha)
      }
    }
    painter.finish()
  }
}
