// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Waits for a path to come into existence, with inotify rather than
/// polling: it watches the deepest directory on the way to the path that
/// exists, and moves its watch down as directories appear.
public final class PathWatch {
  public let path: String
  /// Readable when something changed in the watched directory.
  public let descriptor: FileDescriptor
  private var watched: Int32 = -1

  public init(path: String) throws(SystemError) {
    self.path = path
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw SystemError("inotify_init1", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
  }

  deinit { try? descriptor.close() }

  /// Whether the path exists now. When it does not, the watch is (re)armed
  /// on its deepest existing ancestor first, so that no creation between
  /// the check and the wait can be missed.
  public func exists() -> Bool {
    var directory = Files.directory(of: path)
    while !Files.exists(directory) && directory != "/" && directory != "." {
      directory = Files.directory(of: directory)
    }
    let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
    let wd = inotify_add_watch(descriptor.rawValue, directory, mask)
    if wd >= 0 && wd != watched {
      if watched >= 0 { inotify_rm_watch(descriptor.rawValue, watched) }
      watched = wd
    }
    return Files.exists(path)
  }

  /// Reads and discards the pending events.
  public func drain() {
    while case .bytes = descriptor.readAvailable() {}
  }
}
