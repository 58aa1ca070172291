// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A regular file mapped whole: read without a read(2) call per buffer
/// (stdio reads 4 KiB at a time), unmapped when released.
public final class MappedFile {
  public let bytes: UnsafeRawBufferPointer
  /// The file's status when it was mapped (owner, mode, size).
  public let status: stat

  /// How a file is mapped.
  public enum Use: Sendable {
    /// Read once, front to back (read-only, read ahead).
    case readOnce
    /// Used where it lies, as pixels that are only read: every page
    /// mapped at once (read-only: a writable private mapping would copy
    /// each page as it is populated, 4 ms for 8 MB).
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
      return
    }
    let flags = use == .pixels ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
    guard let mapped = mmap(nil, length, PROT_READ, flags, descriptor.rawValue, 0), mapped != MAP_FAILED else {
      throw SystemError("mmap \(path)", code: errno)
    }
    if use == .readOnce { _ = madvise(mapped, length, MADV_WILLNEED) }
    bytes = UnsafeRawBufferPointer(start: mapped, count: length)
  }

  deinit {
    if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
  }
}
