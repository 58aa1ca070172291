// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// The prepared-picture cache file's header: what is written reads back,
/// and every way a file can lie is refused before a byte of it is used.
@Suite struct PreparedCacheFileTests {
  let sources = [
    PreparedSourceEntry(asset: "background", info: ImageInfo(size: PixelSize(width: 64, height: 48), opaque: true)),
    PreparedSourceEntry(asset: "splash", info: ImageInfo(size: PixelSize(width: 1920, height: 1080), opaque: false)),
  ]
  let pictures = [
    PreparedPictureEntry(
      asset: "background", opaque: true, width: 10, height: 7, bytesPerPixel: 4, pitch: 40, pixelFormat: 370_546_692),
    PreparedPictureEntry(
      asset: "splash", opaque: false, width: 33, height: 5, bytesPerPixel: 2, pitch: 68, pixelFormat: 353_701_890),
  ]

  var layout: PreparedCacheFile {
    PreparedCacheFile(
      key: "picture splash /x.png dev 1 inode 2\ndisplay 10x7 rotate 90\n", sources: sources, pictures: pictures)
  }

  /// The whole file: the header, then zeros for the pixels.
  func bytes(of file: PreparedCacheFile) -> [UInt8] {
    file.header + [UInt8](repeating: 0, count: file.fileLength - file.payloadStart)
  }

  func problem(_ bytes: [UInt8], length: Int? = nil) -> String? {
    let parsed = bytes.withUnsafeBufferPointer { PreparedCacheFile.parse($0, fileLength: length ?? bytes.count) }
    guard case .failure(let problem) = parsed else { return nil }
    return problem.description
  }

  @Test func pixelsStartOnPagesAndReadBack() throws {
    let file = layout
    #expect(file.payloadStart == 4096)
    #expect(file.pictures.map(\.offset) == [4096, 8192])
    #expect(file.fileLength == 8192 + 68 * 5)
    let read = try bytes(of: file).withUnsafeBufferPointer {
      PreparedCacheFile.parse($0, fileLength: file.fileLength)
    }.get()
    #expect(read == file)
    #expect(read.sources == sources)
  }

  @Test func aFileOfAnotherKindOrLayoutIsRefused() {
    var foreign = bytes(of: layout)
    foreign[0] = UInt8(ascii: "X")
    #expect(problem(foreign) == "not a splashd cache file")
    var later = bytes(of: layout)
    later[8] = 2
    #expect(problem(later) == "cache layout 2, this splashd reads 1")
    #expect(problem(Array("SPLASHDP".utf8)) == "not a splashd cache file")
  }

  @Test func aTruncatedOrLengthenedFileIsRefused() {
    let whole = bytes(of: layout)
    let length = whole.count
    #expect(problem(Array(whole.dropLast(100))) == "it is \(length - 100) bytes long, its header says \(length)")
    #expect(problem(whole + [0]) == "it is \(length + 1) bytes long, its header says \(length)")
    #expect(problem(Array(whole.prefix(60)), length: length) == "its header is cut short")
  }

  @Test func aChangedHeaderByteIsCaught() {
    let whole = bytes(of: layout)
    // Every byte of the key and the records is under the checksum.
    for offset in [PreparedCacheFile.fixedHeaderLength, PreparedCacheFile.fixedHeaderLength + 70, 200] {
      var changed = whole
      changed[offset] ^= 0x20
      #expect(problem(changed) == "its header's checksum does not match", "byte \(offset)")
    }
  }

  /// A header whose checksum is right but whose records lie (as a file
  /// made to attack splashd would be) is refused all the same.
  @Test func recordsThatReachOutsideTheFileAreRefused() {
    func forged(_ records: String, length: Int) -> [UInt8] {
      let key = Array("k".utf8)
      let text = Array(records.utf8)
      var hash = StableHash()
      hash.add(key)
      hash.add(text)
      var bytes = Array("SPLASHDP".utf8)
      for (number, size) in [(1, 4), (key.count, 4), (text.count, 4), (0, 4), (length, 8)] as [(Int, Int)] {
        bytes += (0..<size).map { UInt8(truncatingIfNeeded: UInt64(number) >> (8 * UInt64($0))) }
      }
      bytes += (0..<8).map { UInt8(truncatingIfNeeded: hash.value >> (8 * UInt64($0))) }
      bytes += key + text
      return bytes + [UInt8](repeating: 0, count: max(0, length - bytes.count))
    }
    let fine = "picture splash opaque 4 4 4 16 1 4096\n"
    #expect(problem(forged(fine, length: 4096 + 64)) == nil)
    #expect(
      problem(forged("picture splash opaque 4 4 4 16 1 4096\n", length: 4096 + 63))
        == "its picture splash lies outside the file or over another")
    #expect(
      problem(forged("picture splash opaque 4 4 4 16 1 0\n", length: 4096 + 64))
        == "its picture splash lies outside the file or over another")
    #expect(
      problem(
        forged("picture splash opaque 4 4 4 16 1 4096\npicture left opaque 4 4 4 16 1 4096\n", length: 4096 + 64))
        == "its picture left lies outside the file or over another")
    #expect(
      problem(forged("picture splash opaque 4 4 4 12 1 4096\n", length: 4096 + 48))
        == "its header has a record splashd does not read: \"picture splash opaque 4 4 4 12 1 4096\"")
    #expect(
      problem(forged("picture splash opaque 99999 4 4 400000 1 4096\n", length: 4096 + 1_600_000))
        == "its header has a record splashd does not read: \"picture splash opaque 99999 4 4 400000 1 4096\"")
    #expect(problem(forged("", length: 4096)) == "its header has no records")
    #expect(
      problem(forged("picture splash opaque 4 4 4 16 1 4096\n", length: 8192))
        == "it is 8192 bytes long, its pictures end at 4160")
  }

  /// FNV-1a's published test vectors: the same hash in every process and build.
  @Test func theHashIsFNV1a() {
    func hex(_ text: String) -> String {
      var hash = StableHash()
      hash.add(text)
      return hash.hex
    }
    #expect(hex("") == "cbf29ce484222325")
    #expect(hex("a") == "af63dc4c8601ec8c")
    #expect(hex("foobar") == "85944171f73967e8")
  }
}
