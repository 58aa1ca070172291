// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A pipe a child writes into (its standard error), whose reading end
/// splashd drains without blocking and forwards, unchanged, to
/// `destination` (its own standard error: the journal under systemd),
/// never blocking on it: what a full destination cannot take at once is
/// dropped and counted, not waited for. Its buffer is made large (1 MiB
/// where the kernel allows) so that the child does not wait on splashd
/// between two turns of its loop.
public final class ForwardedPipe {
  /// Where splashd reads (non-blocking, close-on-exec).
  public let readEnd: FileDescriptor
  /// What the child gets as its standard error (close-on-exec here; a
  /// spawn makes it the child's descriptor 2). Kept open for each start.
  public let writeEnd: FileDescriptor
  /// Where what is read goes.
  private let destination: FileDescriptor
  /// Whether the destination is a socket (the journal's stream): sent with
  /// MSG_DONTWAIT; else written once poll says there is room.
  private let destinationIsSocket: Bool
  /// Bytes read from the child, forwarded, and dropped (the destination
  /// was full).
  public private(set) var read = 0
  public private(set) var forwarded = 0
  public private(set) var dropped = 0

  /// The pipe's size asked of the kernel.
  public static let bufferSize: Int32 = 1 << 20
  /// F_SETPIPE_SZ (Linux's, which Glibc's module leaves out).
  private static let setPipeSize: Int32 = 1031
  /// PIPE_BUF: what a pipe with room takes at once.
  private static let atomicWrite = 4096

  /// A pipe whose reads go to `destination`.
  public init(forwardingTo destination: FileDescriptor = .standardError) throws(SystemError) {
    var ends: [Int32] = [0, 0]
    guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SystemError("pipe2", code: errno) }
    readEnd = FileDescriptor(rawValue: ends[0])
    writeEnd = FileDescriptor(rawValue: ends[1])
    let flags = fcntl(ends[0], F_GETFL)
    _ = fcntl(ends[0], F_SETFL, flags | O_NONBLOCK)
    // Larger where allowed (/proc/sys/fs/pipe-max-size for others than root).
    _ = fcntl(ends[1], Self.setPipeSize, Self.bufferSize)
    self.destination = destination
    var info = stat()
    destinationIsSocket = fstat(destination.rawValue, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
  }

  deinit {
    try? readEnd.close()
    try? writeEnd.close()
  }

  /// Reads what the pipe holds now (at most `limit` bytes, the rest left
  /// for the next call), forwards it, and hands each piece to `take`.
  /// False once nothing more can come (end of file, an error).
  @discardableResult
  public func drain(limit: Int = 256 * 1024, _ take: (UnsafeRawBufferPointer) -> Void) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16384)
    var total = 0
    while total < limit {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd.rawValue, $0.baseAddress, $0.count) }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        return code == EAGAIN || code == EWOULDBLOCK
      }
      if count == 0 { return false }
      total += count
      read += count
      buffer.withUnsafeBytes { bytes in
        let piece = UnsafeRawBufferPointer(rebasing: bytes[..<count])
        forward(piece)
        take(piece)
      }
    }
    return true
  }

  /// Writes `bytes` to the destination as far as it takes them now.
  private func forward(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let rest = bytes.count - offset
      var written: Int
      if destinationIsSocket {
        written = send(destination.rawValue, bytes.baseAddress! + offset, rest, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      } else {
        var room = pollfd(fd: destination.rawValue, events: Int16(POLLOUT), revents: 0)
        guard poll(&room, 1, 0) == 1, room.revents & Int16(POLLOUT) != 0 else { break }
        // A pipe with room takes PIPE_BUF bytes without blocking.
        written = Glibc.write(destination.rawValue, bytes.baseAddress! + offset, min(rest, Self.atomicWrite))
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { break }
      offset += written
    }
    forwarded += offset
    dropped += bytes.count - offset
  }
}
