// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A regular file mapped read-only, whole: read without a read(2) call per
/// buffer (stdio reads 4 KiB at a time), unmapped when released.
public final class MappedFile {
  public let bytes: UnsafeRawBufferPointer

  /// Maps `path`, which must be a regular file of at most `limit` bytes.
  public init(_ path: String, limit: Int) throws(SystemError) {
    let descriptor = try FileDescriptor.open(path, O_RDONLY)
    defer { try? descriptor.close() }
    let info = try descriptor.status()
    guard info.st_mode & S_IFMT == S_IFREG else { throw SystemError("mmap \(path)", code: EINVAL) }
    let length = Int(info.st_size)
    guard length <= limit else { throw SystemError("mmap \(path)", code: EFBIG) }
    guard length > 0 else {
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return
    }
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0), mapped != MAP_FAILED else {
      throw SystemError("mmap \(path)", code: errno)
    }
    // The decoder reads it front to back, once.
    _ = madvise(mapped, length, MADV_WILLNEED)
    bytes = UnsafeRawBufferPointer(start: mapped, count: length)
  }

  deinit {
    if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
  }
}
