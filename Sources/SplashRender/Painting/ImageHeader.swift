// SPDX-License-Identifier: Apache-2.0
/// The picture formats splashd decodes: each one's size is read from its
/// header before anything is decoded, and it is decoded by the decoder of
/// that format (never one SDL_image would pick by guessing).
public enum PictureFormat: String, CaseIterable, Equatable, Sendable {
  case png = "PNG"
  case jpeg = "JPEG"
  case gif = "GIF"
  case bmp = "BMP"
  case tiff = "TIFF"
  case tga = "TGA"
  case webp = "WebP"
  case qoi = "QOI"
  case pnm = "PNM"
  case pcx = "PCX"

  /// The formats, for messages: "PNG, JPEG, …".
  public static let names = allCases.map(\.rawValue).joined(separator: ", ")

  /// The most bytes a pixel takes while a picture of this format is decoded
  /// and converted to 32 bits: PNG is decoded straight into 32-bit pixels;
  /// the others by SDL_image, whose pixels (up to 4 bytes: TIFF, QOI, WebP,
  /// 32-bit TGA and BMP) are then converted, both held at once.
  public var decodingBytesPerPixel: Int {
    switch self {
    case .png: return 4
    case .jpeg, .pnm, .pcx: return 3 + 4
    case .gif: return 1 + 4
    case .bmp, .tiff, .tga, .webp, .qoi: return 4 + 4
    }
  }
}

/// What a picture file's header declares.
public struct PictureHeader: Equatable, Sendable {
  public var format: PictureFormat
  public var width: Int
  public var height: Int

  public init(format: PictureFormat, width: Int, height: Int) {
    self.format = format
    self.width = width
    self.height = height
  }
}

/// Why a header tells no size.
public enum PictureHeaderProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// Not one of the formats splashd decodes.
  case unknownFormat
  /// The file ends before the header does.
  case cutShort(PictureFormat)
  /// The header is not what the format says it must be.
  case malformed(PictureFormat, String)

  public var description: String {
    switch self {
    case .unknownFormat: return "not a picture splashd can decode (it decodes \(PictureFormat.names))"
    case .cutShort(let format): return "the \(format.rawValue) file is cut short before its size"
    case .malformed(let format, let what): return "not a valid \(format.rawValue) file: \(what)"
    }
  }
}

/// Reads a picture's format and declared size without decoding it. `read`
/// gives up to `count` bytes at `offset` (fewer at the end of the file);
/// `name` is the file's name (TGA has no signature, only its extension).
/// Every offset and length is checked: any bytes give an answer, never a
/// crash.
public func readPictureHeader(name: String, read: (_ offset: Int, _ count: Int) -> [UInt8]) -> Result<
  PictureHeader, PictureHeaderProblem
> {
  let start = read(0, 64)
  func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
    start.count >= offset + signature.count && Array(start[offset..<offset + signature.count]) == signature
  }
  if has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngHeader(start) }
  if has([0xFF, 0xD8]) { return jpegHeader(read) }
  if has(Array("GIF87a".utf8)) || has(Array("GIF89a".utf8)) { return gifHeader(read) }
  if has(Array("BM".utf8)) { return bmpHeader(start) }
  if has(Array("II*\u{0}".utf8)) || has([0x4D, 0x4D, 0x00, 0x2A]) {
    return tiffHeader(read, littleEndian: start[0] == 0x49)
  }
  if has(Array("RIFF".utf8)) && has(Array("WEBP".utf8), at: 8) { return webpHeader(start) }
  if has(Array("qoif".utf8)) { return qoiHeader(start) }
  if start.count >= 2, start[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(start[1]) {
    return pnmHeader(read(0, 1024))
  }
  if start.count >= 3, start[0] == 0x0A, [0, 2, 3, 4, 5].contains(start[1]), start[2] == 1 { return pcxHeader(start) }
  if name.lowercased().hasSuffix(".tga") { return tgaHeader(start) }
  return .failure(.unknownFormat)
}

/// Reads little- or big-endian integers out of a byte array, 0 past its end.
private struct Bytes {
  let bytes: [UInt8]
  let littleEndian: Bool

  func u8(_ i: Int) -> Int { i >= 0 && i < bytes.count ? Int(bytes[i]) : 0 }
  func u16(_ i: Int) -> Int { littleEndian ? u8(i) | u8(i + 1) << 8 : u8(i) << 8 | u8(i + 1) }
  func u24(_ i: Int) -> Int { littleEndian ? u16(i) | u8(i + 2) << 16 : u16(i) << 8 | u8(i + 2) }
  func u32(_ i: Int) -> Int { littleEndian ? u16(i) | u16(i + 2) << 16 : u16(i) << 16 | u16(i + 2) }
  /// A signed 32-bit value, as an Int (no overflow for -2^31).
  func s32(_ i: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(i))) }
  func has(_ count: Int, at offset: Int) -> Bool { offset >= 0 && offset + count <= bytes.count }
}

