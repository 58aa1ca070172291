// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A Unix socket address for `path` (a leading `@` names an abstract
/// socket), with its length; nil when the path is empty or too long.
func unixAddress(_ path: String) -> (address: sockaddr_un, length: socklen_t)? {
  var bytes = Array(path.utf8)
  guard !bytes.isEmpty else { return nil }
  let abstract = bytes.first == UInt8(ascii: "@")
  if abstract { bytes[0] = 0 }
  var address = sockaddr_un()
  guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { path in
    for (index, byte) in bytes.enumerated() { path[index] = byte }
  }
  let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
  return (address, socklen_t(offset + bytes.count + (abstract ? 0 : 1)))
}

/// Calls `body` with `address` as the `sockaddr` pointer the socket calls take.
func withSocketAddress<T>(_ address: sockaddr_un, _ body: (UnsafePointer<sockaddr>) -> T) -> T {
  withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
}

/// Unix stream sockets: a listener for splashd's control socket, and the
/// client end splashctl uses.
public enum UnixSocket {
  /// A Unix stream socket to bind and listen on: close-on-exec, and
  /// non-blocking, so that accepting never waits.
  static func listeningSocket() throws(SystemError) -> FileDescriptor {
    let fd = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw SystemError("socket", code: errno) }
    return FileDescriptor(rawValue: fd)
  }

  /// Listens at `path`: a socket file only its owner may use (mode 0600),
  /// or, given `groupName`, that group too (0660). A socket left there by a
  /// splashd that is gone (nobody answers) is replaced, and `replaced`
  /// says so; one that still answers is an error (EADDRINUSE), and so is
  /// anything there that is not a socket (EEXIST: a device, a file or a
  /// link is never removed).
  ///
  /// The file appears at `path` already listening with its final owner and
  /// mode: the socket is bound at a name of its own beside it (`path.TID~`,
  /// the calling thread's id, unique among live processes and threads, so
  /// that two splashds starting at once never touch each other's: with one
  /// shared name they could both end without a socket), made ready there
  /// and then hard-linked to `path`, which fails
  /// when another splashd got there first. A client that sees the file can
  /// connect at once, and no process-wide umask is changed on the way.
  public static func listen(at path: String, groupName: String?) throws(SystemError) -> (
    listener: FileDescriptor, replaced: Bool
  ) {
    let sideName = "\(path).\(splashd_thread_id())~"
    guard unixAddress(path) != nil, let (address, length) = unixAddress(sideName) else {
      throw SystemError("socket \(path)", code: ENAMETOOLONG)
    }
    var group: gid_t?
    if let groupName {
      guard let entry = getgrnam(groupName) else { throw SystemError("group \(groupName)", code: ENOENT) }
      group = entry.pointee.gr_gid
    }
    var replaced = false
    var found = stat()
    if lstat(path, &found) == 0 {
      // Only a socket nobody answers on is replaced; anything else there (a
      // device, a file, a link) is left alone.
      guard found.st_mode & S_IFMT == S_IFSOCK else {
        throw SystemError("bind \(path)", code: EEXIST, reason: "exists and is not a socket; it is left alone")
      }
      if let live = try? connect(to: path) {
        try? live.close()
        throw SystemError("bind \(path)", code: EADDRINUSE)
      }
      unlink(path)
      replaced = true
    }
    let descriptor = try listeningSocket()
    let fd = descriptor.rawValue
    func fail(_ call: String, _ code: Int32) -> SystemError {
      try? descriptor.close()
      unlink(sideName)
      return SystemError("\(call) \(path)", code: code)
    }
    // One left by a killed process whose id this thread reuses.
    unlink(sideName)
    guard withSocketAddress(address, { bind(fd, $0, length) }) == 0 else { throw fail("bind", errno) }
    // Nobody can connect before listen, and connect checks the mode then.
    if let group, chown(sideName, uid_t.max, group) != 0 { throw fail("chown", errno) }
    guard chmod(sideName, group == nil ? 0o600 : 0o660) == 0 else { throw fail("chmod", errno) }
    guard Glibc.listen(fd, 16) == 0 else { throw fail("listen", errno) }
    guard link(sideName, path) == 0 else { throw fail("bind", errno == EEXIST ? EADDRINUSE : errno) }
    unlink(sideName)
    return (descriptor, replaced)
  }

  /// Listens at `path`, a socket only its maker may use (mode 0600), for
  /// a server that holds the name's lock already (a socket left there by
  /// a server that is gone is replaced; anything else there is an error,
  /// EEXIST, and left alone). Between bind and listen nobody can connect,
  /// and the mode is set without following a link put at the path.
  public static func listenPrivately(at path: String) throws(SystemError) -> FileDescriptor {
    guard let (address, length) = unixAddress(path) else { throw SystemError("socket \(path)", code: ENAMETOOLONG) }
    var found = stat()
    if lstat(path, &found) == 0 {
      guard found.st_mode & S_IFMT == S_IFSOCK else {
        throw SystemError(path, code: EEXIST, reason: "exists and is not a socket; it is left alone")
      }
      unlink(path)
    }
    let descriptor = try listeningSocket()
    let fd = descriptor.rawValue
    func fail(_ call: String, _ code: Int32) -> SystemError {
      try? descriptor.close()
      return SystemError("\(call) \(path)", code: code)
    }
    guard withSocketAddress(address, { bind(fd, $0, length) }) == 0 else { throw fail("bind", errno) }
    guard fchmodat(AT_FDCWD, path, 0o600, AT_SYMLINK_NOFOLLOW) == 0 else { throw fail("chmod", errno) }
    guard Glibc.listen(fd, 128) == 0 else { throw fail("listen", errno) }
    return descriptor
  }

  /// Listens on the abstract socket `@name` (no file: the name lives in
  /// the network namespace); one that another program listens on is an
  /// error (EADDRINUSE).
  public static func listen(abstract name: String) throws(SystemError) -> FileDescriptor {
    guard let (address, length) = unixAddress("@" + name) else {
      throw SystemError("socket @\(name)", code: ENAMETOOLONG)
    }
    let descriptor = try listeningSocket()
    let fd = descriptor.rawValue
    guard withSocketAddress(address, { bind(fd, $0, length) }) == 0, Glibc.listen(fd, 16) == 0 else {
      let error = SystemError("bind @\(name)", code: errno)
      try? descriptor.close()
      throw error
    }
    return descriptor
  }

  /// The user id of the process at the other end of `connection` (SO_PEERCRED).
  public static func peerUser(of connection: FileDescriptor) -> uid_t? {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    return splashd_peer(connection.rawValue, &pid, &uid) == 0 ? uid : nil
  }

  /// What `accept` found.
  public enum Accepted {
    /// A client, connected (close-on-exec, non-blocking).
    case client(FileDescriptor)
    /// None waiting (or one that gave up before it was taken).
    case none
    /// One may be waiting, but there is no descriptor (or kernel memory)
    /// to take it into (EMFILE, ENFILE, ENOBUFS, ENOMEM: the code): the
    /// listener stays readable, and accepting again at once fails again.
    case outOfDescriptors(Int32)
  }

  /// Accepts one waiting client, non-blocking.
  public static func accept(_ listener: FileDescriptor) -> Accepted {
    let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    do {
      return .client(
        FileDescriptor(
          rawValue: try retryingInterrupts("accept4", { accept4(listener.rawValue, nil, nil, flags) })))
    } catch {
      switch error.code {
      case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors(error.code)
      default: return .none
      }
    }
  }

  /// Connects to the socket at `path` (blocking); with `timeout`, waiting
  /// at most that many seconds to connect and then for each read and write
  /// (SO_SNDTIMEO, SO_RCVTIMEO): a splashd that does not answer cannot hold
  /// up the one that asks.
  public static func connect(to path: String, timeout: Double? = nil) throws(SystemError) -> FileDescriptor {
    guard let (address, length) = unixAddress(path) else { throw SystemError("connect \(path)", code: ENAMETOOLONG) }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemError("socket", code: errno) }
    let descriptor = FileDescriptor(rawValue: fd)
    if let timeout {
      var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
      let size = socklen_t(MemoryLayout<timeval>.size)
      guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size) == 0,
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size) == 0
      else {
        let error = SystemError("setsockopt \(path)", code: errno)
        try? descriptor.close()
        throw error
      }
    }
    let connected = try? retryingInterrupts("connect \(path)") {
      withSocketAddress(address) { Glibc.connect(fd, $0, length) }
    }
    guard connected != nil else {
      let error = SystemError("connect \(path)", code: errno)
      try? descriptor.close()
      throw error
    }
    return descriptor
  }
}

