// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem
import Testing

@Suite struct MappedMemoryTests {
  /// The flags of the mapping that holds `address`, from /proc/self/smaps.
  func mappingFlags(holding address: UnsafeMutableRawPointer) throws -> [Substring] {
    let smaps = String(decoding: try Files.readPrefix(of: "/proc/self/smaps", count: 1 << 24), as: UTF8.self)
    let at = UInt(bitPattern: address)
    var inside = false
    for line in smaps.split(separator: "\n") {
      if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
        let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16)
      {
        inside = start <= at && at < end
      } else if inside, line.hasPrefix("VmFlags:") {
        return line.dropFirst("VmFlags:".count).split(separator: " ")
      }
    }
    throw SystemError("no mapping holds \(address) in /proc/self/smaps", code: 0)
  }

  @Test func aFramesMemoryIsAdvisedForHugePages() throws {
    let memory = try MappedMemory(length: 8 << 20)
    // "hg": MADV_HUGEPAGE; the kernel then faults it in 2 MiB at a time.
    #expect(try mappingFlags(holding: memory.address).contains("hg"))
  }

  @Test func aFrameLiesOnWholeHugePages() throws {
    // A 1080p frame (not a whole number of huge pages): unaligned, the
    // kernel could give it three huge pages and 512 small ones.
    let length = 1920 * 1080 * 4
    let memory = try MappedMemory(length: length)
    #expect(Int(bitPattern: memory.address) % (2 << 20) == 0)
    #expect(memory.length == 4 * (2 << 20))
    // All of it is writable, and nothing outside it stays mapped.
    memory.address.storeBytes(of: 1, toByteOffset: memory.length - 1, as: UInt8.self)
    #expect(try mappingFlags(holding: memory.address).contains("hg"))
    let small = try MappedMemory(length: 4096)
    #expect(small.length == 4096)
  }
}
