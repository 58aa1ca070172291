// SPDX-License-Identifier: Apache-2.0
/// The last lines of a stream of bytes (a program's standard error), in
/// bounded memory whatever the stream holds: at most `maxLines` lines and
/// `maxBytes` bytes kept in all, each line cut at `maxLineBytes` (its
/// start kept). Older lines go first.
public struct LineRing: Sendable {
  public let maxLines: Int
  public let maxBytes: Int
  public let maxLineBytes: Int
  /// The whole lines kept, oldest first.
  private var kept: [[UInt8]] = []
  /// The line being written (no line break yet), cut at `maxLineBytes`.
  private var partial: [UInt8] = []
  /// Whether the partial line was cut.
  private var partialCut = false
  /// The bytes of the kept lines.
  private var keptBytes = 0
  /// How many bytes were appended in all.
  public private(set) var total = 0

  /// A ring of the last `maxLines` lines and `maxBytes` bytes, each line
  /// cut at `maxLineBytes`.
  public init(maxLines: Int = 32, maxBytes: Int = 4096, maxLineBytes: Int = 256) {
    self.maxLines = max(1, maxLines)
    self.maxBytes = max(1, maxBytes)
    self.maxLineBytes = max(1, min(maxLineBytes, maxBytes))
  }

  /// The bytes kept now (at most `maxBytes` plus a line being written, at
  /// most `maxLineBytes`).
  public var storedBytes: Int { keptBytes + partial.count }

  /// Takes `bytes` in: each line break ends a line.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    total += bytes.count
    var start = 0
    while start < bytes.count {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
        take(bytes[start..<bytes.count])
        return
      }
      take(bytes[start..<newline])
      endLine()
      start = newline + 1
    }
  }

  /// Takes `bytes` in (an array's).
  public mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

  /// The lines, oldest first (the one being written last, when it has
  /// anything), as text: invalid UTF-8 replaced, control characters
  /// escaped, a cut line ended with "…".
  public var lines: [String] {
    var all = kept.map(Self.text)
    if !partial.isEmpty { all.append(Self.text(partial + (partialCut ? Self.ellipsis : []))) }
    return all
  }

  private static let ellipsis: [UInt8] = Array("…".utf8)

  private static func text(_ bytes: [UInt8]) -> String {
    var line = String(decoding: bytes, as: UTF8.self)
    if line.hasSuffix("\r") { line.removeLast() }
    return printable(line.split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "  "))
  }

  private mutating func take(_ bytes: Slice<UnsafeRawBufferPointer>) {
    let room = maxLineBytes - partial.count
    if bytes.count > room { partialCut = true }
    if room > 0 { partial.append(contentsOf: bytes.prefix(room)) }
  }

  private mutating func endLine() {
    let line = partial + (partialCut ? Self.ellipsis : [])
    partial = []
    partialCut = false
    kept.append(line)
    keptBytes += line.count
    while kept.count > maxLines || keptBytes > maxBytes {
      keptBytes -= kept.removeFirst().count
    }
  }
}
