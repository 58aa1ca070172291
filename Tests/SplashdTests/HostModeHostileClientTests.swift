// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: a hostile or broken program: garbage on its connection, buffers with short rows or memory cut away, a cache file cut short while hosting.
@Suite struct HostModeHostileClientTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// A program that sends its compositor garbage (a request to an object
  /// that does not exist): the compositor cuts it off, splashd still
  /// answers, a reveal no longer waits for a frame that cannot come (no
  /// timeout here to end the wait), and the program runs on.
  @Test func garbageFromTheProgramCannotHoldTheSplashOrEndTheProgram() throws {
    var status: String?
    var programRuns = false
    // Object 99, opcode 0, 8 bytes: a whole message, for nothing.
    let script = "printf '\\x63\\x00\\x00\\x00\\x00\\x00\\x08\\x00' >&$WAYLAND_SOCKET; exec sleep 60"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--duration", "0.2", "--", "/bin/bash", "-c", script], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=") == true }) else { return }
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else { return }
        status = splashctl(["status"])?.stdout
        programRuns = (try? run("/usr/bin/pgrep", ["-P", String(splashd.pid), "sleep"], environment: [:]))?.status == 0
        kill(splashd.pid, SIGTERM)
      })
    let note = outcome.stderr
    #expect(status?.contains(" program=disconnected") == true, "\(status ?? "the splash never ended"): \(note)")
    #expect(programRuns, "the program did not run on: \(note)")
    #expect(note.contains("/bin/bash ended with status \(outcome.status)\n"), "\(note)")
  }

  /// A client whose 32-bit buffer has rows of one byte a pixel (all that
  /// libwayland checks), in a pool just that big (hostile-buffer-client
  /// short-rows): splashd, root in a kiosk, never reads past the client's
  /// memory; the buffer is not shown, the splash holds, and splashd answers on.
  @Test func aBufferWithShortRowsIsNeverRead() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    var status: String?
    var alive = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--", client, "short-rows", done], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(20, { FileManager.default.fileExists(atPath: done) }) else { return }
        status = splashctl(["status"])?.stdout
        alive = kill(splashd.pid, 0) == 0
      })
    let note = outcome.stderr
    #expect(alive, "splashd did not survive the buffer: \(note)")
    #expect(status?.contains(" program=starting") == true, "\(status ?? "no status"): \(note)")
    #expect(status?.hasPrefix("phase=waiting") == true, "\(status ?? "no status"): \(note)")
  }

  /// A client that cuts its buffer's memory to nothing once splashd has
  /// its frame (hostile-buffer-client shrunk-pool): the frame, drawn from
  /// where it lies at every draw, is read only inside wl_shm's access, so
  /// the doors' first frame finds the memory gone without harm, wl_shm
  /// cuts the client off (its exit status 4, which splashd exits with),
  /// and splashd plays on rather than dying of SIGBUS.
  @Test func aClientThatCutsItsMemoryAfterItsFrameIsCutOffAndSplashdGoesOn() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--duration", "0.3", "--", client, "shrunk-pool", done], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { FileManager.default.fileExists(atPath: done) }) else {
          kill(splashd.pid, SIGTERM)
          return
        }
        _ = splashctl(["reveal"])
      })
    #expect(outcome.status == 4, "\(outcome.stderr)")
  }

  /// A client that cuts its buffer's memory to nothing and exits once its
  /// frame is alone on the screen (hostile-buffer-client shrink-and-leave),
  /// with `restart = on-failure`: the splash comes back cross-faded from
  /// that frame, read after the client has gone, when wl_shm guards its
  /// memory no more: from the copy of what was shown of it that the
  /// compositor made as the client went, while wl_shm still guarded it
  /// (zeros where the memory was cut; a buffer whose wl_buffer is gone is
  /// never read, a patch of the wlroots tools/build/build-wlroots.sh
  /// builds), so splashd lives on, starts the client again, and at the
  /// limit exits with its status, never crashed.
  @Test func aClientThatCutsItsMemoryAndLeavesIsReturnedFromWithoutACrash() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    let leave = dir.path + "/leave"
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--restart", "on-failure", "--restart-limit", "1", "--", client, "shrink-and-leave",
        done, leave,
      ], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else {
          kill(splashd.pid, SIGTERM)
          return
        }
        _ = FileManager.default.createFile(atPath: leave, contents: nil)
        // At the limit, the diagnostic screen; splashd stopped there.
        _ = failureReport(of: splashd.pid)
      })
    #expect(outcome.status == 3, "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("crashed"), "\(outcome.stderr)")
  }

  /// A prepared picture cut short in the cache while the splash holds over
  /// the program: libwayland's SIGBUS handler, in place since the program's
  /// memory was first read, comes after the guard of mapped files (which
  /// goes first again at the program's first frame), so the redraw after
  /// the cut reads zeros where the file was lost and says so, and the
  /// splash goes on to reveal the program, never crashed.
  @Test func aCacheFileCutShortWhileHostingNeverCrashesTheSplash() throws {
    // A first start prepares the pictures into the cache (its program ends at once).
    let shape = splash + ["--until-reveal", "--timeout", "0", "--duration", "0.3"]
    let warm = try run(splashdPath, ["--config", dir.testConfig] + shape + ["--", "/bin/true"], timeout: 20)
    #expect(warm.status == 0, "\(warm.stderr)")
    let file = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.cache).first { $0.hasSuffix(".prepared") }
        .map { dir.cache + "/" + $0 })
    var snapshotStatus: Int32?
    var revealed = false
    let (_, outcome) = try spawnSplashd(
      shape + ["--", "foot"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), splashd.log.contains("prepared pictures from") else { return }
        truncate(file, 4096)
        snapshotStatus = splashctl(["snapshot", dir.path + "/after-the-cut.png"])?.status
        _ = splashctl(["reveal"])
        revealed = waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
      })
    let note = outcome.stderr
    #expect(snapshotStatus == 0 && revealed, "\(note)")
    #expect(
      outcome.stderrLines.contains("splashd: \(file) was cut short while it was shown: its lost part shows as black"),
      "\(note)")
    #expect(!note.contains("crashed"), "\(note)")
  }
}
