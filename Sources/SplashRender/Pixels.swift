// SPDX-License-Identifier: Apache-2.0
import CSDL2
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
