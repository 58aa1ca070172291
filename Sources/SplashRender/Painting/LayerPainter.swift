// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Glibc
import SplashCore

/// Draws the layers of a scene, already mapped to physical pixels.
public protocol LayerDrawing: AnyObject {
  /// Fills `rect` with `color` at opacity `alpha`.
  func fill(_ rect: Rect, with color: Color, alpha: Double)
  /// Draws part `source` of `asset` at `destination` with opacity `alpha`.
  func draw(_ asset: AssetID, source: PixelRect, destination: Rect, alpha: Double)
  /// Completes the frame's drawing.
  func finish()
}

/// Draws the layers of a scene, already mapped to physical pixels, with
/// pictures it was given once at load.
public protocol LayerPainter: LayerDrawing {
  /// Positions must be whole pixels (no filtering to show sub-pixel motion).
  var exactPixels: Bool { get }
  /// What adopted pictures become here (a surface's pixel format; a
  /// renderer's textures): part of the key pictures are cached under.
  var adoptedForm: String { get }
  /// Takes a prepared picture, in physical orientation, as `asset`; returns
  /// the pixels it keeps for it (converted to its own layout, or `image`).
  @discardableResult
  func adopt(_ image: Pixels, as asset: AssetID, opaque: Bool) throws(RenderError) -> Pixels
  /// Lets go of `asset`'s picture (drawing it later draws nothing).
  func release(_ asset: AssetID)
}

/// Paints straight into an SDL surface in memory (offscreen, framebuffer),
/// of 16, 24 or 32 bits a pixel. Opaque pictures are converted to the
/// target's layout once, when adopted, so that a frame is copies and fills.
///
/// Pictures with transparency are blended by SDL_BlitSurface. Opaque copies
/// and fills, the bulk of every door frame, and opaque blends at 32 bits, a
/// cross-fade's, are done here, as measured on these machines (AMD EPYC,
/// SDL 2.26, glibc 2.36): SDL's blit falls to an MMX loop several times
/// slower than memcpy when rows are not 16-byte aligned, as a sliding leaf's
/// mostly are, and blends a pixel at a time; glibc's memcpy picks `rep
/// movsb` for rows over 2 KiB, which crawls when source and target are
/// misaligned by a few pixels; and SDL_FillRect streams past the cache, ~40
/// times slower on the narrow strip between the leaves. Copies go by memcpy
/// in 1 KiB chunks, fills by vector stores, blends 32 bytes at a time.
public final class SurfacePainter: LayerPainter {
  /// The surface frames are painted into (a flipping framebuffer swaps
  /// its pages here; every page has the same layout).
  public var target: UnsafeMutablePointer<SDL_Surface> {
    willSet { paintPendingFills() }
  }
  private var images: [AssetID: (pixels: Pixels, opaque: Bool)] = [:]
  /// Below glibc's `rep movsb` threshold, so memcpy stays on its vector loop.
  private static let copyChunk = 1024
  /// Opaque fills of a 32-bit target not painted yet, in order: a picture
  /// blended over one of them next is blended with its colour instead (a
  /// cross-fade over the background colour reads the picture and writes the
  /// frame once, not fill, read, read and write). The rest is painted before
  /// anything else is drawn and at `finish`.
  private var pendingFills: [(area: PixelRect, pixel: UInt32)] = []

  public init(target: UnsafeMutablePointer<SDL_Surface>) { self.target = target }

  public var exactPixels: Bool { true }

  public var adoptedForm: String { String(cString: SDL_GetPixelFormatName(target.pointee.format.pointee.format)) }

  /// Whether `image`, adopted, would be kept as it is (drawn from its own
  /// memory): it has transparency, or it is in the target's layout.
  public func keepsAsItIs(_ image: Pixels, opaque: Bool) -> Bool {
    let format = target.pointee.format!
    let layout = image.surface.pointee.format!
    let sameLayout =
      layout.pointee.BytesPerPixel == format.pointee.BytesPerPixel && layout.pointee.Rmask == format.pointee.Rmask
      && layout.pointee.Gmask == format.pointee.Gmask && layout.pointee.Bmask == format.pointee.Bmask
      // A screen with an alpha channel gets it opaque; otherwise alpha bytes do not matter.
      && (format.pointee.Amask == 0 || layout.pointee.Amask == format.pointee.Amask)
    return !opaque || sameLayout
  }

