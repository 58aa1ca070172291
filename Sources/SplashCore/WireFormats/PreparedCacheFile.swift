// SPDX-License-Identifier: Apache-2.0
/// FNV-1a over 64 bits: a hash that is the same in every process and on
/// every machine (Swift's `Hasher` is seeded afresh in each process).
public struct StableHash: Equatable, Sendable {
  public var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  /// Inlinable, so that it is specialised where it is called: through a
  /// generic witness a byte at a time it took 3 ms for 128 KiB.
  @inlinable
  public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    var hash = value
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    if done == nil {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    value = hash
  }

  public mutating func add(_ text: String) { add(text.utf8) }

  /// Adds `bytes` eight at a time (the few left over one at a time), in the
  /// machine's byte order: for long runs such as a picture's first and last
  /// 64 KiB, which a byte at a time took a quarter of a millisecond of every
  /// warm start. Not the value `add` gives for the same bytes. Any one
  /// changed byte still changes the value: each step is a bijection. A
  /// word's high bits are folded down after its multiply (a multiply
  /// carries only upwards: without the fold a change of any word's top bit
  /// made the same value, and two such changes none).
  public mutating func addWords(_ bytes: UnsafeRawBufferPointer) {
    var hash = value
    var offset = 0
    while offset + 8 <= bytes.count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
      hash ^= hash >> 32
      offset += 8
    }
    value = hash
    add(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
  }

  /// Sixteen hexadecimal digits.
  public var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// One picture as prepared for a display, as a cache file holds it: its
/// pixels start at `offset`, `pitch` bytes a row.
public struct PreparedPictureEntry: Equatable, Sendable {
  /// The asset's name (`AssetID.name`: splash, left, right, background).
  public var asset: String
  public var opaque: Bool
  public var width: Int
  public var height: Int
  public var bytesPerPixel: Int
  public var pitch: Int
  /// The pixel format's number in the renderer's terms (SDL's).
  public var pixelFormat: UInt32
  public var offset: Int

  public init(
    asset: String, opaque: Bool, width: Int, height: Int, bytesPerPixel: Int, pitch: Int, pixelFormat: UInt32,
    offset: Int = 0
  ) {
    self.asset = asset
    self.opaque = opaque
    self.width = width
    self.height = height
    self.bytesPerPixel = bytesPerPixel
    self.pitch = pitch
    self.pixelFormat = pixelFormat
    self.offset = offset
  }

  /// The bytes of its pixels.
  public var length: Int { pitch * height }
}

/// What a source picture was found to be when it was decoded: what the
/// layout needs of it, so that a warm start lays the scene out without
/// decoding.
public struct PreparedSourceEntry: Equatable, Sendable {
  public var asset: String
  public var info: ImageInfo

  public init(asset: String, info: ImageInfo) {
    self.asset = asset
    self.info = info
  }
}

/// Why a cache file is not used.
public struct PreparedCacheProblem: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// The layout of a prepared-picture cache file: a header naming the key it
/// was made for, what its source pictures were, and where each prepared
/// picture's pixels lie; then the pixels, each starting on a page so that
/// they can be used where they are mapped.
///
/// ```
/// 0   "SPLASHDP"          8 bytes
/// 8   layout version      u32 (little-endian, as every number)
/// 12  key length K        u32
/// 16  records length R    u32
/// 20  0                   u32
/// 24  file length         u64
/// 32  header checksum     u64  (StableHash of the key and the records)
/// 40  the key             K bytes
///     the records         R bytes: lines "source NAME W H opaque|alpha" and
///                         "picture NAME opaque|alpha W H BYTES PITCH FORMAT OFFSET"
///     zeros up to the first page boundary, then the pixels
/// ```
///
/// A file is used only when every field checks out (`parse`): the magic and
/// version, the checksum, the length the file really has, sizes within
/// `PixelSize.maxSide`, rows within their pitch, pictures inside the file and
/// apart; and the key, compared whole by the caller. The pixels themselves
/// are not summed (a warm start would read them twice): the file is written
/// whole under another name and renamed, so it is never seen half-written,
/// and nothing read from it can reach outside it.
public struct PreparedCacheFile: Equatable, Sendable {
  public static let magic: [UInt8] = Array("SPLASHDP".utf8)
  public static let layoutVersion: UInt32 = 1
  /// Pixels start on boundaries of this many bytes.
  public static let pageSize = 4096
  /// The fixed part of the header.
  public static let fixedHeaderLength = 40
  /// The most key and records may take.
  public static let maxHeaderText = 1 << 20

