private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// Whether `bytes` start with the PNG signature.
func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: pngSignature) }

/// The pixel size a picture file declares in its header, read without
/// decoding, so that oversized pictures are refused before any memory is
/// spent on them. Knows PNG, JPEG, GIF and BMP; nil for other formats or
/// when the header is cut short.
public func declaredImageSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
  func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
  func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
  func le16(_ i: Int) -> Int { Int(bytes[i + 1]) << 8 | Int(bytes[i]) }
  func le32(_ i: Int) -> Int32 { Int32(bitPattern: UInt32(le16(i + 2)) << 16 | UInt32(le16(i))) }

  if bytes.count >= 24, isPNG(bytes), Array(bytes[12..<16]) == Array("IHDR".utf8) {
    return (be32(16), be32(20))
  }
  if bytes.count >= 10, Array(bytes[0..<4]) == Array("GIF8".utf8) {
    return (le16(6), le16(8))
  }
  if bytes.count >= 26, bytes[0] == 0x42, bytes[1] == 0x4D {
    return (Int(abs(le32(18))), Int(abs(le32(22))))
  }
  if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
    // Walk the JPEG segments to the first start-of-frame marker.
    var i = 2
    while i + 9 < bytes.count {
      guard bytes[i] == 0xFF else { return nil }
      let marker = bytes[i + 1]
      if marker == 0xFF {
        i += 1
        continue
      }
      let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
      if isFrame { return (be16(i + 7), be16(i + 5)) }
      if marker == 0xD8 || (0xD0...0xD7).contains(marker) {
        i += 2
        continue
      }
      i += 2 + be16(i + 2)
    }
  }
  return nil
}
