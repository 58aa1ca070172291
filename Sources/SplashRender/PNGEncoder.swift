// SPDX-License-Identifier: Apache-2.0
import CPNG
import CSDL2

/// `surface` (any SDL pixel format) as a PNG file's bytes: 8-bit RGB,
/// through libpng's simplified writer; the same pixels always give the
/// same bytes.
public func pngData(of surface: UnsafeMutablePointer<SDL_Surface>) throws(RenderError) -> [UInt8] {
  let s = surface.pointee
  let (width, height) = (Int(s.w), Int(s.h))
  guard let xrgb = SDL_ConvertSurfaceFormat(surface, opaqueFormat, 0) else {
    throw RenderError("SDL_ConvertSurfaceFormat")
  }
  defer { SDL_FreeSurface(xrgb) }
  // XRGB words in memory are B, G, R, X bytes: packed to B, G, R for libpng.
  var rows = [UInt8](repeating: 0, count: width * height * 3)
  for y in 0..<height {
    let row = (xrgb.pointee.pixels! + y * Int(xrgb.pointee.pitch)).assumingMemoryBound(to: UInt8.self)
    for x in 0..<width {
      let to = (y * width + x) * 3
      rows[to] = row[x * 4]
      rows[to + 1] = row[x * 4 + 1]
      rows[to + 2] = row[x * 4 + 2]
    }
  }
  var image = png_image()
  image.version = png_uint_32(PNG_IMAGE_VERSION)
  image.width = png_uint_32(width)
  image.height = png_uint_32(height)
  image.format = png_uint_32(PNG_FORMAT_BGR)
  defer { png_image_free(&image) }
  var length = 0
  guard png_image_write_to_memory(&image, nil, &length, 0, rows, 0, nil) != 0 else {
    throw RenderError(call: "png_image_write_to_memory", reason: libpngMessage(image))
  }
  var bytes = [UInt8](repeating: 0, count: length)
  guard png_image_write_to_memory(&image, &bytes, &length, 0, rows, 0, nil) != 0 else {
    throw RenderError(call: "png_image_write_to_memory", reason: libpngMessage(image))
  }
  return Array(bytes[..<length])
}
