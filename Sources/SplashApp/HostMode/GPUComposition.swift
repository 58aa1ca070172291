// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem
import SplashWaylandHost

/// Host mode, the GPU variant: the first screen's frames composed on the
/// GPU by the compositor, over the program's frame where it lies (its GPU
/// buffer), into a buffer the display scans out. Under the splash's doors a
/// GPU program's frames are then neither read back nor copied by the CPU.
/// The splash's pictures are those the screen's painter keeps, each
/// uploaded once (again when the painter's picture is replaced: a new
/// message), and let go of once the painter has let go of it. A frame's
/// layers are taken down first and sent once its pictures are uploaded
/// (the renderer makes no picture while it draws).
final class GPUComposition: LayerDrawing {
  /// The compositor, while it lives (the stage keeps this, not it).
  private weak var host: (any WaylandHosting)?
  /// The painter whose pictures are uploaded (the screen's).
  private var pictures: SurfacePainter?
  /// What was uploaded of each asset: the painter's picture (kept, so that
  /// a replaced one is told apart) and the compositor's number for it.
  private var uploaded: [AssetID: (pixels: Pixels, picture: Int32)] = [:]
  /// The layers of the frame being taken down, in order.
  private var layers: [ComposedLayer] = []

  /// One layer, in physical pixels.
  private enum ComposedLayer {
    case fill(Rect, Color, alpha: Double)
    case picture(AssetID, source: PixelRect, destination: Rect, alpha: Double)
  }

  /// What composing a frame came to.
  enum Outcome {
    /// The frame composed, to scan out.
    case frame(Dmabuf)
    /// The program's frame held is no longer its GPU buffer (its client
    /// went, and its pixels were kept): the CPU draws this frame.
    case programFrameNotOnGPU
    /// The compositor cannot compose: why.
    case failed(RenderError)
  }

  init(host: any WaylandHosting) { self.host = host }

  deinit { releaseAll() }

  /// A frame of `size` (physical pixels) composed by `draw` (the scene
  /// drawn on this, from `painter`'s pictures, already turned) over the
  /// program's held frame, which is upright and turned here by `rotation`:
  /// the buffer to scan out, or why there is none.
  func compose(
    size: PixelSize, rotation: Rotation, pictures painter: SurfacePainter, _ draw: (any LayerDrawing) -> Void
  ) -> Outcome {
    guard let host else { return .failed(RenderError(call: "host mode", reason: "the compositor is gone")) }
    guard host.heldDmabuf != nil else { return .programFrameNotOnGPU }
    if painter !== pictures {
      releaseAll()
      pictures = painter
    }
    layers = []
    draw(self)
    defer { layers = [] }
    var numbers: [AssetID: Int32] = [:]
    for case .picture(let asset, _, _, _) in layers where asset != .background && numbers[asset] == nil {
      switch picture(of: asset, on: host) {
      case .success(let number): numbers[asset] = number
      case .failure(let error): return .failed(error)
      }
    }
    guard host.beginComposing(size: size) else {
      return .failed(RenderError(call: "host mode", reason: "no frame can be composed on the GPU"))
    }
    for layer in layers {
      switch layer {
      case .fill(let rect, let color, let alpha):
        host.composeFill(rect, with: color, alpha: alpha)
      case .picture(.background, let source, let destination, let alpha):
        // What lies behind the splash is the program's frame itself,
        // upright: the part of it the turned source shows, turned.
        let upright = rotation.inverse.physicalRect(source, inLogical: size)
        host.composePicture(
          heldFramePicture, source: upright, placement: rotation.unitSquareMap(onto: destination), alpha: alpha)
      case .picture(let asset, let source, let destination, let alpha):
        guard let number = numbers[asset] else { continue }
        host.composePicture(
          number, source: source, placement: Rotation.none.unitSquareMap(onto: destination), alpha: alpha)
      }
    }
    guard let frame = host.endComposing() else {
      return .failed(RenderError(call: "host mode", reason: "the frame composed on the GPU could not be drawn"))
    }
    return .frame(frame)
  }

  func fill(_ rect: Rect, with color: Color, alpha: Double) { layers.append(.fill(rect, color, alpha: alpha)) }

  func draw(_ asset: AssetID, source: PixelRect, destination: Rect, alpha: Double) {
    // A picture the painter does not have draws nothing, as with the painter.
    guard asset == .background || pictures?.picture(of: asset) != nil else { return }
    layers.append(.picture(asset, source: source, destination: destination, alpha: alpha))
  }

  func finish() { letGoOfReleasedPictures() }

  /// The pictures the painter let go of, or replaced, go here too (those
  /// of the splash once it is gone: a 1080p pair of leaves is 8 MB).
  func letGoOfReleasedPictures() {
    for (asset, kept) in uploaded where pictures?.picture(of: asset)?.pixels !== kept.pixels {
      host?.releasePicture(kept.picture)
      uploaded[asset] = nil
    }
  }

  /// `host`'s number for the painter's picture of `asset`, uploaded now if
  /// it was not (or was replaced); or why it cannot be.
  private func picture(of asset: AssetID, on host: any WaylandHosting) -> Result<Int32, RenderError> {
    func refused(_ reason: String) -> Result<Int32, RenderError> {
      .failure(RenderError(call: "host mode", reason: "the \(asset.name) picture \(reason)"))
    }
    guard let (pixels, opaque) = pictures?.picture(of: asset) else { return refused("is gone") }
    if let kept = uploaded[asset] {
      if kept.pixels === pixels { return .success(kept.picture) }
      host.releasePicture(kept.picture)
      uploaded[asset] = nil
    }
    let surface = pixels.surface.pointee
    let format = surface.format.pointee
    // 32-bit XRGB or straight ARGB, as the compositor takes them.
    guard format.BytesPerPixel == 4, format.Rmask == 0x00FF_0000, format.Gmask == 0x0000_FF00,
      format.Bmask == 0x0000_00FF, opaque || format.Amask == 0xFF00_0000, let data = surface.pixels
    else { return refused("is in a pixel layout the GPU is not given") }
    let buffer = HostedBuffer(
      pixels: data, size: PixelSize(width: Int(surface.w), height: Int(surface.h)), stride: Int(surface.pitch),
      hasAlpha: !opaque)
    guard let picture = host.uploadPicture(buffer) else { return refused("cannot be uploaded to the GPU") }
    uploaded[asset] = (pixels, picture)
    return .success(picture)
  }

  private func releaseAll() {
    for kept in uploaded.values { host?.releasePicture(kept.picture) }
    uploaded = [:]
  }
}
