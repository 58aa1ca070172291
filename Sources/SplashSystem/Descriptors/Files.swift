// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashCore

/// What kind of thing a path names.
public enum FileKind: Equatable, Sendable {
  case regular(size: Int)
  case directory
  case other
}

/// Facts about paths and the file system.
public enum Files {
  /// Whether `path` is a symbolic link itself (not followed).
  public static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  /// What `path` names, following symbolic links.
  public static func kind(of path: String) throws(SystemError) -> FileKind {
    var info = stat()
    try retryingInterrupts("stat \(path)") { stat(path, &info) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular(size: Int(info.st_size))
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// What tells the regular file at `path` from any other and from its own
  /// earlier contents: its device, inode, size and modification time, and a
  /// hash of its first and last `edge` bytes (a file rewritten within the
  /// same second by a tool that keeps the time still changes it).
  public static func identity(of path: String, edge: Int = 64 << 10) throws(SystemError) -> String {
    let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    defer { try? fd.close() }
    let info = try fd.status()
    guard info.st_mode & S_IFMT == S_IFREG else { throw SystemError(path, code: EINVAL, reason: "not a regular file") }
    let size = Int(info.st_size)
    var hash = StableHash()
    try fd.read(at: 0, count: min(size, edge)).withUnsafeBytes { hash.addWords($0) }
    if size > edge { try fd.read(at: max(edge, size - edge), count: edge).withUnsafeBytes { hash.addWords($0) } }
    return "dev \(info.st_dev) inode \(info.st_ino) size \(size) mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
      + "edges \(hash.hex)"
  }

  /// Whether `path` exists (following symbolic links).
  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Reads up to `count` bytes from the start of the regular file at
  /// `path` (sysfs and /proc files are regular); anything else is refused
  /// without blocking: a FIFO or a device, whose open or reads might never
  /// end.
  public static func readPrefix(of path: String, count: Int) throws(SystemError) -> [UInt8] {
    let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
    defer { try? fd.close() }
    guard try fd.status().st_mode & S_IFMT == S_IFREG else {
      throw SystemError(path, code: EINVAL, reason: "is not a regular file")
    }
    return try fd.read(upTo: count)
  }

  /// All of the regular file at `path`, which may hold at most `limit`
  /// bytes. Anything else is refused without blocking: a directory, a FIFO
  /// or a device (whose reads might never end), a larger file.
  public static func readRegularFile(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
    func refuse(_ code: Int32, _ reason: String) -> SystemError { SystemError(path, code: code, reason: reason) }
    func check(_ info: stat) throws(SystemError) {
      switch info.st_mode & S_IFMT {
      case S_IFREG: break
      case S_IFDIR: throw refuse(EISDIR, "is a directory")
      default: throw refuse(EINVAL, "is not a regular file")
      }
      if Int(info.st_size) > limit { throw refuse(EFBIG, "is larger than \(byteCount(limit))") }
    }
    var info = stat()
    try retryingInterrupts("stat \(path)") { stat(path, &info) }
    try check(info)
    // Opened without blocking and checked again: the path may have changed meanwhile.
    let fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
    defer { try? fd.close() }
    try check(try fd.status())
    // One byte more than allowed shows a file that grew meanwhile.
    let bytes = try fd.read(upTo: limit + 1)
    if bytes.count > limit { throw refuse(EFBIG, "is larger than \(byteCount(limit))") }
    return bytes
  }

  /// The text of the (small) file at `path`, up to 64 KiB.
  public static func readText(_ path: String) throws(SystemError) -> String {
    String(decoding: try readPrefix(of: path, count: 65536), as: UTF8.self)
  }

  /// The names in the directory at `path`, without "." and "..".
  public static func entries(of path: String) throws(SystemError) -> [String] {
    guard let directory = opendir(path) else { throw SystemError("opendir \(path)", code: errno) }
    defer { closedir(directory) }
    var names: [String] = []
    let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name)!
    while let entry = readdir(directory) {
      // Read up to the name's NUL only: an entry is d_reclen long, which may
      // end before sizeof(dirent) (copying the whole d_name array read past
      // readdir's buffer: AddressSanitizer).
      let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Writes `text` to `path`, replacing it.
  public static func write(_ text: String, to path: String) throws(SystemError) {
    try write(Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path`, replacing it; any failure (a full disk
  /// included, which some file systems report only when the file is
  /// closed) is an error.
  public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
    try write(to: path) { fd throws(SystemError) in try fd.writeAll(bytes) }
  }

  /// Writes what `body` writes to the descriptor it is given into `path`,
  /// replacing it (made with `mode`); any failure, a full disk included, is
  /// an error.
  public static func write(
    to path: String, mode: mode_t = 0o644, _ body: (FileDescriptor) throws(SystemError) -> Void
  ) throws(SystemError) {
    let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
    do {
      try body(fd)
    } catch {
      try? fd.close()
      throw error
    }
    try fd.close()
  }

  /// Replaces `path` with `bytes` at once: written beside it, then renamed
  /// over it, so that a reader (or a crash) never sees half a file.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SystemError) {
    try writeAtomically(to: path) { fd throws(SystemError) in try fd.writeAll(bytes) }
  }

  /// Replaces `path` at once with what `body` writes: written beside it
  /// (under a name of this process's), then renamed over it, so that a
  /// reader (or a crash) never sees half a file. Only a regular file, or
  /// nothing, is replaced: a device, a directory, a FIFO or a link at `path`
  /// is left alone (an error). The file beside it is made new, never opened
  /// through a link or over another's file.
  public static func writeAtomically(
    to path: String, mode: mode_t = 0o644, _ body: (FileDescriptor) throws(SystemError) -> Void
  ) throws(SystemError) {
    var found = stat()
    if lstat(path, &found) == 0 && found.st_mode & S_IFMT != S_IFREG {
      throw SystemError(path, code: EEXIST, reason: "is not a regular file; it is left alone")
    }
    let temporary = "\(path).new-\(getpid())"
    // One left by a process of this id that was killed (never followed).
    unlink(temporary)
    let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
    do {
      try body(fd)
    } catch {
      try? fd.close()
      remove(temporary)
      throw error
    }
    do {
      try fd.close()
      try retryingInterrupts("rename \(temporary)") { rename(temporary, path) }
    } catch {
      remove(temporary)
      throw error
    }
  }

  /// Creates `path` and any missing parents, like `mkdir -p`.
  public static func makeDirectories(_ path: String) throws(SystemError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) == -1 && errno != EEXIST { throw SystemError("mkdir \(prefix)", code: errno) }
      prefix += "/"
    }
    guard case .directory = try kind(of: path) else { throw SystemError("mkdir \(path)", code: ENOTDIR) }
  }

  /// Why the folder at `path` cannot be trusted with this process's files
  /// (another user could replace them, or plant links for it to write
  /// through): not a directory, not owned by this process's user or root, or
  /// writable by its group or by others; nil when it can.
  public static func distrust(folder path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return SystemError("stat", code: errno).phrase }
    guard info.st_mode & S_IFMT == S_IFDIR else { return "not a directory" }
    guard info.st_uid == geteuid() || info.st_uid == 0 else { return "owned by uid \(info.st_uid): not used" }
    guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return "writable by others: not used" }
    return nil
  }

  /// Removes the file at `path`, if there is one.
  public static func remove(_ path: String) {
    unlink(path)
  }

  /// Runs `body` with this thread's file accesses made as `owner` (its
  /// filesystem user and group ids: what it opens, makes and may reach is
  /// that user's, nothing else of the process changes), then as the
  /// process's own again; without an owner, as the process's own.
  public static func accessing<Result>(
    as owner: (uid: uid_t, gid: gid_t)?, _ body: () throws(SystemError) -> Result
  ) throws(SystemError) -> Result {
    guard let owner else { return try body() }
    setfsgid(owner.gid)
    setfsuid(owner.uid)
    defer {
      setfsuid(geteuid())
      setfsgid(getegid())
    }
    guard setfsuid(uid_t.max) == owner.uid else { throw SystemError("setfsuid \(owner.uid)", code: EPERM) }
    return try body()
  }

  /// The lock file at `path`, made when missing (mode 0660), locked
  /// (flock, exclusive) while the descriptor stays open; an error when
  /// another process holds it, or when what is there is not a regular
  /// file (it is left alone). No link is followed, and a FIFO put there
  /// cannot hold the open.
  public static func lockExclusively(_ path: String) throws(SystemError) -> FileDescriptor {
    let lock = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, mode: 0o660)
    do throws(SystemError) {
      let found = try lock.status()
      guard found.st_mode & S_IFMT == S_IFREG else {
        throw SystemError(path, code: EEXIST, reason: "is not a regular file; it is left alone")
      }
      guard flock(lock.rawValue, LOCK_EX | LOCK_NB) == 0 else { throw SystemError("flock \(path)", code: errno) }
      return lock
    } catch {
      try? lock.close()
      throw error
    }
  }

  /// The directory part of `path` (`.` when it has none).
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The last part of `path` (all of it when it has no slash).
  public static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// The canonical absolute path of `path`, with links resolved.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The path of the running executable.
  public static func executablePath() -> String? {
    if let path = realPath("/proc/self/exe") { return path }
    // Without /proc (a chroot, as update-initramfs may run in): the name the
    // kernel exec'd, from the auxiliary vector.
    guard let name = splashd_exec_name() else { return nil }
    return realPath(String(cString: name))
  }
}

/// `count` bytes for people: "512 bytes", "64 KiB", "1 MiB".
public func byteCount(_ count: Int) -> String {
  if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
  if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
  return "\(count) bytes"
}

/// The process environment.
public enum Environment {
  /// The value of `name`, or nil when it is unset.
  public static func value(_ name: String) -> String? {
    guard let raw = getenv(name) else { return nil }
    return String(cString: raw)
  }

  /// Every variable, by name.
  public static func all() -> [String: String] {
    var variables: [String: String] = [:]
    var entry = environ
    while let pair = entry.pointee {
      // Split at the byte, not by characters: a start reads every variable.
      if let equals = strchr(pair, Int32(UInt8(ascii: "="))) {
        let name = UnsafeRawBufferPointer(start: pair, count: pair.distance(to: equals))
        variables[String(decoding: name, as: UTF8.self)] = String(cString: equals + 1)
      }
      entry += 1
    }
    return variables
  }

  /// Sets `name` to `value` in this process's environment.
  public static func set(_ name: String, _ value: String) {
    setenv(name, value, 1)
  }

  /// `variables` as execve takes them: "NAME=VALUE" strings (malloc'd: the
  /// caller frees them), in order by name, then a NULL.
  public static func cStrings(_ variables: [String: String]) -> [UnsafeMutablePointer<CChar>?] {
    variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
  }
}
