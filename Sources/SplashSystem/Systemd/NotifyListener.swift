// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import Synchronization

/// The receiving end of systemd's notify protocol, for a program splashd
/// starts itself: an abstract datagram socket whose name goes into the
/// program's NOTIFY_SOCKET. Anybody may send to an abstract name, so each
/// datagram comes with its sender's process ID as the kernel saw it
/// (SO_PASSCRED), for the listener's owner to judge, as systemd judges
/// its own notify socket's.
public final class NotifyListener {
  public let descriptor: FileDescriptor
  /// The value for NOTIFY_SOCKET (`@splashd/<pid>/notify-<n>`, n counted
  /// up in the process: not the descriptor's number, which a closed
  /// listener gives back while a child forked meanwhile may still hold its
  /// socket, and with it the name).
  public let name: String
  private static let lastNumber = Atomic<Int>(0)

  public init() throws(SystemError) {
    let fd = socket(
      AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw SystemError("socket", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
    name = "@splashd/\(getpid())/notify-\(Self.lastNumber.add(1, ordering: .relaxed).newValue)"
    var on: Int32 = 1
    guard setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
      let error = SystemError("setsockopt SO_PASSCRED \(name)", code: errno)
      try? descriptor.close()
      throw error
    }
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

  /// A datagram: its sender's process and user (nil when the kernel gave
  /// none) and its assignments ("READY=1", "STATUS=…").
  public struct Datagram: Equatable, Sendable {
    public let sender: pid_t?
    public let user: uid_t?
    public let lines: [String]
  }

  /// The datagrams waiting, at most `limit` of them (the rest wait for the
  /// next turn).
  public func received(limit: Int = 64) -> [Datagram] {
    var datagrams: [Datagram] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while datagrams.count < limit {
      var pid: Int32 = 0
      var uid = uid_t.max
      let count = buffer.withUnsafeMutableBytes {
        splashd_receive_from(descriptor.rawValue, $0.baseAddress, 4096, &pid, &uid)
      }
      guard count >= 0 else {
        if errno == EINTR { continue }
        break
      }
      let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
      datagrams.append(Datagram(sender: pid > 0 ? pid : nil, user: uid == uid_t.max ? nil : uid, lines: lines))
    }
    return datagrams
  }
}
