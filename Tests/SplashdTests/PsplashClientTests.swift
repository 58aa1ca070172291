// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `--compat psplash` against the real binary, written from other processes
/// exactly as psplash-write writes: open O_WRONLY|O_NONBLOCK (exit 255, as
/// psplash-write's exit(-1), when nobody reads), write the command and its
/// NUL, close.
@Suite struct PsplashClientTests {
  let dir: TemporaryDirectory
  var fifo: String { dir.path + "/psplash_fifo" }
  var socketPath: String { dir.path + "/control" }

  init() throws { dir = try TemporaryDirectory() }

  /// One psplash-write of `commands`, NUL-terminated each, in one write.
  func psplashWrite(_ commands: [String]) throws -> Int32 {
    let script = """
      import os, sys
      try:
          fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
      except OSError:
          sys.exit(255)
      os.write(fd, b"".join(arg.encode() + b"\\0" for arg in sys.argv[2:]))
      os.close(fd)
      """
    return try run("/usr/bin/python3", ["-c", script, fifo] + commands, environment: [:]).status
  }

  /// Writers that send no NUL (`printf 'PROGRESS 40' > psplash_fifo`):
  /// each write is a command of its own, as psplash takes it, and the next
  /// writer's QUIT is not lost by being glued onto it.
  @Test func writesWithoutANulAreCommandsOfTheirOwn() throws {
    func write(_ text: String) -> Int32 {
      (try? run("/bin/sh", ["-c", "printf '%s' \"$1\" > \"$0\"", fifo, text], environment: [:]))?.status ?? -1
    }
    /// How many pixels of the bar's row the splash shows filled.
    func filled() -> Int {
      let file = dir.path + "/shot.png"
      _ = try? run(splashctlPath, ["--control", socketPath, "snapshot", file], environment: [:])
      _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [file, dir.path + "/shot.ppm"], environment: [:])
      guard let shot = Screendump(path: dir.path + "/shot.ppm") else { return -1 }
      return (0..<100).filter { shot.at($0, 50) == 0xFF0000 }.count
    }
    var writes: [Int32] = []
    var shown = -1
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "100x100", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--compat", "psplash", "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000", "--",
        "/bin/echo", "kiosk started",
      ], in: dir, launcher: ["/usr/bin/env", "PSPLASH_FIFO_DIR=\(dir.path)"],
      whileRunning: { _ in
        waitUntil { FileManager.default.fileExists(atPath: socketPath) }
        guard (try? run(splashctlPath, ["--control", socketPath, "wait", "appeared"], environment: [:]))?.status == 0
        else { return }
        writes.append(write("PROGRESS 40"))
        waitUntil(10) {
          shown = filled()
          return shown == 40
        }
        writes.append(write("QUIT"))
      })
    #expect(writes == [0, 0], "\(outcome.stderr)")
    #expect(shown == 40)
    #expect(outcome.status == 0 && outcome.stdout == "kiosk started\n", "\(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: reveal: psplash QUIT"), "\(outcome.stderr)")
  }

  @Test func psplashWriteDrivesTheSplashThenQuitHandsOff() throws {
    var writes: [Int32] = []
    var shot: Screendump?
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "200x100", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--compat", "psplash", "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000",
        "--message-center", "0.5, 0.2", "--", "/bin/echo", "kiosk started",
      ], in: dir, launcher: ["/usr/bin/env", "PSPLASH_FIFO_DIR=\(dir.path)"],
      whileRunning: { _ in
        waitUntil { FileManager.default.fileExists(atPath: socketPath) }
        guard (try? run(splashctlPath, ["--control", socketPath, "wait", "appeared"], environment: [:]))?.status == 0
        else { return }
        for percent in stride(from: 10, through: 40, by: 10) {
          writes.append((try? psplashWrite(["PROGRESS \(percent)"])) ?? -1)
        }
        writes.append((try? psplashWrite(["MSG Hello", "PROGRESS 50"])) ?? -1)
        let file = dir.path + "/shot.png"
        _ = try? run(splashctlPath, ["--control", socketPath, "snapshot", file], environment: [:])
        _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [file, dir.path + "/shot.ppm"], environment: [:])
        shot = Screendump(path: dir.path + "/shot.ppm")
        writes.append((try? psplashWrite(["QUIT"])) ?? -1)
      })
    #expect(writes == [0, 0, 0, 0, 0, 0], "\(outcome.stderr)")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout == "kiosk started\n")
    #expect(outcome.stderrLines.contains("splashd: reveal: psplash QUIT"))
    #expect(outcome.stderrLines.contains { $0.hasPrefix("splashd: did-disappear") })
    let dump = try #require(shot)
    #expect((0..<200).filter { dump.at($0, 50) == 0xFF0000 }.count == 100)
    #expect((0..<200).contains { x in (14..<27).contains { dump.at(x, $0) == 0xFFFFFF } }, "no message drawn")
    // Gone with splashd: a later psplash-write finds nobody, and fails as it does without psplash.
    #expect(!FileManager.default.fileExists(atPath: fifo))
    #expect(try psplashWrite(["PROGRESS 1"]) == 255)
  }
}
