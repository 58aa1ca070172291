// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// systemd's notify protocol: state lines ("READY=1", "STATUS=…") sent as a
/// datagram to the socket named by NOTIFY_SOCKET. The journal's native
/// protocol is the same in form (`FIELD=value` lines, a datagram an entry,
/// to /run/systemd/journal/socket), and is sent through it too.
public final class SystemdNotifier {
  private let socket: Int32
  private let address: sockaddr_un
  private let addressLength: socklen_t
  /// The socket a crash sends through (`sendOnCrash`), if any.
  private var crashSocket: Int32?

  /// Nil when `socketPath` (NOTIFY_SOCKET's value) is unset, empty or too
  /// long. A leading `@` names an abstract socket.
  public init?(socketPath: String?) {
    guard let socketPath, let (address, length) = unixAddress(socketPath) else { return nil }
    self.address = address
    addressLength = length
    socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
  }

  deinit {
    if let crashSocket {
      CrashHandOff.stopWriting(to: crashSocket)
      close(crashSocket)
    }
    close(socket)
  }

  /// From now on a crash sends `state` (at most 32 bytes), before the
  /// program takes splashd's place (`CrashHandOff`): through a socket of
  /// its own, connected now, so that the crash handler only writes to it
  /// (never waiting). False when it cannot be.
  @discardableResult
  public func sendOnCrash(_ state: String) -> Bool {
    guard crashSocket == nil else { return false }
    let connected = Glibc.socket(
      AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard connected >= 0 else { return false }
    guard withSocketAddress(address, { connect(connected, $0, addressLength) }) == 0,
      CrashHandOff.write(state, to: connected)
    else {
      close(connected)
      return false
    }
    crashSocket = connected
    return true
  }

  /// Sends `state` (newline-separated assignments); failures are ignored,
  /// as systemd's own sd_notify callers do. Never waits: a receiver whose
  /// queue is full (a datagram socket's holds a few) does not get it,
  /// rather than the run loop stalling on it.
  public func send(_ state: String) {
    var bytes = Array(state.utf8)
    _ = withSocketAddress(address) {
      sendto(socket, &bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, addressLength)
    }
  }
}

extension FileDescriptor {
  /// "device:inode" of the open file, in the form of systemd's JOURNAL_STREAM.
  public func deviceAndInode() -> String? {
    guard let info = try? status() else { return nil }
    return "\(info.st_dev):\(info.st_ino)"
  }

  /// Whether this is the kernel's log, /dev/kmsg (character device 1:11),
  /// which reads a `<N>` prefix as the line's priority, as the journal does.
  public var isKernelLog: Bool {
    guard let info = try? status(), info.st_mode & S_IFMT == S_IFCHR else { return false }
    // glibc's makedev(1, 11): major in bits 8-19, minor in 0-7 (and above 19).
    return info.st_rdev == (1 << 8) | 11
  }
}