/// A size that is positive on both sides, or a malformed header.
private func sized(_ format: PictureFormat, _ width: Int, _ height: Int) -> Result<PictureHeader, PictureHeaderProblem>
{
  guard width > 0, height > 0 else { return .failure(.malformed(format, "it declares a size of \(width)x\(height)")) }
  return .success(PictureHeader(format: format, width: width, height: height))
}

private func pngHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: false)
  guard b.has(24, at: 0) else { return .failure(.cutShort(.png)) }
  guard Array(bytes[12..<16]) == Array("IHDR".utf8) else { return .failure(.malformed(.png, "no IHDR chunk first")) }
  return sized(.png, b.u32(16), b.u32(20))
}

/// Walks the JPEG segments to the first start-of-frame marker.
private func jpegHeader(_ read: (Int, Int) -> [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  var offset = 2
  for _ in 0..<4096 {
    let segment = read(offset, 10)
    guard segment.count >= 2 else { return .failure(.cutShort(.jpeg)) }
    guard segment[0] == 0xFF else { return .failure(.malformed(.jpeg, "no marker at byte \(offset)")) }
    let marker = segment[1]
    if marker == 0xFF {
      offset += 1
      continue
    }
    // Markers without a length: start of image, restarts, TEM.
    if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
      offset += 2
      continue
    }
    if marker == 0xD9 || marker == 0xDA { return .failure(.malformed(.jpeg, "no frame header before the image data")) }
    let b = Bytes(bytes: segment, littleEndian: false)
    guard segment.count >= 4 else { return .failure(.cutShort(.jpeg)) }
    let length = b.u16(2)
    guard length >= 2 else { return .failure(.malformed(.jpeg, "a segment of length \(length)")) }
    let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    if isFrame {
      guard segment.count >= 9 else { return .failure(.cutShort(.jpeg)) }
      return sized(.jpeg, b.u16(7), b.u16(5))
    }
    offset += 2 + length
  }
  return .failure(.malformed(.jpeg, "no frame header in its first 4096 segments"))
}

/// The logical screen, grown to the first image's extent when that is larger.
private func gifHeader(_ read: (Int, Int) -> [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let header = Bytes(bytes: read(0, 13), littleEndian: true)
  guard header.has(13, at: 0) else { return .failure(.cutShort(.gif)) }
  var width = header.u16(6)
  var height = header.u16(8)
  let flags = header.u8(10)
  var offset = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
  for _ in 0..<65536 {
    let block = read(offset, 10)
    guard let kind = block.first else { return .failure(.cutShort(.gif)) }
    switch kind {
    case 0x2C:  // an image descriptor: left, top, width, height
      let b = Bytes(bytes: block, littleEndian: true)
      guard b.has(9, at: 0) else { return .failure(.cutShort(.gif)) }
      width = max(width, b.u16(1) + b.u16(5))
      height = max(height, b.u16(3) + b.u16(7))
      return sized(.gif, width, height)
    case 0x21:  // an extension: its label, then sub-blocks until an empty one
      offset += 2
      while true {
        guard offset < 1 << 24 else { return .failure(.malformed(.gif, "no image in its first 16 MiB")) }
        guard let length = read(offset, 1).first else { return .failure(.cutShort(.gif)) }
        offset += 1 + Int(length)
        if length == 0 { break }
      }
    case 0x3B: return .failure(.malformed(.gif, "it holds no image"))
    default: return .failure(.malformed(.gif, "an unknown block 0x\(String(kind, radix: 16))"))
    }
  }
  return .failure(.malformed(.gif, "too many blocks before its first image"))
}

private func bmpHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: true)
  guard b.has(18, at: 0) else { return .failure(.cutShort(.bmp)) }
  let headerSize = b.u32(14)
  if headerSize == 12 {
    // OS/2 1.x: 16-bit sides.
    guard b.has(22, at: 0) else { return .failure(.cutShort(.bmp)) }
    return sized(.bmp, b.u16(18), b.u16(20))
  }
  guard headerSize >= 40 else { return .failure(.malformed(.bmp, "a header of \(headerSize) bytes")) }
  guard b.has(26, at: 0) else { return .failure(.cutShort(.bmp)) }
  // A negative height means the rows run top-down; a negative width is wrong.
  return sized(.bmp, b.s32(18), abs(b.s32(22)))
}