  @discardableResult
  public func adopt(_ image: Pixels, as asset: AssetID, opaque: Bool) throws(RenderError) -> Pixels {
    let format = target.pointee.format!
    guard !keepsAsItIs(image, opaque: opaque) else {
      images[asset] = (image, opaque)
      return image
    }
    guard let converted = SDL_ConvertSurfaceFormat(image.surface, format.pointee.format, 0) else {
      throw RenderError("SDL_ConvertSurfaceFormat")
    }
    let kept = Pixels(adopting: converted)
    images[asset] = (kept, true)
    return kept
  }

  public func fill(_ rect: Rect, with color: Color, alpha: Double) {
    let t = target.pointee
    let x0 = max(0, snap(rect.x))
    let y0 = max(0, snap(rect.y))
    let x1 = min(Int(t.w), snap(rect.x) + snap(rect.width))
    let y1 = min(Int(t.h), snap(rect.y) + snap(rect.height))
    guard x1 > x0, y1 > y0, alpha > 0 else { return }
    let pixel = SDL_MapRGB(t.format, color.red, color.green, color.blue)
    let area = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    if alpha >= 1 && t.format.pointee.BytesPerPixel == 4 {
      pendingFills.append((area, pixel))
      return
    }
    paintPendingFills()
    if alpha < 1 {
      blend(color, alpha: alpha, x0, y0, x1, y1)
    } else {
      paint(area, pixel)
    }
  }

  /// Fills `area` (inside the target) with `pixel`, in the target's layout.
  private func paint(_ area: PixelRect, _ pixel: UInt32) {
    let t = target.pointee
    let (x0, y0, x1, y1) = (area.x, area.y, area.x + area.width, area.y + area.height)
    let bytesPerPixel = Int(t.format.pointee.BytesPerPixel)
    guard bytesPerPixel == 4 || bytesPerPixel == 2 else {
      // 24 bits: a pixel does not tile a word; SDL fills it.
      var rect = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
      SDL_FillRect(target, &rect, pixel)
      return
    }
    let word = bytesPerPixel == 4 ? pixel : pixel & 0xFFFF | pixel << 16
    let lines = SIMD16<UInt32>(repeating: word)
    let byteCount = (x1 - x0) * bytesPerPixel
    for y in y0..<y1 {
      let row = t.pixels! + y * Int(t.pitch) + x0 * bytesPerPixel
      var offset = 0
      while offset + 64 <= byteCount {
        row.storeBytes(of: lines, toByteOffset: offset, as: SIMD16<UInt32>.self)
        offset += 64
      }
      while offset + 4 <= byteCount {
        row.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
        offset += 4
      }
      if offset < byteCount {
        row.storeBytes(of: UInt16(truncatingIfNeeded: pixel), toByteOffset: offset, as: UInt16.self)
      }
    }
  }

  public func release(_ asset: AssetID) { images[asset] = nil }

  /// The assets it holds pictures of.
  public var heldAssets: Set<AssetID> { Set(images.keys) }

  /// The picture it holds for `asset` (in its own layout, physical
  /// orientation), and whether it is drawn as opaque; nil for none.
  public func picture(of asset: AssetID) -> (pixels: Pixels, opaque: Bool)? { images[asset] }

