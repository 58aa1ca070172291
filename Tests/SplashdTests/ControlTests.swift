// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The splashctl next to splashd.
let splashctlPath = URL(fileURLWithPath: splashdPath).deletingLastPathComponent().appendingPathComponent("splashctl")
  .path

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
    let waiter = Process()
    let errors = Pipe()
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { splash in
        guard waitForTheSplash() else { return }
        waiter.executableURL = URL(fileURLWithPath: splashctlPath)
        waiter.arguments = ["--control", socketPath, "wait", "did-disappear"]
        waiter.standardError = errors
        try? waiter.run()
        // Once splashd has its connection (sockets at the path: the listener
        // and the waiter's), a status answered after it means its wait was read.
        waitUntil { connections(to: socketPath) >= 2 }
        _ = try? splashctl(["status"])
        kill(splash.pid, SIGTERM)
      })
    #expect(outcome.status == 0)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    waiter.waitUntilExit()
    #expect(waiter.terminationStatus == 1)
    #expect(message == "splashctl: splashd ended without did-disappear\n")
  }

  /// splashd's end of each connection to the socket at `path`, and its
  /// listener (the kernel's list of Unix sockets names their path).
  func connections(to path: String) -> Int {
    let table = (try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8)) ?? ""
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
  }
}
