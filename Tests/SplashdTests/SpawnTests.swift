// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `--ready notify`: the program runs as splashd's child and reveals the
/// splash with systemd's READY=1; splashd stays its parent.
@Suite struct SpawnTests {
  let dir: TemporaryDirectory
  let quick = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--ready", "notify"]

  init() throws { dir = try TemporaryDirectory() }

  /// A program that says STATUS= and READY=1 on its NOTIFY_SOCKET after a
  /// moment, prints its PID and socket, then exits with `status`.
  func notifyingProgram(status: Int) -> String {
    let script = dir.file(
      "ready.py",
      """
      #!/usr/bin/env python3
      import os, socket, sys, time
      print(f"pid={os.getpid()} parent={os.getppid()} socket={os.environ['NOTIFY_SOCKET']}", flush=True)
      time.sleep(0.4)
      address = os.environ["NOTIFY_SOCKET"]
      address = "\\0" + address[1:] if address.startswith("@") else address
      s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
      s.sendto(b"STATUS=warming up", address)
      s.sendto(b"READY=1", address)
      time.sleep(0.2)
      sys.exit(\(status))
      """)
    chmod(script, 0o755)
    return script
  }

  @Test func readyFromTheChildRevealsAndItsStatusIsSplashdsOwn() throws {
    let (pid, outcome) = try spawnSplashd(quick + ["--", notifyingProgram(status: 5)], in: dir)
    #expect(outcome.status == 5)
    #expect(outcome.stdout.hasPrefix("pid="))
    #expect(outcome.stdout.contains(" parent=\(pid) socket=@splashd/\(pid)/notify"))
    #expect(!outcome.stdout.hasPrefix("pid=\(pid) "))
    let lines = outcome.stderrLines
    let status = lines.firstIndex(of: "splashd: program status: warming up")
    let reveal = lines.firstIndex { $0.hasPrefix("splashd: reveal: ") && $0.hasSuffix("ready.py is ready (READY=1)") }
    let done = lines.firstIndex { $0.hasPrefix("splashd: did-disappear") }
    #expect(status != nil && reveal != nil && done != nil, "\(lines)")
    if let status, let reveal, let done { #expect(status < reveal && reveal < done) }
    #expect(lines.last?.hasSuffix("ready.py ended with status 5") == true)
  }

  @Test func aChildThatEndsBeforeReadyRevealsToo() throws {
    let (_, outcome) = try spawnSplashd(quick + ["--timeout", "0", "--", "/bin/sh", "-c", "exit 4"], in: dir)
    #expect(outcome.status == 4)
    #expect(outcome.stderrLines.contains("splashd: reveal: /bin/sh ended"))
  }

  /// On a kernel without pidfd_open (before Linux 5.3; here a seccomp
  /// filter answers ENOSYS): the program runs once, its end is seen
  /// (SIGCHLD), and its status is splashd's. Before, splashd said it could
  /// not run it, and ran it a second time after the splash.
  @Test func onAKernelWithoutPidfdTheProgramRunsOnceAndItsEndIsSeen() throws {
    let runs = dir.path + "/runs"
    let (_, outcome) = try spawnSplashd(
      quick + ["--timeout", "0", "--", "/bin/sh", "-c", "echo ran >> \(runs); sleep 0.3; exit 4"], in: dir,
      launcher: [try withoutPidfd(in: dir)])
    #expect(outcome.status == 4, "\(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: reveal: /bin/sh ended"), "\(outcome.stderr)")
    #expect((try? String(contentsOfFile: runs, encoding: .utf8)) == "ran\n", "\(outcome.stderr)")
  }

  @Test func signalsArePassedOnAndADeathBySignalIs128Plus() throws {
    let (_, outcome) = try spawnSplashd(
      quick + ["--timeout", "0.2", "--", "/bin/sh", "-c", "exec sleep 60"], in: dir,
      whileRunning: { splash in
        // Past the timeout and the transition: splashd is only the parent now.
        splash.waitForLog("splashd: did-disappear")
        kill(splash.pid, SIGTERM)
      })
    #expect(outcome.status == 128 + 15)
    #expect(outcome.stderrLines.contains { $0.hasPrefix("splashd: did-disappear") })
  }

  @Test func sighupReachesTheChildWithoutEndingTheSplash() throws {
    let (_, outcome) = try spawnSplashd(
      quick + ["--timeout", "0", "--", "/bin/sh", "-c", "trap 'exit 7' HUP; while :; do sleep 0.05; done"], in: dir,
      whileRunning: { splash in
        splash.waitForLog("splashd: appeared")  // while the splash waits for the gate
        kill(splash.pid, SIGHUP)
      })
    #expect(outcome.status == 7)
    #expect(!outcome.stderrLines.contains { $0.hasPrefix("splashd: ended early") })
  }

  @Test func notifyModeNeedsARunnableProgram() throws {
    let (_, none) = try spawnSplashd(quick, in: dir)
    #expect(none.status == 2)
    #expect(none.stderrLines == ["splashd: --ready notify needs a program: -- PROGRAM, or exec = in [handoff]"])
    let (_, missing) = try spawnSplashd(quick + ["--", "no-such-program-anywhere"], in: dir)
    #expect(missing.status == 127)
    #expect(missing.stderrLines.last == "splashd: cannot run no-such-program-anywhere: not found (looked in PATH)")
  }
}
