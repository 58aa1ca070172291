// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// An open file descriptor, closed explicitly by its owner.
public struct FileDescriptor: Equatable, Hashable, Sendable {
  public let rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let standardError = FileDescriptor(rawValue: 2)
  public static let standardOutput = FileDescriptor(rawValue: 1)

  /// Opens `path` with `flags` (O_… constants); O_CLOEXEC is always added.
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
    let fd = try retryingInterrupts("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    return FileDescriptor(rawValue: fd)
  }

  /// Opens the character device at `path` (a DRM card, a framebuffer, a
  /// VT, an input device) without blocking in open(2) whatever is there (a
  /// FIFO nobody writes would hold it for ever), refuses anything but a
  /// character device, and leaves it blocking unless `flags` say
  /// O_NONBLOCK.
  /// `kind` names the device for the error ("a framebuffer device": "not a
  /// framebuffer device").
  public static func openDevice(_ path: String, _ flags: Int32, kind: String = "a device") throws(SystemError)
    -> FileDescriptor
  {
    let descriptor = try open(path, flags | O_NONBLOCK | O_NOCTTY)
    do throws(SystemError) {
      guard try descriptor.status().st_mode & S_IFMT == S_IFCHR else {
        throw SystemError(path, code: ENODEV, reason: "not " + kind)
      }
      if flags & O_NONBLOCK == 0 {
        let status = fcntl(descriptor.rawValue, F_GETFL)
        guard status >= 0, fcntl(descriptor.rawValue, F_SETFL, status & ~O_NONBLOCK) == 0 else {
          throw SystemError("fcntl \(path)", code: errno)
        }
      }
    } catch {
      try? descriptor.close()
      throw error
    }
    return descriptor
  }

  /// Writes all of `bytes`, continuing after short writes.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let written = try retryingInterrupts("write") {
        Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
      }
      offset += written
    }
  }

  /// Writes all of `bytes`.
  public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
    try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(raw) } }.get()
  }

  /// Writes the UTF-8 bytes of `text`.
  public func writeAll(_ text: String) throws(SystemError) {
    var text = text
    let result = text.withUTF8 { buffer in
      Result { () throws(SystemError) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }
    try result.get()
  }

  /// Reads up to `count` bytes into `buffer`; 0 at end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try retryingInterrupts("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Reads until the end of the file or `count` bytes, whichever comes
  /// first; memory grows with what is read, not with `count`.
  public func read(upTo count: Int) throws(SystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(count, 64 << 10))
    while bytes.count < count {
      let want = min(chunk.count, count - bytes.count)
      let n = try chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemError) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want])) }
      }.get()
      if n == 0 { break }
      bytes += chunk[..<n]
    }
    return bytes
  }

  /// Up to `count` bytes at `offset` of the file (pread), fewer at its end.
  public func read(at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
    guard offset >= 0, count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = try bytes.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemError) in
          try retryingInterrupts("pread") {
            pread(rawValue, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
          }
        }
      }.get()
      if n == 0 { break }
      filled += n
    }
    return Array(bytes[..<filled])
  }

  /// The file's status (fstat).
  public func status() throws(SystemError) -> stat {
    var info = stat()
    try retryingInterrupts("fstat") { fstat(rawValue, &info) }
    return info
  }

  /// An ioctl whose argument is a pointer to `argument`; `call` names it in the error.
  @discardableResult
  public func control<T>(_ request: UInt, _ argument: inout T, call: String) throws(SystemError) -> Int32 {
    try withUnsafeMutableBytes(of: &argument) { bytes throws(SystemError) in
      try retryingInterrupts(call) { splashd_ioctl_pointer(rawValue, request, bytes.baseAddress) }
    }
  }

  /// An ioctl that fills a buffer of `count` bytes, which it returns.
  public func control(_ request: UInt, filling count: Int, call: String) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemError) in
        try retryingInterrupts(call) { splashd_ioctl_pointer(rawValue, request, buffer.baseAddress) }
      }
    }
    _ = try result.get()
    return bytes
  }

  /// An ioctl whose argument is a plain value; `call` names it in the error.
  @discardableResult
  public func control(_ request: UInt, value: UInt, call: String) throws(SystemError) -> Int32 {
    try retryingInterrupts(call) { splashd_ioctl_value(rawValue, request, value) }
  }

  public func close() throws(SystemError) {
    // close() must not be retried on EINTR: the descriptor is gone either way.
    if Glibc.close(rawValue) == -1 && errno != EINTR { throw SystemError("close", code: errno) }
  }
}

extension FileDescriptor {
  /// What a non-blocking read found.
  public enum ReadResult: Equatable {
    case bytes([UInt8])
    /// Nothing to read now.
    case wouldBlock
    /// The other end closed (or shut down) its writing side: end of file.
    case closed
    /// The read failed (a device that went away, a reset connection).
    case failed(SystemError)
  }

  /// Reads what is there, up to `limit` bytes, without blocking (the
  /// descriptor must be non-blocking, or known to be readable).
  public func readAvailable(limit: Int = 4096) -> ReadResult {
    var buffer = [UInt8](repeating: 0, count: limit)
    do {
      let count = try buffer.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) in try read(into: raw) }
      }.get()
      return count == 0 ? .closed : .bytes(Array(buffer[..<count]))
    } catch {
      return error.code == EAGAIN || error.code == EWOULDBLOCK ? .wouldBlock : .failed(error)
    }
  }
}

/// Runs `body` with standard error sent to /dev/null, for C libraries that
/// print their own diagnostics (libpng does) where splashd reports the
/// error itself in one line.
public func withStandardErrorSilenced<T>(_ body: () -> T) -> T {
  let saved = dup(2)
  let null = Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC)
  guard saved >= 0, null >= 0 else {
    if saved >= 0 { Glibc.close(saved) }
    if null >= 0 { Glibc.close(null) }
    return body()
  }
  _ = try? retryingInterrupts("dup2") { dup2(null, 2) }
  Glibc.close(null)
  defer {
    _ = try? retryingInterrupts("dup2") { dup2(saved, 2) }
    Glibc.close(saved)
  }
  return body()
}