  public var key: String
  public var sources: [PreparedSourceEntry]
  public var pictures: [PreparedPictureEntry]
  /// Where the first picture's pixels start.
  public private(set) var payloadStart: Int
  /// The whole file's length.
  public private(set) var fileLength: Int

  /// Lays out a file for `pictures` (their offsets are assigned here).
  public init(key: String, sources: [PreparedSourceEntry], pictures: [PreparedPictureEntry]) {
    self.key = key
    self.sources = sources
    let text = Self.fixedHeaderLength + key.utf8.count + Self.recordsText(sources, pictures).utf8.count
    payloadStart = Self.roundedUp(text)
    var offset = payloadStart
    self.pictures = pictures.map { picture in
      var placed = picture
      placed.offset = offset
      offset = Self.roundedUp(offset + picture.length)
      return placed
    }
    fileLength = self.pictures.last.map { $0.offset + $0.length } ?? payloadStart
  }

  private init(
    key: String, sources: [PreparedSourceEntry], pictures: [PreparedPictureEntry], payloadStart: Int, fileLength: Int
  ) {
    self.key = key
    self.sources = sources
    self.pictures = pictures
    self.payloadStart = payloadStart
    self.fileLength = fileLength
  }

  private static func roundedUp(_ offset: Int) -> Int { (offset + pageSize - 1) / pageSize * pageSize }

  private static func recordsText(_ sources: [PreparedSourceEntry], _ pictures: [PreparedPictureEntry]) -> String {
    func opacity(_ opaque: Bool) -> String { opaque ? "opaque" : "alpha" }
    let sourceLines = sources.map {
      "source \($0.asset) \($0.info.size.width) \($0.info.size.height) \(opacity($0.info.opaque))\n"
    }
    let pictureLines = pictures.map {
      "picture \($0.asset) \(opacity($0.opaque)) \($0.width) \($0.height) \($0.bytesPerPixel) \($0.pitch) "
        + "\($0.pixelFormat) \($0.offset)\n"
    }
    return (sourceLines + pictureLines).joined()
  }

