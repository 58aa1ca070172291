// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashRender
import SplashTestSupport
import Testing

/// The sizes pictures declare, read before anything is decoded.
@Suite struct PictureHeaderTests {
  /// The fuzzer's seeds (Tests/Fuzz/picture-header) are one header of each format.
  static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/picture-header").path

  func header(_ bytes: [UInt8], name: String = "picture") -> Result<PictureHeader, PictureHeaderProblem> {
    readPictureHeader(name: name) { offset, count in
      guard offset >= 0, offset < bytes.count else { return [] }
      return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
  }

  @Test(arguments: [
    ("png", PictureFormat.png, 64, 36), ("jpeg", .jpeg, 64, 36), ("gif", .gif, 64, 40), ("bmp", .bmp, 64, 36),
    ("bmp-os2", .bmp, 64, 36), ("tiff", .tiff, 64, 36), ("tiff-be", .tiff, 64, 36), ("webp-vp8", .webp, 64, 36),
    ("webp-vp8l", .webp, 64, 36), ("webp-vp8x", .webp, 64, 36), ("qoi", .qoi, 64, 36), ("pnm", .pnm, 64, 36),
    ("pcx", .pcx, 64, 36), ("tga", .tga, 64, 36),
  ])
  func everyFormatDeclaresItsSize(seed: String, format: PictureFormat, width: Int, height: Int) throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "/" + seed)))
    let name = format == .tga ? "picture.tga" : "picture"
    #expect(try header(bytes, name: name).get() == PictureHeader(format: format, width: width, height: height))
  }

  /// A BMP whose width field is 0x80000000 is malformed, not a crash
  /// (`abs(Int32.min)` used to trap); such a height is 2^31 rows (top-down),
  /// which the side limit then refuses.
  @Test func theMostNegativeBMPSidesAreNoCrash() {
    var bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 24)
    bmp[14] = 40
    bmp[18] = 1
    bmp[22] = 1
    var wide = bmp
    wide[18] = 0
    wide[21] = 0x80
    #expect(header(wide) == .failure(.malformed(.bmp, "it declares a size of -2147483648x1")))
    var tall = bmp
    tall[22] = 0
    tall[25] = 0x80
    #expect(header(tall) == .success(PictureHeader(format: .bmp, width: 1, height: 2_147_483_648)))
  }

  @Test func cutShortUnknownAndMalformedHeadersSaySo() throws {
    let png = Array(try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "/png")))
    #expect(header(Array(png[..<20])) == .failure(.cutShort(.png)))
    #expect(header(Array("not a picture".utf8)) == .failure(.unknownFormat))
    #expect(header([]) == .failure(.unknownFormat))
    // TGA has no signature: only its name says what it is.
    let tga = Array(try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "/tga")))
    #expect(header(tga, name: "a.bin") == .failure(.unknownFormat))
    #expect(header(tga, name: "a.TGA").map(\.format) == .success(.tga))
    // A JPEG whose frame header never comes.
    #expect(
      header([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]) == .failure(.malformed(.jpeg, "no frame header before the image data")))
    // A GIF that is all extensions and no image.
    let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0] + [0x21, 0xFE, 3, 65, 66, 67, 0, 0x3B]
    #expect(header(gif) == .failure(.malformed(.gif, "it holds no image")))
  }

  /// A TIFF may keep its directory anywhere in the file (often after the pixels).
  @Test func aTIFFDirectoryAtTheEndIsFound() throws {
    var tiff = Array("II*\u{0}".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0xAA, count: 100_000)
    let directory = tiff.count
    tiff[4] = UInt8(directory & 0xFF)
    tiff[5] = UInt8(directory >> 8 & 0xFF)
    tiff[6] = UInt8(directory >> 16 & 0xFF)
    tiff += [2, 0] + [0, 1, 3, 0, 1, 0, 0, 0, 0x00, 0x05, 0, 0] + [1, 1, 4, 0, 1, 0, 0, 0, 0x20, 0x03, 0, 0]
    #expect(try header(tiff).get() == PictureHeader(format: .tiff, width: 1280, height: 800))
  }
}
