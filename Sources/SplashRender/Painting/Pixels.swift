// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSystem

/// Pixels in an SDL surface together with the memory behind them; both are
/// freed when the last reference goes.
public final class Pixels {
  public let surface: UnsafeMutablePointer<SDL_Surface>
  /// What holds the pixels' memory (a mapping), when SDL did not allocate it.
  private let memory: AnyObject?

  /// Takes over a surface that SDL allocated.
  init(adopting surface: UnsafeMutablePointer<SDL_Surface>) {
    self.surface = surface
    memory = nil
  }

  /// A copy of `surface`'s pixels as XRGB, the caller's alone (a snapshot
  /// that may be encoded on another thread while frames are drawn: see
  /// `pngData(of: Pixels)`).
  public static func copy(of surface: UnsafeMutablePointer<SDL_Surface>) throws(RenderError) -> Pixels {
    guard let copied = SDL_ConvertSurfaceFormat(surface, opaqueFormat, 0) else {
      throw RenderError("SDL_ConvertSurfaceFormat")
    }
    return Pixels(adopting: copied)
  }

  /// The pixels at `offset` of a mapped file, used where they lie; nil when
  /// SDL does not take `format` at `bytesPerPixel` bytes a pixel.
  init?(mapped file: MappedFile, offset: Int, width: Int, height: Int, pitch: Int, bytesPerPixel: Int, format: UInt32) {
    guard offset >= 0, pitch * height <= file.bytes.count - offset,
      let surface = SDL_CreateRGBSurfaceWithFormatFrom(
        UnsafeMutableRawPointer(mutating: file.bytes.baseAddress! + offset), Int32(width), Int32(height),
        Int32(bytesPerPixel * 8), Int32(pitch), format)
    else { return nil }
    guard Int(surface.pointee.format.pointee.BytesPerPixel) == bytesPerPixel else {
      SDL_FreeSurface(surface)
      return nil
    }
    self.surface = surface
    memory = file
  }

  /// 32-bit XRGB pixels (0xXXRRGGBB as a native UInt32, `stride` bytes a
  /// row: a Wayland program's buffer) where they lie, neither copied nor
  /// freed: lent while the caller can read them, and kept by nothing past
  /// that.
  public init(lending pixels: UnsafeRawPointer, size: PixelSize, stride: Int) throws(RenderError) {
    guard
      let surface = SDL_CreateRGBSurfaceWithFormatFrom(
        UnsafeMutableRawPointer(mutating: pixels), Int32(size.width), Int32(size.height), 32, Int32(stride),
        opaqueFormat)
    else { throw RenderError("SDL_CreateRGBSurfaceWithFormatFrom") }
    self.surface = surface
    memory = nil
  }

  /// Zero-filled 32-bit pixels in fresh mapped memory whose pages a helper
  /// thread faults in while the caller goes on (see `MappedMemory`).
  public init(width: Int, height: Int, format: UInt32) throws(RenderError) {
    let pitch = width * 4
    let memory: MappedMemory
    do {
      memory = try MappedMemory(length: max(pitch * height, 1))
    } catch {
      throw RenderError(error)
    }
    memory.populateInBackground()
    guard
      let surface = SDL_CreateRGBSurfaceWithFormatFrom(
        memory.address, Int32(width), Int32(height), 32, Int32(pitch), format)
    else { throw RenderError("SDL_CreateRGBSurfaceWithFormatFrom") }
    self.surface = surface
    self.memory = memory
  }

  deinit { SDL_FreeSurface(surface) }

  public var width: Int { Int(surface.pointee.w) }
  public var height: Int { Int(surface.pointee.h) }
  public var format: UInt32 { surface.pointee.format.pointee.format }
}

