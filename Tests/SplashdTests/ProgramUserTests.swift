// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashTestSupport
import Testing

/// The program as its own user (`[handoff] user`): splashd, run as root,
/// becomes the program with the user's ids, groups, home and a runtime
/// directory of its own, whether it hands off after the splash, spawns the
/// program first, or crashes; a user that cannot be had never means root.
@Suite(.serialized) struct ProgramUserTests {
  let dir: TemporaryDirectory
  let quick = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05"]
  /// What the program says of itself.
  let report = ["--", "/bin/sh", "-c", "id -u; id -g; echo $HOME $USER $LOGNAME; stat -c %u:%a $XDG_RUNTIME_DIR"]
  static let nobody = "65534"
  static let runtime = "/run/user/65534"

  init() throws { dir = try TemporaryDirectory() }

  /// Runs `body` with nobody's runtime directory as it was, and puts it back
  /// as it was (gone) when the test made it.
  func withNobodysRuntimeDirectory(_ body: () throws -> Void) rethrows {
    let existed = FileManager.default.fileExists(atPath: Self.runtime)
    defer { if !existed { rmdir(Self.runtime) } }
    try body()
  }

  @Test(arguments: ["exec", "notify"])
  func theProgramRunsAsItsUserWithARuntimeDirectoryOfItsOwn(ready: String) throws {
    try withNobodysRuntimeDirectory {
      let (_, outcome) = try spawnSplashd(quick + ["--user", "nobody", "--ready", ready] + report, in: dir)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(
        outcome.stdout == "\(Self.nobody)\n\(Self.nobody)\n/nonexistent nobody nobody\n\(Self.nobody):700\n",
        "\(outcome.stdout) \(outcome.stderr)")
    }
  }

  @Test func aCrashHandsOffAsTheUserToo() throws {
    try withNobodysRuntimeDirectory {
      let (_, outcome) = try spawnSplashd(quick + ["--hold", "20", "--user", "nobody"] + report, in: dir) { splash in
        splash.waitForLog("splashd: appeared")
        kill(splash.pid, SIGSEGV)
      }
      #expect(outcome.stderrLines.contains("splashd: crashed; handing off to the program"))
      #expect(outcome.stdout.hasPrefix("\(Self.nobody)\n\(Self.nobody)\n"), "\(outcome.stdout) \(outcome.stderr)")
    }
  }

  /// A user that cannot be found, or a runtime directory that is not the
  /// user's: the program does not run (never as root), exit 127, one line.
  @Test func aUserThatCannotBeHadNeverMeansRoot() throws {
    let (_, unknown) = try spawnSplashd(quick + ["--user", "nob0dy", "--", "/bin/sh", "-c", "echo ran"], in: dir)
    #expect(unknown.status == 127 && unknown.stdout.isEmpty, "\(unknown.stdout)")
    #expect(unknown.stderrLines.last == "splashd: cannot run /bin/sh as nob0dy: no such user", "\(unknown.stderr)")
    let (_, spawned) = try spawnSplashd(
      quick + ["--user", "nob0dy", "--ready", "notify", "--", "/bin/sh", "-c", "echo ran"], in: dir)
    #expect(spawned.status == 127 && spawned.stdout.isEmpty, "\(spawned.stdout)")
    #expect(spawned.stderrLines.contains("splashd: cannot run /bin/sh as nob0dy: no such user"), "\(spawned.stderr)")
    // daemon's runtime directory, made by root for root: not daemon's own.
    let runtime = "/run/user/1"
    guard !FileManager.default.fileExists(atPath: runtime) else { return }
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    defer { rmdir(runtime) }
    let (_, foreign) = try spawnSplashd(quick + ["--user", "daemon", "--", "/bin/sh", "-c", "echo ran"], in: dir)
    #expect(foreign.status == 127 && foreign.stdout.isEmpty, "\(foreign.stdout)")
    #expect(
      foreign.stderrLines.last
        == "splashd: cannot run /bin/sh as daemon: /run/user/1: is not daemon's own runtime directory",
      "\(foreign.stderr)")
  }

  @Test func aGroupNeedsAUser() throws {
    let (_, outcome) = try spawnSplashd(quick + ["--group", "video", "--", "/bin/true"], in: dir)
    #expect(outcome.stderrLines.contains("splashd: --group needs --user: the group the program's user runs as"))
  }
}
