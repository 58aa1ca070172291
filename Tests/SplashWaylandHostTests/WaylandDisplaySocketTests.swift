// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashSystem
import SplashTestSupport
import SplashWaylandHost
import Testing

/// Host mode's listening socket, `wayland-N` in a runtime directory that
/// other compositors, and the program's user, share: claimed by the lock
/// files libwayland's servers use, nothing in the directory trusted.
@Suite struct WaylandDisplaySocketTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  /// Connects to `path`; true when something listens there.
  func answers(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    return withUnixAddress(path) { connect(fd, $0, $1) } == 0
  }

  func status(_ path: String) -> stat? {
    var found = stat()
    return lstat(path, &found) == 0 ? found : nil
  }

  /// The first free name, then the next while the first is held; a
  /// removed one is free again.
  @Test func eachClaimTakesTheFirstNameNobodyHolds() throws {
    let first = try WaylandDisplaySocket.claim(in: dir.path)
    let second = try WaylandDisplaySocket.claim(in: dir.path)
    #expect(first.name == "wayland-0" && second.name == "wayland-1")
    #expect(answers(first.path) && answers(second.path))
    first.remove()
    #expect(status(first.path) == nil && status(first.path + ".lock") == nil)
    let third = try WaylandDisplaySocket.claim(in: dir.path)
    #expect(third.name == "wayland-0")
    second.remove()
    third.remove()
  }

  /// A socket left by a server that is gone (its lock free) is replaced.
  @Test func aGoneServersSocketIsReplaced() throws {
    let path = dir.path + "/wayland-0"
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(withUnixAddress(path) { bind(stale, $0, $1) } == 0)
    close(stale)
    #expect(!answers(path))
    let claimed = try WaylandDisplaySocket.claim(in: dir.path)
    defer { claimed.remove() }
    #expect(claimed.name == "wayland-0" && answers(path))
  }

  /// What the program's user may have put in its own directory is never
  /// followed nor replaced: a link as the lock (its target neither made
  /// nor touched), a FIFO as the lock (which would hold an open), a file
  /// where the socket goes. Those names are passed over.
  @Test func linksFIFOsAndFilesInTheDirectoryAreLeftAlone() throws {
    let target = dir.path + "/elsewhere"
    #expect(symlink(target, dir.path + "/wayland-0.lock") == 0)
    #expect(mkfifo(dir.path + "/wayland-1.lock", 0o600) == 0)
    #expect(FileManager.default.createFile(atPath: dir.path + "/wayland-2", contents: Data("mine".utf8)))
    let claimed = try WaylandDisplaySocket.claim(in: dir.path)
    defer { claimed.remove() }
    #expect(claimed.name == "wayland-3")
    #expect(status(target) == nil, "the link was followed")
    #expect(status(dir.path + "/wayland-0.lock").map { $0.st_mode & S_IFMT == S_IFLNK } == true)
    #expect(status(dir.path + "/wayland-1.lock").map { $0.st_mode & S_IFMT == S_IFIFO } == true)
    #expect(FileManager.default.contents(atPath: dir.path + "/wayland-2") == Data("mine".utf8))
  }

  /// Given to the program's user: the socket is theirs, 0600, so that the
  /// program's children can connect and nobody else.
  @Test func theSocketIsTheOwnersAlone() throws {
    try #require(geteuid() == 0, "needs root to act as another user")
    // The user's own runtime directory.
    try #require(chown(dir.path, 65534, 65534) == 0)
    let claimed = try WaylandDisplaySocket.claim(in: dir.path, owner: (65534, 65534))
    defer { claimed.remove() }
    let found = try #require(status(claimed.path))
    #expect(found.st_mode & S_IFMT == S_IFSOCK && found.st_mode & 0o777 == 0o600)
    #expect(found.st_uid == 65534 && found.st_gid == 65534)
  }

  /// Run as root in the user's directory, the claim touches nothing the
  /// user could not: a hard link to a root-owned file put where a lock
  /// goes is neither opened nor given to the user (`claim` acts as the
  /// user), and that name is passed over.
  @Test func aHardLinkToAnotherUsersFileIsNotTaken() throws {
    try #require(geteuid() == 0, "needs root to act as another user")
    try #require(chown(dir.path, 65534, 65534) == 0)
    let rootsFile = dir.path + "/roots"
    #expect(FileManager.default.createFile(atPath: rootsFile, contents: Data("root's".utf8)))
    #expect(chmod(rootsFile, 0o644) == 0)
    #expect(link(rootsFile, dir.path + "/wayland-0.lock") == 0)
    let claimed = try WaylandDisplaySocket.claim(in: dir.path, owner: (65534, 65534))
    defer { claimed.remove() }
    #expect(claimed.name == "wayland-1")
    let found = try #require(status(rootsFile))
    #expect(found.st_uid == 0 && found.st_mode & 0o777 == 0o644, "the root-owned file was given away")
    #expect(geteuid() == 0 && access(rootsFile, W_OK) == 0, "this thread still acts as root")
  }

  /// With every name held, the error names the directory.
  @Test func withEveryNameHeldTheErrorSaysWhere() throws {
    var held: [WaylandDisplaySocket] = []
    defer { for socket in held { socket.remove() } }
    for _ in 0..<WaylandDisplaySocket.candidates { held.append(try WaylandDisplaySocket.claim(in: dir.path)) }
    #expect(held.last?.name == "wayland-\(WaylandDisplaySocket.candidates - 1)")
    let error = try #require(throws: SystemError.self) { try WaylandDisplaySocket.claim(in: dir.path) }
    #expect(error.description.contains(dir.path), "\(error.description)")
  }
}