extension FileDescriptor {
  /// Sends `text` on a socket without blocking or raising SIGPIPE; false
  /// when it could not all be sent.
  /// Sends as much of `bytes` as the socket takes now; returns how many
  /// (0 when it is full), nil when the connection failed.
  public func sendAvailable(_ bytes: ArraySlice<UInt8>) -> Int? {
    let sent = bytes.withUnsafeBytes {
      send(rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    }
    if sent >= 0 { return sent }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
  }

  public func sendWithoutBlocking(_ text: String) -> Bool {
    var bytes = Array(text.utf8)
    let sent = send(rawValue, &bytes, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    return sent == bytes.count
  }
}

/// A listener's pause while no descriptor can be had for a connection: it
/// is left out of the descriptors polled (still readable, it would wake
/// the loop at once, again and again) until `seconds` have passed or a
/// descriptor is given back (a client dropped); said once until no
/// connection waits any more.
public struct AcceptPause {
  /// How long accepting pauses.
  public static let seconds = 1.0
  /// When accepting is tried again; nil while it is not paused.
  public private(set) var until: Double?
  /// Whether accepting failed for want of a descriptor since no
  /// connection last waited.
  private var starved = false

  public init() {}

  /// Whether the listener is left out of the descriptors polled.
  public var isPaused: Bool { until != nil }

  /// Accepting failed for want of a descriptor at `now`: paused. True when
  /// it is news (to be said), false while it keeps failing.
  public mutating func pause(at now: Double) -> Bool {
    until = now + Self.seconds
    defer { starved = true }
    return !starved
  }

  /// No connection waits any more: a later shortage is news again.
  public mutating func caughtUp() { starved = false }

  /// Tries accepting again (the pause is over, or a descriptor was given back).
  public mutating func resume() { until = nil }
}