/// The first image file directory's ImageWidth (256) and ImageLength (257).
private func tiffHeader(_ read: (Int, Int) -> [UInt8], littleEndian: Bool) -> Result<
  PictureHeader, PictureHeaderProblem
> {
  let header = Bytes(bytes: read(0, 8), littleEndian: littleEndian)
  guard header.has(8, at: 0) else { return .failure(.cutShort(.tiff)) }
  let directory = header.u32(4)
  let count = Bytes(bytes: read(directory, 2), littleEndian: littleEndian)
  guard count.has(2, at: 0) else { return .failure(.cutShort(.tiff)) }
  let entries = count.u16(0)
  guard entries > 0, entries <= 4096 else {
    return .failure(.malformed(.tiff, "a directory of \(entries) entries"))
  }
  let table = Bytes(bytes: read(directory + 2, entries * 12), littleEndian: littleEndian)
  guard table.has(entries * 12, at: 0) else { return .failure(.cutShort(.tiff)) }
  var width: Int?
  var height: Int?
  for index in 0..<entries {
    let entry = index * 12
    let tag = table.u16(entry)
    guard tag == 256 || tag == 257 else { continue }
    // SHORT (3) or LONG (4), one value, in the entry itself.
    let value: Int
    switch table.u16(entry + 2) {
    case 3: value = table.u16(entry + 8)
    case 4: value = table.u32(entry + 8)
    case let type: return .failure(.malformed(.tiff, "its size has type \(type)"))
    }
    if tag == 256 { width = value } else { height = value }
  }
  guard let width, let height else { return .failure(.malformed(.tiff, "no ImageWidth and ImageLength")) }
  return sized(.tiff, width, height)
}

private func webpHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: true)
  guard b.has(30, at: 0) else { return .failure(.cutShort(.webp)) }
  switch String(decoding: bytes[12..<16], as: UTF8.self) {
  case "VP8 ":
    // The key frame's start code, then 14-bit width and height.
    guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else {
      return .failure(.malformed(.webp, "no VP8 key frame"))
    }
    return sized(.webp, b.u16(26) & 0x3FFF, b.u16(28) & 0x3FFF)
  case "VP8L":
    guard bytes[20] == 0x2F else { return .failure(.malformed(.webp, "no VP8L signature")) }
    let bits = b.u32(21)
    return sized(.webp, (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
  case "VP8X":
    return sized(.webp, b.u24(24) + 1, b.u24(27) + 1)
  default:
    return .failure(.malformed(.webp, "no VP8, VP8L or VP8X chunk first"))
  }
}

private func qoiHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: false)
  guard b.has(12, at: 0) else { return .failure(.cutShort(.qoi)) }
  return sized(.qoi, b.u32(4), b.u32(8))
}

/// "P1" … "P6", then the width and the height in decimal, with blanks and
/// `#` comments between them.
private func pnmHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  var index = 2
  func number() -> Int? {
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "#") {
        while index < bytes.count && bytes[index] != 10 && bytes[index] != 13 { index += 1 }
      } else if [9, 10, 11, 12, 13, 32].contains(bytes[index]) {
        index += 1
      } else {
        break
      }
    }
    var value = 0
    var digits = 0
    while index < bytes.count, (48...57).contains(bytes[index]), digits < 9 {
      value = value * 10 + Int(bytes[index] - 48)
      digits += 1
      index += 1
    }
    return digits > 0 ? value : nil
  }
  guard let width = number(), let height = number() else {
    return index >= bytes.count ? .failure(.cutShort(.pnm)) : .failure(.malformed(.pnm, "no width and height"))
  }
  return sized(.pnm, width, height)
}

private func pcxHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: true)
  guard b.has(12, at: 0) else { return .failure(.cutShort(.pcx)) }
  return sized(.pcx, b.u16(8) - b.u16(4) + 1, b.u16(10) - b.u16(6) + 1)
}

/// TGA's 18-byte header, sanity-checked (it has no signature).
private func tgaHeader(_ bytes: [UInt8]) -> Result<PictureHeader, PictureHeaderProblem> {
  let b = Bytes(bytes: bytes, littleEndian: true)
  guard b.has(18, at: 0) else { return .failure(.cutShort(.tga)) }
  guard b.u8(1) <= 1, [1, 2, 3, 9, 10, 11].contains(b.u8(2)), [8, 15, 16, 24, 32].contains(b.u8(16)) else {
    return .failure(.malformed(.tga, "an unknown colour map, image type or depth"))
  }
  return sized(.tga, b.u16(12), b.u16(14))
}
