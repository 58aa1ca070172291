// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// splashd becoming the program given after `--`.
@Suite struct HandOffTests {
  let dir: TemporaryDirectory
  let quick = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05"]

  init() throws { dir = try TemporaryDirectory() }

  func spawn(_ arguments: [String], whileRunning act: (RunningSplashd) -> Void = { _ in }) throws -> (Int32, Outcome) {
    try spawnSplashd(arguments, in: dir, whileRunning: act)
  }

  @Test func theProgramRunsInPlaceWithTheRotationAndItsOwnExitStatus() throws {
    let (pid, outcome) = try spawn(
      quick + ["--rotate", "270", "--", "/bin/sh", "-c", "echo pid=$$ rotation=$SPLASHD_ROTATION; exit 7"])
    #expect(outcome.stdout == "pid=\(pid) rotation=270\n")
    #expect(outcome.status == 7)
    // The splash played first, then handed off.
    let lines = outcome.stderrLines
    #expect(lines.contains { $0.hasPrefix("splashd: did-disappear") })
    #expect(lines.last == "splashd: handing off to /bin/sh")
  }

  @Test func aBareNameIsLookedUpInPath() throws {
    let (_, outcome) = try spawn(quick + ["--", "sh", "-c", "exit 3"])
    #expect(outcome.status == 3)
  }

  @Test func aProgramThatCannotRunExits127() throws {
    let (_, missing) = try spawn(quick + ["--", "no-such-program-anywhere"])
    #expect(missing.status == 127)
    #expect(missing.stderrLines.last == "splashd: cannot run no-such-program-anywhere: not found (looked in PATH)")
    let notExecutable = dir.file("plain.txt", "not a program\n")
    let (_, refused) = try spawn(quick + ["--", notExecutable])
    #expect(refused.status == 127)
  }

  @Test func aFailedSplashStillHandsOff() throws {
    let (_, outcome) = try spawn(["--image", dir.path + "/absent.png", "--", "/bin/sh", "-c", "exit 5"])
    #expect(outcome.status == 5)
    #expect(outcome.stderrLines.contains { $0.contains("absent.png: no such file or directory") })
    #expect(outcome.stderrLines.last == "splashd: handing off to /bin/sh")
    // Even a bad option does not keep the program from running.
    let (_, badOption) = try spawn(["--rotate", "45", "--", "/bin/sh", "-c", "exit 6"])
    #expect(badOption.status == 6)
  }

  /// A crash runs the program anyway, and removes the control socket.
  @Test func aCrashHandsOffInsteadOfEndingTheBoot() throws {
    let control = dir.path + "/control"
    let (pid, outcome) = try spawn(
      quick + [
        "--hold", "20", "--rotate", "270", "--control", control, "--", "/bin/sh", "-c",
        "echo pid=$$ rotation=$SPLASHD_ROTATION; test -e \(control) && echo socket left; exit 9",
      ],
      whileRunning: { splash in
        splash.waitForLog("splashd: appeared")
        kill(splash.pid, SIGSEGV)
      })
    #expect(outcome.status == 9)
    #expect(outcome.stdout == "pid=\(pid) rotation=270\n")
    #expect(outcome.stderrLines.contains("splashd: crashed; handing off to the program"))
    // Without a program, a crash still removes the socket, then ends splashd as the signal would.
    let (_, alone) = try spawn(quick + ["--hold", "20", "--control", control]) { splash in
      splash.waitForLog("splashd: appeared")
      kill(splash.pid, SIGSEGV)
    }
    #expect(alone.status == SIGSEGV)
    #expect(!FileManager.default.fileExists(atPath: control))
  }

