// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// splashctl against the real splashd binary: what it prints and exits
/// with. What the control socket does is tested in process
/// (SplashAppTests); these check the two programs together.
@Suite struct SplashctlTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }
  let held = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0"]

  init() throws { dir = try TemporaryDirectory() }

  /// Runs splashctl and returns its outcome.
  func splashctl(_ arguments: [String]) throws -> Outcome {
    try run(splashctlPath, ["--control", socketPath] + arguments, environment: ProcessInfo.processInfo.environment)
  }

  /// Waits for the socket, then for the splash's first frame.
  func waitForTheSplash() -> Bool {
    waitUntil { FileManager.default.fileExists(atPath: socketPath) }
    return (try? splashctl(["wait", "appeared"]))?.status == 0
  }

  /// A client that asks for hundreds of snapshots in one write (each a
  /// 1080p PNG) cannot freeze the splash: one at a time is made, off the run
  /// loop, the rest answered with an error, and the gate's timeout ends the
  /// hold on time (the PNGs froze a 1080p splash for 40 s before).
  @Test func aFloodOfSnapshotsNeverFreezesTheSplash() throws {
    let flood = """
      import socket, sys, time
      s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
      s.sendall(b"snapshot\\n" * 455)
      s.settimeout(30); data = b""
      while True:
          part = s.recv(1 << 20)
          if not part: break
          data += part
      print(data.count(b"ok png "), data.count(b"error snapshot: the last one is still being made or sent"))
      """
    var counts = ""
    let started = Date()
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "1920x1080", "--duration", "0.1", "--until-reveal", "--timeout", "2",
        "--control", socketPath, "--", "/bin/echo", "ran",
      ], in: dir,
      whileRunning: { _ in
        guard waitForTheSplash() else { return }
        counts = (try? run("/usr/bin/python3", ["-c", flood, socketPath], timeout: 60))?.stdout ?? ""
      })
    let took = Date().timeIntervalSince(started)
    #expect(outcome.status == 0 && outcome.stdout == "ran\n", "\(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: reveal: timeout after 2 s (--timeout)"), "\(outcome.stderr)")
    #expect(counts == "1 454\n", "\(counts)")
    // A bound, not a timing: a splash the flood froze took 40 s.
    #expect(took < 20, "\(took) s")
  }

  @Test func statusRevealAndTheSocketsMode() throws {
    var status: Outcome?
    var mode: Int?
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath, "--", "/bin/sh", "-c", "echo handed off"], in: dir,
      whileRunning: { _ in
        guard waitForTheSplash() else { return }
        mode = (try? FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions]) as? Int
        status = try? splashctl(["status"])
        _ = try? splashctl(["reveal"])
      })
    #expect(mode == 0o600)
    #expect(status?.status == 0)
    #expect(
      status?.stdout.hasPrefix("phase=waiting rotation=0 display=offscreen uptime_s=") == true,
      "\(String(describing: status))")
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "handed off\n")
    #expect(outcome.stderrLines.contains("splashd: reveal: splashctl reveal"))
    #expect(!FileManager.default.fileExists(atPath: socketPath))  // removed on the way out
  }

  @Test func aRefusedCommandIsSplashdsReasonAndExitOne() throws {
    var late: Outcome?
    _ = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "32x32", "--duration", "60", "--until-reveal", "--timeout", "0",
        "--control", socketPath,
      ],
      in: dir,
      whileRunning: { _ in
        guard waitForTheSplash() else { return }
        _ = try? splashctl(["reveal"])
        _ = try? splashctl(["wait", "will-disappear"])  // the 60 s transition runs now
        late = try? splashctl(["rotate", "90"])
        _ = try? splashctl(["quit"])
      })
    #expect(late?.status == 1)
    #expect(late?.stderr == "splashctl: rotate: the transition has started; the angle stays 0\n")
  }

  @Test func aWaiterIsToldWhenSplashdEndsWithoutTheEvent() throws {
    var waiter: SpawnedChild?
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { splash in
        guard waitForTheSplash() else { return }
        waiter = try? SpawnedChild(
          splashctlPath, ["--control", socketPath, "wait", "did-disappear"], standardError: .pipe)
        // Once splashd has its connection (sockets at the path: the listener
        // and the waiter's), a status answered after it means its wait was read.
        waitUntil { connections(to: socketPath) >= 2 }
        _ = try? splashctl(["status"])
        kill(splash.pid, SIGTERM)
      })
    #expect(outcome.status == 0)
    let ended = try #require(waiter).wait(seconds: 30)
    #expect(ended && waiter?.terminationStatus == 1)
    let message = String(decoding: waiter?.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    #expect(message == "splashctl: splashd ended without did-disappear\n")
  }

  /// splashd's end of each connection to the socket at `path`, and its
  /// listener (the kernel's list of Unix sockets names their path).
  func connections(to path: String) -> Int {
    let table = readProcFile("/proc/net/unix") ?? ""
    return table.split(separator: "\n").filter { $0.hasSuffix(" " + path) }.count
  }

  @Test func splashctlWithoutSplashdAndWithBadUsage() throws {
    let unreachable = try splashctl(["status"])
    #expect(unreachable.status == 1)
    #expect(unreachable.stderr == "splashctl: cannot reach splashd at \(socketPath): no such file or directory\n")
    let bad = try splashctl(["wait", "forever"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("splashctl: wait needs one event"))
    let none = try run(splashctlPath, [], environment: ProcessInfo.processInfo.environment)
    #expect(none.status == 2)
    for (arguments, start) in [
      (["-V"], "splashctl 0.1.0\n"), (["--version"], "splashctl 0.1.0\n"), (["-h"], "Usage: splashctl"),
    ] {
      let asked = try run(splashctlPath, arguments, environment: [:])
      #expect(asked.status == 0 && asked.stdout.hasPrefix(start), "\(arguments): \(asked.stdout)")
    }
  }

  /// `splashctl progress` and `message` change the held splash, and
  /// `snapshot` writes what it shows, to a file or standard output; a path
  /// splashctl cannot write is its error, and the splash goes on.
  @Test func progressAndSnapshotThroughSplashctl() throws {
    var outcomes: [String: Outcome] = [:]
    let file = dir.path + "/shot.png"
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "200x100", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000", "--progress-track", "#0000FF",
        "--progress", "30",
      ], in: dir,
      whileRunning: { _ in
        guard waitForTheSplash() else { return }
        for (name, arguments) in [
          ("progress", ["progress", "70"]), ("message", ["message", "Starting", "the", "kiosk"]),
          ("file", ["snapshot", file]),
          ("unwritable", ["snapshot", dir.path + "/no/such/dir/shot.png"]), ("garbage", ["progress", "lots"]),
          ("status", ["status"]),
        ] {
          outcomes[name] = try? splashctl(arguments)
        }
        outcomes["stdout"] = try? run(
          "/bin/sh", ["-c", "\"$0\" --control \"$1\" snapshot - > \"$2\"", splashctlPath, socketPath, file + ".out"],
          environment: [:])
        _ = try? splashctl(["reveal"])
      })
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcomes["progress"]?.status == 0 && outcomes["message"]?.status == 0)
    #expect(outcomes["file"]?.status == 0, "\(String(describing: outcomes["file"]))")
    let ppm = dir.path + "/shot.ppm"
    _ = try run(packageRoot + "/tools/test/png-to-ppm.py", [file, ppm], environment: [:])
    let shot = try #require(Screendump(path: ppm))
    #expect(shot.width == 200 && shot.height == 100)
    #expect((0..<200).filter { shot.at($0, 50) == 0xFF0000 }.count == 140)
    #expect(shot.at(140, 50) == 0x0000FF && shot.at(199, 50) == 0x0000FF)
    // The message drew white text around its centre (0.5, 0.82).
    #expect((0..<200).contains { x in (75..<90).contains { shot.at(x, $0) == 0xFFFFFF } })
    // The same frame on standard output, byte for byte.
    let written = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(outcomes["stdout"]?.status == 0)
    #expect(FileManager.default.contents(atPath: file + ".out") == written)
    #expect(outcomes["unwritable"]?.status == 1)
    #expect(
      outcomes["unwritable"]?.stderr
        == "splashctl: cannot write the snapshot to \(dir.path)/no/such/dir/shot.png: no such file or directory\n")
    #expect(outcomes["garbage"]?.status == 2)
    #expect(outcomes["garbage"]?.stderr == "splashctl: progress needs one number, 0 to 100 (see splashctl --help)\n")
    #expect(outcomes["status"]?.stdout.hasPrefix("phase=waiting ") == true)
  }
}