  public func draw(_ asset: AssetID, source: PixelRect, destination: Rect, alpha: Double) {
    guard let (pixels, opaque) = images[asset] else { return }
    let image = pixels.surface
    var src = SDL_Rect(x: Int32(source.x), y: Int32(source.y), w: Int32(source.width), h: Int32(source.height))
    var dst = SDL_Rect(
      x: Int32(snap(destination.x)), y: Int32(snap(destination.y)), w: Int32(snap(destination.width)),
      h: Int32(snap(destination.height)))
    let blends = opaque && alpha > 0 && alpha < 1 && target.pointee.format.pointee.BytesPerPixel == 4
    if blends, let rows = overlap(image, src, dst), let pixel = takePendingFill(under: rows.area) {
      blend(rows, alpha: alpha, over: pixel)
      return
    }
    paintPendingFills()
    if alpha >= 1 && opaque {
      copy(image, src, dst)
    } else if blends {
      blend(image, src, dst, alpha: alpha)
    } else {
      SDL_SetSurfaceBlendMode(image, SDL_BLENDMODE_BLEND)
      SDL_SetSurfaceAlphaMod(image, UInt8((min(alpha, 1) * 255).rounded()))
      SDL_UpperBlit(image, &src, target, &dst)
    }
  }

  public func finish() { paintPendingFills() }

  /// Paints the fills held back, in order.
  private func paintPendingFills() {
    for (area, pixel) in pendingFills { paint(area, pixel) }
    pendingFills.removeAll(keepingCapacity: true)
  }

  /// The colour of the pending fill that `area` lies wholly within, when the
  /// last pending fill to touch `area` does; `area` is then taken out of
  /// every pending fill (what is drawn there now covers them).
  private func takePendingFill(under area: PixelRect) -> UInt32? {
    guard let top = pendingFills.last(where: { $0.area.intersects(area) }), top.area.contains(area) else {
      return nil
    }
    pendingFills = pendingFills.flatMap { fill in fill.area.subtracting(area).map { ($0, fill.pixel) } }
    return top.pixel
  }

  /// Blends `color` at `alpha` over the target's pixels from (x0, y0) up to
  /// (x1, y1): the status layers as they fade, a few thousand pixels.
  private func blend(_ color: Color, alpha: Double, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
    let t = target.pointee
    let bytesPerPixel = Int(t.format.pointee.BytesPerPixel)
    let weight = UInt32((alpha * 256).rounded())
    func mix(_ under: UInt8, _ over: UInt8) -> UInt8 {
      UInt8((UInt32(under) * (256 - weight) + UInt32(over) * weight) >> 8)
    }
    for y in y0..<y1 {
      let row = t.pixels! + y * Int(t.pitch)
      for x in x0..<x1 {
        let at = row + x * bytesPerPixel
        var pixel: UInt32 = 0
        withUnsafeMutableBytes(of: &pixel) {
          $0.copyMemory(from: UnsafeRawBufferPointer(start: at, count: bytesPerPixel))
        }
        var (r, g, b): (UInt8, UInt8, UInt8) = (0, 0, 0)
        SDL_GetRGB(pixel, t.format, &r, &g, &b)
        pixel = SDL_MapRGB(t.format, mix(r, color.red), mix(g, color.green), mix(b, color.blue))
        withUnsafeBytes(of: &pixel) { at.copyMemory(from: $0.baseAddress!, byteCount: bytesPerPixel) }
      }
    }
  }

  /// Copies `src` of `image` (in the target's layout) to `dst` of the
  /// target, clipped to both.
  private func copy(_ image: UnsafeMutablePointer<SDL_Surface>, _ src: SDL_Rect, _ dst: SDL_Rect) {
    guard let rows = overlap(image, src, dst) else { return }
    for row in 0..<rows.count {
      let (source, target) = rows.row(row)
      var offset = 0
      while offset < rows.byteCount {
        let chunk = min(Self.copyChunk, rows.byteCount - offset)
        memcpy(target + offset, source + offset, chunk)
        offset += chunk
      }
    }
  }

