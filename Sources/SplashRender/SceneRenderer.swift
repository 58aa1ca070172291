import CSDL2
import SplashCore

/// Draws scenes through an SDL renderer onto a physical display, with every
/// asset prepared once: scaled to its placement and turned to the display's
/// rotation at load, so that a frame is only plain copies (and, for the
/// cross-fade, one blend).
public final class SceneRenderer {
  public let renderer: OpaquePointer
  public let layout: SplashLayout
  public let rotation: Rotation
  public let composer: SceneComposer
  private var textures: [AssetID: OpaquePointer] = [:]

  /// Prepares `images` (keyed by asset) for `layout` on `renderer`, then
  /// releases the decoded pixels. `exactPixels` is for renderers that do
  /// not filter (SDL's software renderer): positions snap to whole pixels.
  public init(
    renderer: OpaquePointer, layout: SplashLayout, transition: TransitionKind, rotation: Rotation,
    images: [AssetID: DecodedImage], exactPixels: Bool
  ) throws(SDLError) {
    self.renderer = renderer
    self.layout = layout
    self.rotation = rotation
    composer = SceneComposer(layout: layout, transition: transition, exactPixels: exactPixels)
    for (asset, image) in images.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      guard let placement = layout.placements[asset], !placement.destination.isEmpty else {
        image.release()
        continue
      }
      let texture = try prepareTexture(
        image, placement: placement, opaque: layout.opaque.contains(asset) || asset == .background,
        filtered: !exactPixels)
      image.release()
      textures[asset] = texture
    }
  }

  deinit {
    for texture in textures.values { SDL_DestroyTexture(texture) }
  }

  /// Scales the placed part of `image` to its destination size, turns it,
  /// and uploads it as a texture in the display's orientation.
  private func prepareTexture(_ image: DecodedImage, placement: Placement, opaque: Bool, filtered: Bool)
    throws(SDLError) -> OpaquePointer
  {
    let source = image.surface!
    let logicalSize = placement.destination.size
    let sourceRect = clampedSourceRect(placement.source, in: source.pointee)
    var scaled = source
    let needsScaling =
      sourceRect.x != 0 || sourceRect.y != 0 || sourceRect.w != source.pointee.w || sourceRect.h != source.pointee.h
      || logicalSize.width != Int(sourceRect.w) || logicalSize.height != Int(sourceRect.h)
    if needsScaling {
      guard
        let target = SDL_CreateRGBSurfaceWithFormat(
          0, Int32(logicalSize.width), Int32(logicalSize.height), 32, alphaFormat)
      else { throw SDLError("SDL_CreateRGBSurfaceWithFormat") }
      var rect = sourceRect
      let result = SDL_SoftStretchLinear(source, &rect, target, nil)
      if result != 0 {
        SDL_FreeSurface(target)
        throw SDLError("SDL_SoftStretchLinear")
      }
      scaled = target
    }
    defer { if scaled != source { SDL_FreeSurface(scaled) } }

    let physical = rotation.physicalSize(ofLogical: logicalSize)
    guard
      let texture = SDL_CreateTexture(
        renderer, opaque ? opaqueFormat : alphaFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
        Int32(physical.width), Int32(physical.height))
    else { throw SDLError("SDL_CreateTexture") }
    var pixels: UnsafeMutableRawPointer?
    var pitch: Int32 = 0
    if SDL_LockTexture(texture, nil, &pixels, &pitch) != 0 {
      SDL_DestroyTexture(texture)
      throw SDLError("SDL_LockTexture")
    }
    copyTurned(
      from: scaled.pointee, logicalSize: logicalSize, to: pixels!, pitch: Int(pitch), physical: physical)
    SDL_UnlockTexture(texture)
    SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
    SDL_SetTextureScaleMode(texture, filtered ? SDL_ScaleModeLinear : SDL_ScaleModeNearest)
    return texture
  }

  private func clampedSourceRect(_ r: Rect, in s: SDL_Surface) -> SDL_Rect {
    let x = min(max(Int(r.x.rounded()), 0), Int(s.w) - 1)
    let y = min(max(Int(r.y.rounded()), 0), Int(s.h) - 1)
    let w = min(max(Int(r.width.rounded()), 1), Int(s.w) - x)
    let h = min(max(Int(r.height.rounded()), 1), Int(s.h) - y)
    return SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(w), h: Int32(h))
  }

  /// Copies the logical picture into physical pixels turned by `rotation`.
  private func copyTurned(
    from s: SDL_Surface, logicalSize: PixelSize, to pixels: UnsafeMutableRawPointer, pitch: Int,
    physical: PixelSize
  ) {
    let sourcePitch = Int(s.pitch)
    if rotation == .none {
      for y in 0..<physical.height {
        (pixels + y * pitch).copyMemory(from: s.pixels! + y * sourcePitch, byteCount: physical.width * 4)
      }
      return
    }
    let source = s.pixels!
    for py in 0..<physical.height {
      let row = (pixels + py * pitch).assumingMemoryBound(to: UInt32.self)
      for px in 0..<physical.width {
        let (lx, ly) = rotation.logicalPixel(ofPhysical: px, py, inLogical: logicalSize)
        row[px] = source.load(fromByteOffset: ly * sourcePitch + lx * 4, as: UInt32.self)
      }
    }
  }

  /// Draws the scene at eased `progress` into the renderer's target.
  public func draw(progress: Double) {
    draw(composer.scene(progress: progress))
  }

  /// Draws `scene` into the renderer's target, mapping the logical canvas
  /// to the physical display.
  public func draw(_ scene: Scene) {
    for layer in scene.layers {
      var destination = physicalFRect(rotation.physicalRect(layer.destination, inLogical: layout.canvas))
      switch layer.content {
      case .color(let color):
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_SetRenderDrawColor(renderer, color.red, color.green, color.blue, 255)
        SDL_RenderFillRectF(renderer, &destination)
      case .image(let asset, let source):
        guard let texture = textures[asset], let size = layout.preparedSize(of: asset) else { continue }
        let turned = rotation.physicalRect(source, inLogical: size)
        var sourceRect = SDL_Rect(
          x: Int32(turned.x), y: Int32(turned.y), w: Int32(turned.width), h: Int32(turned.height))
        let opaque = layout.opaque.contains(asset) || asset == .background
        if layer.alpha >= 1 {
          SDL_SetTextureBlendMode(texture, opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
          SDL_SetTextureAlphaMod(texture, 255)
        } else {
          SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
          SDL_SetTextureAlphaMod(texture, UInt8((layer.alpha * 255).rounded()))
        }
        SDL_RenderCopyF(renderer, texture, &sourceRect, &destination)
      }
    }
  }

  private func physicalFRect(_ r: Rect) -> SDL_FRect {
    SDL_FRect(x: Float(r.x), y: Float(r.y), w: Float(r.width), h: Float(r.height))
  }
}