extension Pixels {
  /// An opaque picture of `canvas`, filled with `fill`, with `size` pixels
  /// of `source` (32-bit, 0xXXRRGGBB as a native UInt32, `stride` bytes a
  /// row: a Wayland program's buffer) centred on it; what does not fit is
  /// cut, the alpha ignored.
  public static func centred(
    _ source: UnsafeRawPointer, size: PixelSize, stride: Int, on canvas: PixelSize, fill: Color
  ) throws(RenderError) -> Pixels {
    let picture = try Pixels(width: canvas.width, height: canvas.height, format: opaqueFormat)
    let background = UInt32(fill.red) << 16 | UInt32(fill.green) << 8 | UInt32(fill.blue)
    let target = picture.surface.pointee
    for y in 0..<canvas.height {
      (target.pixels! + y * Int(target.pitch)).assumingMemoryBound(to: UInt32.self)
        .update(repeating: background, count: canvas.width)
    }
    picture.placeCentred(
      source, size: size, stride: stride, part: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
    return picture
  }

  /// Where a picture of `size` lies when centred on this one: the offset of
  /// its top left corner (negative where it is larger).
  public func centringOffset(of size: PixelSize) -> (x: Int, y: Int) {
    ((width - size.width) / 2, (height - size.height) / 2)
  }

  /// Copies `part` of `source` (of `size`, 32-bit, 0xXXRRGGBB as a native
  /// UInt32, `stride` bytes a row) into these pixels where `source` lies
  /// centred on them (`centred`), what falls outside cut; the rest is left
  /// as it is. For a program's frame of which only `part` changed.
  public func placeCentred(_ source: UnsafeRawPointer, size: PixelSize, stride: Int, part: PixelRect) {
    let target = surface.pointee
    let pitch = Int(target.pitch)
    let (left, top) = centringOffset(of: size)
    let (x0, x1) = (max(left + max(part.x, 0), 0), min(left + min(part.x + part.width, size.width), width))
    let (y0, y1) = (max(top + max(part.y, 0), 0), min(top + min(part.y + part.height, size.height), height))
    // A part wholly cut off (a frame larger than these, changed only where
    // it does not fit) copies nothing.
    guard x1 > x0, y1 > y0 else { return }
    let (columns, rows) = (x0..<x1, y0..<y1)
    for y in rows {
      let row = (target.pixels! + y * pitch).assumingMemoryBound(to: UInt32.self)
      let from = source + (y - top) * stride + (columns.lowerBound - left) * 4
      UnsafeMutableRawPointer(row + columns.lowerBound).copyMemory(from: from, byteCount: columns.count * 4)
    }
  }

  /// An opaque picture of `canvas`, filled with `fill`, showing the part
  /// `placement.source` of `window` (opaque, 32-bit) in
  /// `placement.destination`: copied where the sizes agree, else scaled
  /// (bilinear; by nearest pixel below two pixels, which SDL 2.26's
  /// bilinear stretch mishandles).
  public static func showing(_ window: Pixels, placed placement: Placement, on canvas: PixelSize, fill: Color)
    throws(RenderError) -> Pixels
  {
    let picture = try Pixels(width: canvas.width, height: canvas.height, format: opaqueFormat)
    let background = SDL_MapRGB(picture.surface.pointee.format, fill.red, fill.green, fill.blue)
    guard SDL_FillRect(picture.surface, nil, background) == 0 else { throw RenderError("SDL_FillRect") }
    let source = placement.source
    var from = SDL_Rect(
      x: Int32(snap(source.x)), y: Int32(snap(source.y)), w: Int32(snap(source.width)), h: Int32(snap(source.height)))
    let destination = placement.destination
    var to = SDL_Rect(
      x: Int32(destination.x), y: Int32(destination.y), w: Int32(destination.width), h: Int32(destination.height))
    guard from.w > 0, from.h > 0, to.w > 0, to.h > 0 else { return picture }
    let exact = from.w == to.w && from.h == to.h
    let nearest = exact || min(from.w, from.h, to.w, to.h) < 2
    let stretched =
      nearest
      ? SDL_SoftStretch(window.surface, &from, picture.surface, &to)
      : SDL_SoftStretchLinear(window.surface, &from, picture.surface, &to)
    if stretched != 0 { throw RenderError(nearest ? "SDL_SoftStretch" : "SDL_SoftStretchLinear") }
    return picture
  }
}
