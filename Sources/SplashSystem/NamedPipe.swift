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
  /// (0660). A file there that is not a FIFO (a symbolic link included) is
  /// refused and left as it is (EEXIST); a FIFO another program reads is
  /// refused (EADDRINUSE): it is that program's.
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
      // A writer's open succeeds only when a reader has the FIFO open.
      let probe = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if probe >= 0 {
        Glibc.close(probe)
        throw SystemError(path, code: EADDRINUSE, reason: "another program reads this FIFO")
      }
      made = false
    } else {
      guard errno == ENOENT else { throw SystemError("stat \(path)", code: errno) }
      // Made for its owner at most (the umask can only take away), then
      // opened up to exactly the mode; the process's umask is left alone.
      guard mkfifo(path, 0o600) == 0 else { throw SystemError("mkfifo \(path)", code: errno) }
      if let group, chown(path, uid_t.max, group) != 0 {
        let error = SystemError("chown \(path)", code: errno)
        unlink(path)
        throw error
      }
      guard chmod(path, group == nil ? 0o600 : 0o660) == 0 else {
        let error = SystemError("chmod \(path)", code: errno)
        unlink(path)
        throw error
      }
      made = true
    }
    let readFD = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard readFD >= 0 else { throw SystemError("open \(path)", code: errno) }
    reader = FileDescriptor(rawValue: readFD)
    // What was opened must be the FIFO checked above, not something put there since.
    guard let opened = try? reader.status(), opened.st_mode & S_IFMT == S_IFIFO else {
      try? reader.close()
      throw SystemError(path, code: EEXIST, reason: "changed into something that is not a FIFO")
    }
    let writeFD = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    guard writeFD >= 0 else {
      let error = SystemError("open \(path)", code: errno)
      try? reader.close()
      throw error
    }
    keeper = FileDescriptor(rawValue: writeFD)
  }

  /// Closes both ends.
  public func close() {
    try? reader.close()
    try? keeper.close()
  }
}
