import Glibc

/// An open file descriptor, closed explicitly by its owner.
public struct FileDescriptor: Equatable, Sendable {
  public let rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let standardError = FileDescriptor(rawValue: 2)
  public static let standardOutput = FileDescriptor(rawValue: 1)

  /// Opens `path` with `flags` (O_… constants); O_CLOEXEC is always added.
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
    let fd = try retryingInterrupts("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    return FileDescriptor(rawValue: fd)
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

  /// Whether reading would not block now (data, end of file or an error waiting).
  public func isReadable() -> Bool {
    var polled = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&polled, 1, 0) > 0
  }

  public func close() throws(SystemError) {
    // close() must not be retried on EINTR: the descriptor is gone either way.
    if Glibc.close(rawValue) == -1 && errno != EINTR { throw SystemError("close", code: errno) }
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