  /// Blends `src` of the opaque `image` (in the target's 32-bit layout)
  /// over `dst` of the target, clipped to both (a cross-fade's frame).
  private func blend(_ image: UnsafeMutablePointer<SDL_Surface>, _ src: SDL_Rect, _ dst: SDL_Rect, alpha: Double) {
    guard let rows = overlap(image, src, dst) else { return }
    blend(rows, alpha: alpha) { target, offset in
      UnsafeRawPointer(target).loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt16>.self)
    } belowByte: { target, byte in
      UInt16(target.load(fromByteOffset: byte, as: UInt8.self))
    }
  }

  /// Blends the picture's rows over the 32-bit `pixel` into the target's
  /// rows (a cross-fade over the background colour, the fill never painted).
  private func blend(_ rows: SharedRows, alpha: Double, over pixel: UInt32) {
    let halves = SIMD2<UInt16>(UInt16(truncatingIfNeeded: pixel), UInt16(truncatingIfNeeded: pixel >> 16))
    var color = SIMD16<UInt16>()
    for lane in 0..<16 { color[lane] = halves[lane % 2] }
    blend(rows, alpha: alpha) { _, _ in
      color
    } belowByte: { _, byte in
      UInt16(truncatingIfNeeded: pixel >> (8 * UInt32(byte % 4))) & 0xFF
    }
  }

  /// Blends the picture's rows over what `below` and `belowByte` give for
  /// the target's row at a byte offset: each byte (picture × w + below ×
  /// (256 − w)) / 256, w being `alpha` in 256ths. Sixteen pairs of bytes at
  /// a time in 16-bit lanes, one byte of a pair per pass (a byte's weighted
  /// sum fits its lane), where SDL's blit goes a pixel at a time; no
  /// conversion between vector types, which the compiler leaves as calls
  /// across modules.
  @inline(__always)
  private func blend(
    _ rows: SharedRows, alpha: Double,
    below: (UnsafeMutableRawPointer, Int) -> SIMD16<UInt16>,
    belowByte: (UnsafeMutableRawPointer, Int) -> UInt16
  ) {
    let weight = UInt16((min(alpha, 1) * 256).rounded())
    let over = SIMD16<UInt16>(repeating: weight)
    let under = SIMD16<UInt16>(repeating: 256 - weight)
    let lowBytes = SIMD16<UInt16>(repeating: 0x00FF)
    let vectorBytes = MemoryLayout<SIMD16<UInt16>>.size
    for row in 0..<rows.count {
      let (source, target) = rows.row(row)
      var offset = 0
      while offset + vectorBytes <= rows.byteCount {
        let picture = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt16>.self)
        let beneath = below(target, offset)
        let low = ((picture & lowBytes) &* over &+ (beneath & lowBytes) &* under) &>> 8
        let high = (picture &>> 8) &* over &+ (beneath &>> 8) &* under
        target.storeBytes(of: low | (high & ~lowBytes), toByteOffset: offset, as: SIMD16<UInt16>.self)
        offset += vectorBytes
      }
      for byte in offset..<rows.byteCount {
        let picture = UInt16(source.load(fromByteOffset: byte, as: UInt8.self))
        target.storeBytes(
          of: UInt8((picture * weight + belowByte(target, byte) * (256 - weight)) >> 8), toByteOffset: byte,
          as: UInt8.self)
      }
    }
  }

  /// The rows `src` of `image` and `dst` of the target share, clipped to
  /// both (a picture in the target's layout, not scaled).
  private func overlap(_ image: UnsafeMutablePointer<SDL_Surface>, _ src: SDL_Rect, _ dst: SDL_Rect) -> SharedRows? {
    let t = target.pointee
    let s = image.pointee
    let bytesPerPixel = Int(t.format.pointee.BytesPerPixel)
    let left = Int(max(0, -dst.x, -src.x))
    let top = Int(max(0, -dst.y, -src.y))
    let width = min(Int(src.w), Int(dst.w), Int(t.w - dst.x), Int(s.w - src.x)) - left
    let height = min(Int(src.h), Int(dst.h), Int(t.h - dst.y), Int(s.h - src.y)) - top
    guard width > 0, height > 0 else { return nil }
    return SharedRows(
      source: UnsafeRawPointer(s.pixels! + (Int(src.y) + top) * Int(s.pitch) + (Int(src.x) + left) * bytesPerPixel),
      sourcePitch: Int(s.pitch),
      target: t.pixels! + (Int(dst.y) + top) * Int(t.pitch) + (Int(dst.x) + left) * bytesPerPixel,
      targetPitch: Int(t.pitch), byteCount: width * bytesPerPixel, count: height,
      area: PixelRect(x: Int(dst.x) + left, y: Int(dst.y) + top, width: width, height: height))
  }
}

