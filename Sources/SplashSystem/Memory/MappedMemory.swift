// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Zero-filled anonymous memory, unmapped when released. Advised for
/// transparent huge pages (MADV_HUGEPAGE): a picture or frame is written
/// whole, so its 2 MiB pages cost no memory a 4 KiB page would not, and an
/// 8 MiB frame is faulted in 4 times instead of 2,025 (a warm offscreen
/// start's first frame: 9.2 -> 5.0 ms, docs/performance.md). Where the
/// kernel has them off, or none is free, it gets small pages as before.
public final class MappedMemory {
  /// The first byte.
  public let address: UnsafeMutableRawPointer
  /// The bytes mapped: the length asked for, rounded up to whole huge pages
  /// where it is a huge page or more.
  public let length: Int
  private var populator: pthread_t?
  /// The size of a transparent huge page.
  private static let hugePage = 2 << 20

  public init(length: Int) throws(SystemError) {
    // A length of a huge page or more is placed on a huge-page boundary and
    // rounded up to whole huge pages, so that every byte of it can be in one
    // (unaligned, an 8 MiB frame gets three and 512 small pages).
    let hugePage = Self.hugePage
    let rounded = length >= hugePage ? (length + hugePage - 1) & ~(hugePage - 1) : length
    let reserved = rounded == length ? length : rounded + hugePage
    guard let mapped = mmap(nil, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      mapped != MAP_FAILED
    else { throw SystemError("mmap \(length) bytes", code: errno) }
    var start = mapped
    if reserved != length {
      let misalignment = Int(bitPattern: mapped) & (hugePage - 1)
      let head = misalignment == 0 ? 0 : hugePage - misalignment
      start = mapped + head
      if head > 0 { munmap(mapped, head) }
      if reserved - head - rounded > 0 { munmap(start + rounded, reserved - head - rounded) }
    }
    address = start
    self.length = rounded
    _ = madvise(start, rounded, MADV_HUGEPAGE)
  }

  /// Has a helper thread fault every page in while this one goes on, so
  /// that whoever writes the memory first finds it ready: on these machines
  /// first-touch faults cost about 4 ms per 8 MiB frame. Uses
  /// MADV_POPULATE_WRITE (Linux 5.14), which never changes the contents and
  /// so may race with writers; on older kernels it does nothing. A huge page
  /// at a time: the kernel holds the process's memory map while it
  /// populates, and every `mmap` of the other thread (a file mapped, a big
  /// allocation) waits for that, so one call for all of a frame held the
  /// start up for all of its zeroing.
  public func populateInBackground() {
    guard populator == nil else { return }
    let region = Unmanaged.passRetained(Region(address: address, length: length))
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { context in
        let region = Unmanaged<Region>.fromOpaque(context!).takeRetainedValue()
        let piece = MappedMemory.hugePage
        for offset in stride(from: 0, to: region.length, by: piece) {
          guard madvise(region.address + offset, min(piece, region.length - offset), MADV_POPULATE_WRITE) == 0
          else { break }
        }
        return nil
      }, region.toOpaque())
    if started == 0 {
      populator = thread
    } else {
      region.release()
    }
  }

  deinit {
    if let populator { pthread_join(populator, nil) }
    munmap(address, length)
  }
}

/// The part of a mapping the helper thread populates.
private final class Region {
  let address: UnsafeMutableRawPointer
  let length: Int
  init(address: UnsafeMutableRawPointer, length: Int) {
    self.address = address
    self.length = length
  }
}
