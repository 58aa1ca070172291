// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// The receiving end of systemd's notify protocol, for a program splashd
/// starts itself: an abstract datagram socket whose name goes into the
/// program's NOTIFY_SOCKET.
public final class NotifyListener {
  public let descriptor: FileDescriptor
  /// The value for NOTIFY_SOCKET (`@splashd/<pid>/notify-<fd>`: the
  /// descriptor keeps listeners open at once in one process apart).
  public let name: String

  public init() throws(SystemError) {
    let fd = socket(
      AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw SystemError("socket", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
    name = "@splashd/\(getpid())/notify-\(fd)"
    guard let (address, length) = unixAddress(name) else {
      try? descriptor.close()
      throw SystemError("socket \(name)", code: ENAMETOOLONG)
    }
    guard withSocketAddress(address, { bind(fd, $0, length) }) == 0 else {
      let error = SystemError("bind \(name)", code: errno)
      try? descriptor.close()
      throw error
    }
  }

  deinit { try? descriptor.close() }

  /// The assignments ("READY=1", "STATUS=…") of every datagram waiting.
  public func received() -> [String] {
    var lines: [String] = []
    while case .bytes(let datagram) = descriptor.readAvailable() {
      lines += String(decoding: datagram, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    return lines
  }
}
