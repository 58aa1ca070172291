// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `--compat plymouth` against Debian's own `plymouth` client program
/// (unpacked by tools/plymouth-client.sh, not installed). splashd runs in a
/// network namespace of its own (`unshare --net`: the abstract socket's name
/// is Plymouth's real one, private to the test) and the clients join it
/// (`nsenter --net`).
@Suite struct PlymouthClientTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }
  static let clientRoot = packageRoot + "/.build/plymouth-client"

  init() throws { dir = try TemporaryDirectory() }

  /// Runs `plymouth ARGUMENTS` in splashd's network namespace.
  func plymouth(_ arguments: [String], in pid: Int32, as user: String? = nil) throws -> Outcome {
    let client = [
      "/usr/bin/env", "LD_LIBRARY_PATH=\(Self.clientRoot)/usr/lib/x86_64-linux-gnu",
      Self.clientRoot + "/usr/bin/plymouth",
    ]
    return try run("/usr/bin/nsenter", ["--net=/proc/\(pid)/ns/net", "--"] + client + arguments, environment: [:])
  }

  @Test func debiansPlymouthClientDrivesTheSplash() throws {
    let fetched = try run(
      packageRoot + "/tools/plymouth-client.sh", [Self.clientRoot], environment: ProcessInfo.processInfo.environment,
      timeout: 300)
    try #require(fetched.status == 0, "tools/plymouth-client.sh: \(fetched.stderr)")
    var outcomes: [String: Outcome] = [:]
    var shot: Screendump?
    var endedWhenQuitReturned = false
    let marker = dir.path + "/kiosk-started"
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "200x100", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--compat", "plymouth", "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000",
        "--message-center", "0.5, 0.2", "--", "/usr/bin/touch", marker,
      ], in: dir, launcher: ["/usr/bin/unshare", "--net"],
      whileRunning: { splash in
        waitUntil { FileManager.default.fileExists(atPath: socketPath) }
        guard (try? run(splashctlPath, ["--control", socketPath, "wait", "appeared"], environment: [:]))?.status == 0
        else { return }
        outcomes["ping"] = try? plymouth(["--ping"], in: splash.pid)
        outcomes["message"] = try? plymouth(["display-message", "--text=Hello"], in: splash.pid)
        outcomes["progress"] = try? plymouth(["system-update", "--progress=30"], in: splash.pid)
        outcomes["password"] = try? plymouth(["ask-for-password", "--prompt=Disk"], in: splash.pid)
        // Not root: refused, as Plymouth refuses it (a raw ping from a user's process).
        let ping = """
          import socket, sys
          s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
          s.connect("\\0/org/freedesktop/plymouthd")
          s.sendall(b"P\\0")
          sys.exit(0 if s.recv(1) == b"\\x06" else 1)
          """
        outcomes["user"] = try? run(
          "/usr/bin/nsenter",
          [
            "--net=/proc/\(splash.pid)/ns/net", "--", "/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/python3",
            "-c", ping,
          ],
          environment: [:])
        let file = dir.path + "/shot.png"
        _ = try? run(splashctlPath, ["--control", socketPath, "snapshot", file], environment: [:])
        _ = try? run(packageRoot + "/tools/png-to-ppm.py", [file, dir.path + "/shot.ppm"], environment: [:])
        shot = Screendump(path: dir.path + "/shot.ppm")
        outcomes["quit"] = try? plymouth(["quit", "--retain-splash"], in: splash.pid)
        endedWhenQuitReturned = splash.log.contains("splashd: did-disappear")
      })
    #expect(outcomes["ping"]?.status == 0, "\(String(describing: outcomes["ping"])) \(outcome.stderr)")
    #expect(outcomes["message"]?.status == 0 && outcomes["progress"]?.status == 0)
    #expect(outcomes["password"]?.status != 0)
    #expect(outcomes["user"]?.status == 1, "\(String(describing: outcomes["user"]))")
    let dump = try #require(shot)
    #expect((0..<200).filter { dump.at($0, 50) == 0xFF0000 }.count == 60)
    #expect((0..<200).contains { x in (14..<27).contains { dump.at(x, $0) == 0xFFFFFF } }, "no message drawn")
    #expect(outcomes["quit"]?.status == 0)
    #expect(endedWhenQuitReturned, "plymouth quit returned before the splash ended: \(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: reveal: plymouth quit --retain-splash"))
    #expect(outcome.status == 0 && FileManager.default.fileExists(atPath: marker), "\(outcome.stderr)")
    // Where no splash runs, ping says so.
    let alone = try run(
      "/usr/bin/unshare",
      [
        "--net", "--", "/usr/bin/env", "LD_LIBRARY_PATH=\(Self.clientRoot)/usr/lib/x86_64-linux-gnu",
        Self.clientRoot + "/usr/bin/plymouth", "--ping",
      ],
      environment: [:])
    #expect(alone.status == 1)
  }
}
