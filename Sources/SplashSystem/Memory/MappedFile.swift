// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A regular file mapped whole: read without a read(2) call per buffer
/// (stdio reads 4 KiB at a time), unmapped when released.
///
/// A file cut short while it is mapped never crashes the reader: the pages
/// past its new end read as zeros, splashd says so once, naming the file,
/// and `wasCutShort` tells it.
public final class MappedFile {
  public let bytes: UnsafeRawBufferPointer
  /// The file's status when it was mapped (owner, mode, size).
  public let status: stat
  /// The mapping's slot in the SIGBUS guard (-1: none).
  private let guardSlot: Int32

  /// How a file is mapped.
  public enum Use: Sendable {
    /// Read once, front to back (read-only, read ahead).
    case readOnce
    /// Used where it lies, as pixels that are only read (read-only: a
    /// writable private mapping would copy each page, 4 ms for 8 MB). Its
    /// pages are mapped as they are first drawn, 16 to a fault (the
    /// kernel's fault-around): mapping all of them at once (MAP_POPULATE)
    /// or reading ahead cost a warm 1080p start ~0.15-0.3 ms more than the
    /// faults of its first frame (docs/performance.md).
    case pixels
  }

  /// Maps `path`, which must be a regular file of at most `limit` bytes.
  public init(_ path: String, limit: Int, use: Use = .readOnce) throws(SystemError) {
    let descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    defer { try? descriptor.close() }
    let info = try descriptor.status()
    status = info
    guard info.st_mode & S_IFMT == S_IFREG else { throw SystemError("mmap \(path)", code: EINVAL) }
    let length = Int(info.st_size)
    guard length <= limit else { throw SystemError("mmap \(path)", code: EFBIG) }
    guard length > 0 else {
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      guardSlot = -1
      return
    }
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0), mapped != MAP_FAILED else {
      throw SystemError("mmap \(path)", code: errno)
    }
    guardSlot = splashd_guard_mapping(mapped, UInt(length), path)
    if use == .readOnce { _ = madvise(mapped, length, MADV_WILLNEED) }
    bytes = UnsafeRawBufferPointer(start: mapped, count: length)
  }

  /// Puts the guard of mapped files in front of a SIGBUS handler a library
  /// installed since (libwayland's, at its first read of a Wayland client's
  /// memory, guards that memory and raises SIGBUS again for any other
  /// fault, which would end splashd at a read of a file cut short): it
  /// takes the faults of no mapped file from then on.
  public static func guardGoesFirst() { splashd_mapping_guard_goes_first(nil) }

  /// Whether the file was cut short under the mapping and a read found
  /// the zeros that stand for what was lost.
  public var wasCutShort: Bool { splashd_mapping_was_cut(guardSlot) != 0 }

  deinit {
    splashd_unguard_mapping(guardSlot)
    if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
  }
}
