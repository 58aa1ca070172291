// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Builds a PNG (8-bit RGB, zlib with stored blocks) pixel by pixel, by
/// hand, so that the tests need no image library to make their pictures.
public func makePNG(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
  var raw = [UInt8]()
  for y in 0..<height {
    raw.append(0)
    for x in 0..<width {
      let (r, g, b) = pixel(x, y)
      raw += [r, g, b]
    }
  }
  var zlib: [UInt8] = [0x78, 0x01]
  var offset = 0
  repeat {
    let n = min(65535, raw.count - offset)
    let last: UInt8 = offset + n == raw.count ? 1 : 0
    zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
    zlib += raw[offset..<offset + n]
    offset += n
  } while offset < raw.count
  var a: UInt32 = 1
  var b: UInt32 = 0
  for byte in raw {
    a = (a + UInt32(byte)) % 65521
    b = (b + a) % 65521
  }
  zlib += bigEndian(b << 16 | a)
  var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
  png += chunk("IDAT", zlib)
  png += chunk("IEND", [])
  return Data(png)
}

/// A PNG header alone, declaring `width`×`height`: enough to test refusal before decoding.
public func pngHeaderOnly(width: Int, height: Int) -> Data {
  var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
  return Data(png)
}

private func bigEndian(_ v: UInt32) -> [UInt8] {
  [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
  let body = Array(type.utf8) + data
  return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