  /// The header's bytes, up to where the pixels start.
  public var header: [UInt8] {
    let keyBytes = Array(key.utf8)
    let records = Array(Self.recordsText(sources, pictures).utf8)
    var checksum = StableHash()
    checksum.add(keyBytes)
    checksum.add(records)
    var bytes = Self.magic
    func append<Number: FixedWidthInteger>(_ number: Number) {
      withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(Self.layoutVersion)
    append(UInt32(keyBytes.count))
    append(UInt32(records.count))
    append(UInt32(0))
    append(UInt64(fileLength))
    append(checksum.value)
    bytes += keyBytes + records
    bytes += [UInt8](repeating: 0, count: payloadStart - bytes.count)
    return bytes
  }

  /// The file whose first bytes are `prefix` (at least its header) and whose
  /// length is `fileLength`, every field checked; the key is the caller's to
  /// compare. (Not generic: unspecialised, a warm start spent more
  /// making the generic code's metadata than reading the header.)
  public static func parse(
    _ prefix: UnsafeBufferPointer<UInt8>, fileLength: Int
  ) -> Result<Self, PreparedCacheProblem> {
    func problem(_ text: String) -> Result<Self, PreparedCacheProblem> { .failure(PreparedCacheProblem(text)) }
    let start = prefix.startIndex
    func number(at offset: Int, bytes: Int) -> UInt64 {
      (0..<bytes).reduce(0) { $0 | UInt64(prefix[start + offset + $1]) << (8 * $1) }
    }
    guard prefix.count >= fixedHeaderLength, Array(prefix.prefix(magic.count)) == magic else {
      return problem("not a splashd cache file")
    }
    guard number(at: 8, bytes: 4) == layoutVersion else {
      return problem("cache layout \(number(at: 8, bytes: 4)), this splashd reads \(layoutVersion)")
    }
    let keyLength = Int(number(at: 12, bytes: 4))
    let recordsLength = Int(number(at: 16, bytes: 4))
    guard keyLength + recordsLength <= maxHeaderText, fixedHeaderLength + keyLength + recordsLength <= prefix.count
    else { return problem("its header is cut short") }
    guard number(at: 24, bytes: 8) == UInt64(fileLength) else {
      return problem("it is \(fileLength) bytes long, its header says \(number(at: 24, bytes: 8))")
    }
    let keyBytes = prefix[(start + fixedHeaderLength)..<(start + fixedHeaderLength + keyLength)]
    let recordBytes = prefix[
      (start + fixedHeaderLength + keyLength)..<(start + fixedHeaderLength + keyLength + recordsLength)]
    var checksum = StableHash()
    checksum.add(keyBytes)
    checksum.add(recordBytes)
    guard checksum.value == number(at: 32, bytes: 8) else { return problem("its header's checksum does not match") }
    guard let key = String(validating: keyBytes, as: UTF8.self),
      let records = String(validating: recordBytes, as: UTF8.self)
    else { return problem("its header is not UTF-8") }
    let payloadStart = roundedUp(fixedHeaderLength + keyLength + recordsLength)
    var sources: [PreparedSourceEntry] = []
    var pictures: [PreparedPictureEntry] = []
    var end = payloadStart
    for line in records.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      func side(_ word: String) -> Int? { Int(word).flatMap { (1...PixelSize.maxSide).contains($0) ? $0 : nil } }
      func opacity(_ word: String) -> Bool? { word == "opaque" ? true : word == "alpha" ? false : nil }
      let names: Set<String> = Set(sources.map(\.asset))
      if words.count == 5, words[0] == "source", !names.contains(words[1]), let width = side(words[2]),
        let height = side(words[3]), let opaque = opacity(words[4])
      {
        sources.append(
          PreparedSourceEntry(
            asset: words[1], info: ImageInfo(size: PixelSize(width: width, height: height), opaque: opaque)))
        continue
      }
      guard words.count == 9, words[0] == "picture", !pictures.contains(where: { $0.asset == words[1] }),
        let opaque = opacity(words[2]), let width = side(words[3]), let height = side(words[4]),
        let bytesPerPixel = Int(words[5]), (2...4).contains(bytesPerPixel), let pitch = Int(words[6]),
        pitch >= width * bytesPerPixel, pitch <= width * bytesPerPixel + 64, let format = UInt32(words[7]),
        let offset = Int(words[8])
      else { return problem("its header has a record splashd does not read: \"\(printable(String(line)))\"") }
      guard offset >= end, offset % pageSize == 0, offset <= fileLength, pitch * height <= fileLength - offset else {
        return problem("its picture \(printable(words[1])) lies outside the file or over another")
      }
      pictures.append(
        PreparedPictureEntry(
          asset: words[1], opaque: opaque, width: width, height: height, bytesPerPixel: bytesPerPixel, pitch: pitch,
          pixelFormat: format, offset: offset))
      end = offset + pitch * height
    }
    guard !records.isEmpty, records.hasSuffix("\n") else { return problem("its header has no records") }
    guard end == fileLength else { return problem("it is \(fileLength) bytes long, its pictures end at \(end)") }
    return .success(
      PreparedCacheFile(
        key: key, sources: sources, pictures: pictures, payloadStart: payloadStart, fileLength: fileLength))
  }
}
