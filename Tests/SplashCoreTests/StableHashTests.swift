// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// The hash that tells a picture from its earlier contents (with its size
/// and times): the same bytes give the same value, and a change of any one
/// byte, in the words or in the bytes left over, gives another.
@Suite struct StableHashTests {
  func words(_ bytes: [UInt8]) -> UInt64 {
    var hash = StableHash()
    bytes.withUnsafeBytes { hash.addWords($0) }
    return hash.value
  }

  @Test func anyOneChangedByteChangesTheValue() {
    // 8 whole words and 5 bytes left over.
    let bytes = (0..<69).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let value = words(bytes)
    #expect(words(bytes) == value)
    var seen: Set<UInt64> = [value]
    for index in bytes.indices {
      for flip: UInt8 in [0x01, 0x80] {
        var changed = bytes
        changed[index] ^= flip
        #expect(seen.insert(words(changed)).inserted, "byte \(index), bit \(flip)")
      }
    }
  }

  /// A multiply carries only upwards: the top bits of two words changed
  /// together must not cancel out.
  @Test func twoWordsTopBitsChangedTogetherChangeTheValue() {
    let bytes = [UInt8](repeating: 0x5a, count: 32)
    var changed = bytes
    changed[7] ^= 0x80
    changed[23] ^= 0x80
    #expect(words(changed) != words(bytes))
  }

  @Test func aRunCutShortOrLengthenedChangesTheValue() {
    let bytes = [UInt8](repeating: 7, count: 24)
    #expect(words(bytes) != words(Array(bytes.dropLast())))
    #expect(words(bytes) != words(bytes + [0]))
    #expect(words([]) == StableHash().value)
  }
}
