// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// The user (and group) the program runs as (`[handoff] user`), looked up
/// in the system's user database: its ids and supplementary groups, its
/// home and shell, and the runtime directory made for it.
public struct ProgramUser: Equatable, Sendable {
  public let name: String
  public let uid: uid_t
  public let gid: gid_t
  /// Its supplementary groups (the user's, from the group database).
  public let groups: [gid_t]
  public let home: String
  public let shell: String

  /// Looks up `name` (a user name or a number) and, given `group`, the
  /// group it runs as instead of its own.
  public static func lookUp(_ name: String, group: String? = nil) throws(SystemError) -> ProgramUser {
    guard let entry = getpwnam(name) ?? UInt32(name).flatMap({ getpwuid($0) }) else {
      throw SystemError("user \(name)", code: ENOENT, reason: "no such user")
    }
    let user = entry.pointee
    let userName = String(cString: user.pw_name)
    var gid = user.pw_gid
    if let group {
      guard let groupEntry = getgrnam(group) ?? UInt32(group).flatMap({ getgrgid($0) }) else {
        throw SystemError("group \(group)", code: ENOENT, reason: "no such group")
      }
      gid = groupEntry.pointee.gr_gid
    }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    while getgrouplist(user.pw_name, gid, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
    }
    return ProgramUser(
      name: userName, uid: user.pw_uid, gid: gid, groups: Array(groups.prefix(Int(count))),
      home: String(cString: user.pw_dir), shell: String(cString: user.pw_shell))
  }

  /// The name the user database gives `uid`; nil when it knows none.
  public static func name(of uid: uid_t) -> String? {
    guard let entry = getpwuid(uid) else { return nil }
    return String(cString: entry.pointee.pw_name)
  }

  /// The user splashd runs as: from the user database, or its bare ids
  /// where the database does not know it (an initramfs has none).
  public static func running() -> ProgramUser {
    let (uid, gid) = (getuid(), getgid())
    guard let entry = getpwuid(uid) else {
      return ProgramUser(name: String(uid), uid: uid, gid: gid, groups: [], home: "/", shell: "/bin/sh")
    }
    let user = entry.pointee
    return ProgramUser(
      name: String(cString: user.pw_name), uid: uid, gid: gid, groups: [], home: String(cString: user.pw_dir),
      shell: String(cString: user.pw_shell))
  }

  /// The user's runtime directory, /run/user/UID, as logind makes it: made
  /// when missing (0700, the user's); one there that is not the user's own
  /// directory, or that others may enter, is refused.
  public func runtimeDirectory(under root: String = "/run/user") throws(SystemError) -> String {
    let path = "\(root)/\(uid)"
    var info = stat()
    if lstat(path, &info) != 0 {
      guard errno == ENOENT else { throw SystemError("stat \(path)", code: errno) }
      try Files.makeDirectories(root)
      guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw SystemError("mkdir \(path)", code: errno) }
      // Given away on the directory itself, opened without following a link.
      let directory = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
      defer { try? directory.close() }
      guard fchown(directory.rawValue, uid, gid) == 0, fchmod(directory.rawValue, 0o700) == 0 else {
        throw SystemError("chown \(path)", code: errno)
      }
      guard lstat(path, &info) == 0 else { throw SystemError("stat \(path)", code: errno) }
    }
    guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == uid, info.st_mode & 0o077 == 0 else {
      throw SystemError(path, code: EACCES, reason: "is not \(name)'s own runtime directory")
    }
    return path
  }

  /// What the program's environment says of its user: HOME, USER, LOGNAME,
  /// SHELL, and XDG_RUNTIME_DIR as `runtimeDirectory`.
  public func environment(runtimeDirectory: String) -> [String: String] {
    ["HOME": home, "USER": name, "LOGNAME": name, "SHELL": shell, "XDG_RUNTIME_DIR": runtimeDirectory]
  }

  /// Makes this thread the user (its groups, its group, its uid); for
  /// just before execve, which keeps them.
  public func become() throws(SystemError) {
    let result = groups.withUnsafeBufferPointer { splashd_become(uid, gid, Int32($0.count), $0.baseAddress) }
    guard result == 0 else { throw SystemError("setresuid \(name)", code: errno) }
  }
}