/// Rows of a picture and of a target that line up: where the first of each
/// starts, the pitches, the bytes of a row and how many rows.
private struct SharedRows {
  let source: UnsafeRawPointer
  let sourcePitch: Int
  let target: UnsafeMutableRawPointer
  let targetPitch: Int
  let byteCount: Int
  let count: Int
  /// Where the rows lie in the target.
  let area: PixelRect

  /// Where row `index` starts in the picture and in the target.
  func row(_ index: Int) -> (UnsafeRawPointer, UnsafeMutableRawPointer) {
    (source + index * sourcePitch, target + index * targetPitch)
  }
}

/// Paints through an SDL renderer (OpenGL, GLES or SDL's software renderer
/// behind a window), with each picture uploaded once as a texture.
public final class TexturePainter: LayerPainter {
  public let renderer: OpaquePointer
  public let exactPixels: Bool
  private var textures: [AssetID: (texture: OpaquePointer, opaque: Bool)] = [:]

  /// `exactPixels` for renderers that do not filter (SDL's software renderer).
  public init(renderer: OpaquePointer, exactPixels: Bool) {
    self.renderer = renderer
    self.exactPixels = exactPixels
  }

  /// Destroys the textures; called before the renderer itself goes.
  public func releaseTextures() {
    for texture in textures.values { SDL_DestroyTexture(texture.texture) }
    textures = [:]
  }

  public var adoptedForm: String { "textures" }

  @discardableResult
  public func adopt(_ image: Pixels, as asset: AssetID, opaque: Bool) throws(RenderError) -> Pixels {
    guard let texture = SDL_CreateTextureFromSurface(renderer, image.surface) else {
      throw RenderError("SDL_CreateTextureFromSurface")
    }
    // Linear filtering turns sub-pixel positions into smooth motion.
    SDL_SetTextureScaleMode(texture, exactPixels ? SDL_ScaleModeNearest : SDL_ScaleModeLinear)
    if let old = textures[asset] { SDL_DestroyTexture(old.texture) }
    textures[asset] = (texture, opaque)
    return image
  }

  public func release(_ asset: AssetID) {
    if let old = textures.removeValue(forKey: asset) { SDL_DestroyTexture(old.texture) }
  }

  public func fill(_ rect: Rect, with color: Color, alpha: Double) {
    var r = frect(rect)
    SDL_SetRenderDrawBlendMode(renderer, alpha < 1 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
    SDL_SetRenderDrawColor(renderer, color.red, color.green, color.blue, UInt8((min(max(alpha, 0), 1) * 255).rounded()))
    SDL_RenderFillRectF(renderer, &r)
  }

  public func draw(_ asset: AssetID, source: PixelRect, destination: Rect, alpha: Double) {
    guard let (texture, opaque) = textures[asset] else { return }
    var src = SDL_Rect(x: Int32(source.x), y: Int32(source.y), w: Int32(source.width), h: Int32(source.height))
    var dst = frect(destination)
    let blend = alpha < 1 || !opaque
    SDL_SetTextureBlendMode(texture, blend ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
    SDL_SetTextureAlphaMod(texture, UInt8((min(alpha, 1) * 255).rounded()))
    SDL_RenderCopyF(renderer, texture, &src, &dst)
  }

  public func finish() { SDL_RenderFlush(renderer) }

  private func frect(_ r: Rect) -> SDL_FRect {
    SDL_FRect(x: Float(r.x), y: Float(r.y), w: Float(r.width), h: Float(r.height))
  }
}
