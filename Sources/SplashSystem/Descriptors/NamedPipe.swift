// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A FIFO splashd reads, as psplash's writers expect one: opened without
/// blocking, and held open for writing by splashd itself too, so that it
/// never reads an end of file when the last writer closes (a writer that
/// opens it with O_NONBLOCK then finds a reader, whenever it comes).
public struct NamedPipe {
  /// Readable when a writer has written.
  public let reader: FileDescriptor
  /// splashd's own writing end, never written to.
  private let keeper: FileDescriptor
  /// Whether the FIFO was made here (and is splashd's to remove).
  public let made: Bool

  /// Opens the FIFO at `path` for reading, making it when missing: only its
  /// owner may write to it (0600), or, given `groupName`, that group too
  /// (0660), the mode and group set on the opened FIFO itself. A file there
  /// that is not a FIFO (a symbolic link included) is refused and left as it
  /// is (EEXIST); so is a FIFO of another user's, or one that others (or a
  /// group but the control group) may write: their commands would steer the
  /// splash (EACCES). A FIFO another program reads is refused (EADDRINUSE):
  /// it is that program's.
  public init(at path: String, groupName: String?) throws(SystemError) {
    var group: gid_t?
    if let groupName {
      guard let entry = getgrnam(groupName) else { throw SystemError("group \(groupName)", code: ENOENT) }
      group = entry.pointee.gr_gid
    }
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFIFO else {
        throw SystemError(path, code: EEXIST, reason: "is there and is not a FIFO; it is left as it is")
      }
      if let distrust = Self.distrust(info, group: group) { throw SystemError(path, code: EACCES, reason: distrust) }
      // A writer's open succeeds only when a reader has the FIFO open.
      let probe = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if probe >= 0 {
        Glibc.close(probe)
        throw SystemError(path, code: EADDRINUSE, reason: "another program reads this FIFO")
      }
      made = false
    } else {
      guard errno == ENOENT else { throw SystemError("stat \(path)", code: errno) }
      // Made for its owner at most (the umask can only take away); the
      // process's umask is left alone.
      guard mkfifo(path, 0o600) == 0 else { throw SystemError("mkfifo \(path)", code: errno) }
      made = true
    }
    let readFD = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard readFD >= 0 else {
      let error = SystemError("open \(path)", code: errno)
      if made { unlink(path) }
      throw error
    }
    let reader = FileDescriptor(rawValue: readFD)
    let madeHere = made
    func fail(_ error: SystemError) -> SystemError {
      try? reader.close()
      if madeHere { unlink(path) }
      return error
    }
    // What was opened must be the FIFO checked (or made) above, not
    // something put there since; its group and mode are set on it, not on
    // whatever the path names by then.
    guard let opened = try? reader.status(), opened.st_mode & S_IFMT == S_IFIFO else {
      throw fail(SystemError(path, code: EEXIST, reason: "changed into something that is not a FIFO"))
    }
    if made {
      if let group, fchown(readFD, uid_t.max, group) != 0 { throw fail(SystemError("chown \(path)", code: errno)) }
      guard fchmod(readFD, group == nil ? 0o600 : 0o660) == 0 else {
        throw fail(SystemError("chmod \(path)", code: errno))
      }
    } else if let distrust = Self.distrust(opened, group: group) {
      throw fail(SystemError(path, code: EACCES, reason: distrust))
    }
    let writeFD = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard writeFD >= 0 else { throw fail(SystemError("open \(path)", code: errno)) }
    self.reader = reader
    keeper = FileDescriptor(rawValue: writeFD)
  }

  /// Why a FIFO found with `info` may not steer the splash: owned by
  /// another user than this process's (or root), or writable by others, or
  /// by a group other than `group`; nil when it may.
  private static func distrust(_ info: stat, group: gid_t?) -> String? {
    if info.st_uid != geteuid() && info.st_uid != 0 {
      return "is a FIFO of uid \(info.st_uid)'s; it is not used (anybody who made it could steer the splash)"
    }
    if info.st_mode & S_IWOTH != 0 || (info.st_mode & S_IWGRP != 0 && info.st_gid != group) {
      return "is a FIFO others may write; it is not used"
    }
    return nil
  }

  /// Closes both ends.
  public func close() {
    try? reader.close()
    try? keeper.close()
  }
}
