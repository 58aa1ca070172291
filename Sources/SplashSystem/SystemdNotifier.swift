import Glibc

/// systemd's notify protocol: state lines ("READY=1", "STATUS=…") sent as a
/// datagram to the socket named by NOTIFY_SOCKET.
public final class SystemdNotifier {
  private let socket: Int32
  private var address = sockaddr_un()
  private let addressLength: socklen_t

  /// Nil when `socketPath` (NOTIFY_SOCKET's value) is unset, empty or too
  /// long. A leading `@` names an abstract socket.
  public init?(socketPath: String?) {
    guard let socketPath, !socketPath.isEmpty else { return nil }
    var bytes = Array(socketPath.utf8)
    let abstract = bytes.first == UInt8(ascii: "@")
    if abstract { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return nil }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { path in
      for (index, byte) in bytes.enumerated() { path[index] = byte }
    }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    addressLength = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
    socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
  }

  deinit { close(socket) }

  /// Sends `state` (newline-separated assignments); failures are ignored,
  /// as systemd's own sd_notify callers do.
  public func send(_ state: String) {
    var bytes = Array(state.utf8)
    _ = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        sendto(socket, &bytes, bytes.count, Int32(MSG_NOSIGNAL), address, addressLength)
      }
    }
  }
}

extension FileDescriptor {
  /// "device:inode" of the open file, in the form of systemd's JOURNAL_STREAM.
  public func deviceAndInode() -> String? {
    var info = stat()
    guard fstat(rawValue, &info) == 0 else { return nil }
    return "\(info.st_dev):\(info.st_ino)"
  }
}
