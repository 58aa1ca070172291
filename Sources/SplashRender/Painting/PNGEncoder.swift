// SPDX-License-Identifier: Apache-2.0
import CPNG
import CSDL2

/// `surface` (any SDL pixel format) as a PNG file's bytes: 8-bit RGB,
/// through libpng's simplified writer; the same pixels always give the
/// same bytes.
public func pngData(of surface: UnsafeMutablePointer<SDL_Surface>) throws(RenderError) -> [UInt8] {
  try pngData(of: try Pixels.copy(of: surface))
}

/// `pixels` (XRGB, as `Pixels.copy` makes them) as a PNG file's bytes,
/// without a call into SDL: safe on a thread of its own while SDL is used
/// on another (SDL's pixel format list is not).
public func pngData(of pixels: Pixels) throws(RenderError) -> [UInt8] {
  let xrgb = pixels.surface
  let (width, height) = (Int(xrgb.pointee.w), Int(xrgb.pointee.h))
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
  // Compressed once, into room for the worst case (zlib's bound for the
  // rows and their filter bytes, and the file's chunks around them): asking
  // libpng for the size first would compress twice.
  let raw = height * (width * 3 + 1)
  var length = raw + raw / 1000 + 12 * (raw / 8192 + 1) + 4096
  var bytes = [UInt8](repeating: 0, count: length)
  let room = length
  if png_image_write_to_memory(&image, &bytes, &length, 0, rows, 0, nil) == 0 {
    // Too little room after all (libpng says how much it needs): once more, with that.
    guard length > room else { throw RenderError(call: "png_image_write_to_memory", reason: libpngMessage(image)) }
    bytes = [UInt8](repeating: 0, count: length)
    guard png_image_write_to_memory(&image, &bytes, &length, 0, rows, 0, nil) != 0 else {
      throw RenderError(call: "png_image_write_to_memory", reason: libpngMessage(image))
    }
  }
  return Array(bytes[..<length])
}
