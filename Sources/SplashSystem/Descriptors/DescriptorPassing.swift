// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Descriptors sent along with bytes over a Unix socket (SCM_RIGHTS): how a
/// splashd hands its display to the one that adopts it.
extension FileDescriptor {
  /// Sends `bytes` with `descriptors` attached, without blocking or
  /// SIGPIPE; false when not all of it could be sent.
  public func sendWithDescriptors(_ bytes: [UInt8], _ descriptors: [FileDescriptor]) -> Bool {
    let raw = descriptors.map(\.rawValue)
    let sent = bytes.withUnsafeBytes { buffer in
      raw.withUnsafeBufferPointer {
        splashd_send_descriptors(rawValue, buffer.baseAddress, UInt(buffer.count), $0.baseAddress, Int32(raw.count))
      }
    }
    return sent == bytes.count
  }

  /// Receives what one message carries: up to `limit` bytes and the
  /// descriptors sent with them (close-on-exec). Blocks as the socket does
  /// (see `UnixSocket.connect(to:timeout:)`); empty bytes when the other
  /// end closed.
  public func receiveWithDescriptors(upTo limit: Int) throws(SystemError) -> (
    bytes: [UInt8], descriptors: [FileDescriptor]
  ) {
    var bytes = [UInt8](repeating: 0, count: limit)
    var passed = [Int32](repeating: -1, count: Int(SPLASHD_MAX_PASSED_DESCRIPTORS))
    var count: Int32 = 0
    let received = try retryingInterrupts("recvmsg") { () -> Int in
      bytes.withUnsafeMutableBytes { buffer in
        passed.withUnsafeMutableBufferPointer {
          splashd_receive_descriptors(rawValue, buffer.baseAddress, UInt(limit), $0.baseAddress, &count)
        }
      }
    }
    return (Array(bytes[..<received]), passed[..<Int(count)].map { FileDescriptor(rawValue: $0) })
  }
}

extension UnixSocket {
  /// The process id of the process at the other end of `connection`, as it
  /// was when it connected or listened (SO_PEERCRED).
  public static func peerProcess(of connection: FileDescriptor) -> pid_t? {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    return splashd_peer(connection.rawValue, &pid, &uid) == 0 && pid > 0 ? pid : nil
  }
}

/// Waits, at most until `deadline` on `clock`, for process `pid` (not a
/// child) to end; true once it has (or it was gone already). On a kernel
/// without pidfd_open (before Linux 5.3) it is looked at in /proc every
/// 20 ms.
public func awaitEnd(ofProcess pid: pid_t, until deadline: Double, clock: EventClock) -> Bool {
  let fd = pidfd_open(pid, 0)
  guard fd >= 0 else {
    guard errno == ENOSYS else { return errno == ESRCH }
    var nothing: [pollfd] = []
    while Processes.isRunning(pid) {
      guard clock.now() < deadline else { return false }
      _ = clock.poll(&nothing, until: min(deadline, clock.now() + 0.02))
    }
    return true
  }
  defer { Glibc.close(fd) }
  var watched = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
  while clock.now() < deadline {
    if clock.poll(&watched, until: deadline) { return true }
  }
  return false
}
