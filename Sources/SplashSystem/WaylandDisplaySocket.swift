// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A Wayland display's listening socket in a runtime directory, claimed the
/// way libwayland's servers claim theirs, so that splashd and other
/// compositors (cage, weston) share a directory without taking each
/// other's: `wayland-N`, the first N whose lock file `wayland-N.lock` this
/// process can lock (flock), a socket left at that name by a server that is
/// gone replaced. Unlike libwayland's, it is safe in a directory another
/// user owns (the kiosk program's, while splashd runs as root): the files
/// are opened and made as that user (the thread's filesystem ids), so that
/// nothing the user could not reach already is touched and nothing is given
/// away afterwards; no link is followed, nothing but a regular file is
/// taken as a lock and nothing but a socket is replaced; the socket is its
/// maker's alone (mode 0600).
public struct WaylandDisplaySocket {
  /// The display's name, as WAYLAND_DISPLAY gives it (`wayland-0`).
  public let name: String
  /// Where the socket is.
  public let path: String
  /// The socket, bound and listening (close-on-exec).
  public let listener: FileDescriptor
  /// The lock file, locked while this process lives.
  private let lock: FileDescriptor

  /// The most displays looked at (wayland-0 … wayland-31, as libwayland).
  public static let candidates = 32

  /// Claims the first free `wayland-N` in `directory` and listens there,
  /// the socket given to `owner` (user, group) when one is given; an
  /// error naming the directory when none of the names can be had.
  public static func claim(in directory: String, owner: (uid: uid_t, gid: gid_t)? = nil) throws(SystemError)
    -> WaylandDisplaySocket
  {
    if let owner {
      // This thread's file accesses are the owner's until the end.
      setfsgid(owner.gid)
      setfsuid(owner.uid)
      guard setfsuid(uid_t.max) == owner.uid else {
        setfsgid(getegid())
        throw SystemError("setfsuid \(owner.uid)", code: EPERM)
      }
    }
    defer {
      if owner != nil {
        setfsuid(geteuid())
        setfsgid(getegid())
      }
    }
    var reasons: [String] = []
    for number in 0..<candidates {
      let name = "wayland-\(number)"
      let path = directory + "/" + name
      guard let lock = lockFile(path + ".lock", reasons: &reasons) else { continue }
      do throws(SystemError) {
        let listener = try listen(at: path)
        return WaylandDisplaySocket(name: name, path: path, listener: listener, lock: lock)
      } catch {
        reasons.append(error.phrase)
        try? lock.close()
      }
    }
    let why = reasons.last.map { ": " + $0 } ?? ""
    throw SystemError(
      "wayland socket", code: EADDRINUSE,
      reason: "no free wayland-0 … wayland-\(candidates - 1) in \(directory)\(why)")
  }

  /// The lock of one name, locked; nil (with the reason kept) when another
  /// server holds it or it is not a regular file of its own.
  private static func lockFile(_ path: String, reasons: inout [String]) -> FileDescriptor? {
    let lock: FileDescriptor
    do {
      // No link followed; O_NONBLOCK so that a FIFO put there cannot hold the open.
      lock = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, mode: 0o660)
    } catch {
      reasons.append(error.phrase)
      return nil
    }
    do throws(SystemError) {
      let found = try lock.status()
      guard found.st_mode & S_IFMT == S_IFREG else {
        throw SystemError(path, code: EEXIST, reason: "is not a regular file; it is left alone")
      }
      guard flock(lock.rawValue, LOCK_EX | LOCK_NB) == 0 else { throw SystemError("flock \(path)", code: errno) }
      return lock
    } catch {
      reasons.append(error.phrase)
      try? lock.close()
      return nil
    }
  }

  /// Listens at `path` (its lock held): a socket there is a gone server's
  /// and is replaced; anything else there is left alone (an error).
  private static func listen(at path: String) throws(SystemError) -> FileDescriptor {
    guard let (address, length) = unixAddress(path) else { throw SystemError("socket \(path)", code: ENAMETOOLONG) }
    var found = stat()
    if lstat(path, &found) == 0 {
      guard found.st_mode & S_IFMT == S_IFSOCK else {
        throw SystemError(path, code: EEXIST, reason: "exists and is not a socket; it is left alone")
      }
      unlink(path)
    }
    let descriptor = try UnixSocket.listeningSocket()
    let fd = descriptor.rawValue
    func fail(_ call: String, _ code: Int32) -> SystemError {
      try? descriptor.close()
      return SystemError("\(call) \(path)", code: code)
    }
    guard withSocketAddress(address, { bind(fd, $0, length) }) == 0 else { throw fail("bind", errno) }
    // Nobody can connect before listen, and connect checks the mode then;
    // a link put at the path meanwhile is not followed.
    guard fchmodat(AT_FDCWD, path, 0o600, AT_SYMLINK_NOFOLLOW) == 0 else { throw fail("chmod", errno) }
    guard Glibc.listen(fd, 128) == 0 else { throw fail("listen", errno) }
    return descriptor
  }

  /// Removes the socket and its lock file (the listener is its server's
  /// to close) and lets go of the lock.
  public func remove() {
    unlink(path)
    unlink(path + ".lock")
    try? lock.close()
  }
}
