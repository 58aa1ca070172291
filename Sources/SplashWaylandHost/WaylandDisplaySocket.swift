// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem

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
    try Files.accessing(as: owner) { () throws(SystemError) in
      var reasons: [String] = []
      for number in 0..<candidates {
        let name = "wayland-\(number)"
        let path = directory + "/" + name
        let lock: FileDescriptor
        do throws(SystemError) {
          lock = try Files.lockExclusively(path + ".lock")
        } catch {
          reasons.append(error.phrase)
          continue
        }
        do throws(SystemError) {
          let listener = try UnixSocket.listenPrivately(at: path)
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
  }

  /// Removes the socket and its lock file (the listener is its server's
  /// to close) and lets go of the lock.
  public func remove() {
    Files.remove(path)
    Files.remove(path + ".lock")
    try? lock.close()
  }
}