  /// The program gets a clean environment however it starts: in
  /// splashd's place, spawned first, after a crash. What systemd gives a
  /// service and the names `pass-environment` lists go on; splashd's unit's
  /// credentials, systemd's NOTIFY_SOCKET and anything else do not.
  @Test(arguments: ["exec", "notify", "crash"])
  func theProgramGetsACleanEnvironment(start: String) throws {
    let environment = [
      "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_TIME": "C", "CREDENTIALS_DIRECTORY": "/run/credentials/x",
      "NOTIFY_SOCKET": "@not-for-the-program", "SECRET_TOKEN": "s3cret", "KEEP_ME": "yes",
    ]
    var arguments = ["--config", dir.testConfig, "--pass-environment", "KEEP_ME"] + quick
    if start == "notify" { arguments += ["--ready", "notify"] }
    if start == "crash" { arguments += ["--hold", "20"] }
    let splash = try StartedProcess(splashdPath, arguments + ["--", "/usr/bin/env"], environment: environment)
    if start == "crash" {
      RunningSplashd(pid: splash.pid, stderrPath: splash.stderrPath).waitForLog("splashd: appeared")
      kill(splash.pid, SIGSEGV)
    }
    let outcome = try splash.finish()
    let variables = Set(outcome.stdout.split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(variables.isSuperset(of: ["PATH", "LANG", "LC_TIME", "KEEP_ME", "SPLASHD_ROTATION"]), "\(variables)")
    let leaked = variables.intersection(["CREDENTIALS_DIRECTORY", "SECRET_TOKEN"])
    #expect(leaked.isEmpty, "\(leaked)")
    // Spawned first, it has splashd's own notify socket, never systemd's.
    #expect(!outcome.stdout.contains("NOTIFY_SOCKET=@not-for-the-program"), "\(outcome.stdout)")
    #expect(variables.contains("NOTIFY_SOCKET") == (start == "notify"))
  }

  @Test func theConfigFileCanNameTheProgram() throws {
    let script = dir.file("kiosk.sh", "#!/bin/sh\necho kiosk \"$@\"\n")
    chmod(script, 0o755)
    let config = dir.file("handoff.conf", "[splash]\nhold = 0\n\n[handoff]\nexec = ./kiosk.sh --fullscreen\n")
    let (_, outcome) = try spawn(["--config", config] + quick)
    #expect(outcome.stdout == "kiosk --fullscreen\n")
    #expect(outcome.status == 0)
    // The command line's program wins over the file's.
    let (_, overridden) = try spawn(["--config", config] + quick + ["--", "/bin/sh", "-c", "echo cli"])
    #expect(overridden.stdout == "cli\n")
  }

  // SIGTERM and SIGINT end the splash at once. Holds and transitions of a
  // minute that end within the helper's 30 s limit show it without timing.

  /// Runs splashd with `arguments` and sends it `signal` once it has
  /// logged `text`.
  func stopped(_ arguments: [String], by signal: Int32, after text: String) throws -> Outcome {
    try spawn(arguments) { splash in
      splash.waitForLog(text)
      kill(splash.pid, signal)
    }.1
  }

  @Test func sigtermDuringTheHoldEndsTheSplash() throws {
    let outcome = try stopped(quick + ["--hold", "60"], by: SIGTERM, after: "splashd: appeared")
    #expect(outcome.status == 0)
    #expect(outcome.stderrLines.last == "splashd: ended early: SIGTERM")
  }

  @Test func sigintDuringTheTransitionEndsTheSplash() throws {
    let outcome = try stopped(
      ["--display", "offscreen", "--size", "32x32", "--duration", "60"], by: SIGINT, after: "splashd: will-disappear")
    #expect(outcome.status == 0)
    #expect(outcome.stderrLines.contains { $0.hasPrefix("splashd: will-disappear: transition doors starts") })
    #expect(outcome.stderrLines.last == "splashd: ended early: SIGINT")
  }

  @Test func aStoppedSplashHandsOffWithTheSignalMaskSplashdGot() throws {
    // splashd starts with nothing blocked (as systemd starts it) and blocks
    // its stop signals for itself; the program is given the empty mask back.
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "32x32", "--hold", "60", "--", "/bin/sh", "-c",
        "grep SigBlk /proc/self/status; exit 4",
      ],
      in: dir,
      whileRunning: { splash in
        splash.waitForLog("splashd: appeared")
        kill(splash.pid, SIGTERM)
      })
    #expect(outcome.status == 4)
    #expect(outcome.stdout == "SigBlk:\t0000000000000000\n")
  }

  @Test func sigtermDuringARecordingFailsIt() throws {
    let frames = dir.path + "/long"
    let outcome = try spawn(["--record", frames, "--size", "64x64", "--duration", "60", "--fps", "60"]) { splash in
      waitUntil { FileManager.default.fileExists(atPath: frames + "/frame-00001.png") }
      kill(splash.pid, SIGTERM)
    }.1
    #expect(outcome.status == 1)
    #expect(outcome.stderrLines.last?.contains("interrupted by SIGTERM after") == true)
  }

  @Test func checkHelpAndVersionNeverRunTheProgram() throws {
    for options in [["--check"], ["--help"], ["--version"]] {
      let (_, outcome) = try spawn(options + ["--", "/bin/sh", "-c", "echo PROGRAM-RAN; exit 4"])
      #expect(outcome.status == 0, "\(options)")
      #expect(!outcome.stdout.contains("PROGRAM-RAN"), "\(options)")
    }
  }
}
