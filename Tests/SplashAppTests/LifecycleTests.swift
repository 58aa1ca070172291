// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// What systemd hears, and what the run ends with.
@Suite struct LifecycleTests {
  @Test func systemdHearsReadyAtTheFirstFrameThenEachStep() throws {
    let splash = try Harness()
    let notify = try NotifySocket(splash.dir.path + "/notify")
    splash.environment["NOTIFY_SOCKET"] = notify.name
    splash.clock.at(2) { splash.dir.file("go", "") }
    #expect(
      splash.run(
        ["--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-file", splash.dir.path + "/go"])
        == .exit(0))
    #expect(
      notify.received() == [
        "READY=1\nSTATUS=Splash shown, first frame 0.0 ms after start", "STATUS=Splash shown, waiting to be revealed",
        "STATUS=Revealing: \(splash.dir.path)/go exists", "STATUS=Transition doors running", "STATUS=Splash done",
      ])
  }

  @Test func aFailedSplashStillSaysReadyAndHandsOff() throws {
    let splash = try Harness()
    let notify = try NotifySocket(splash.dir.path + "/notify")
    splash.environment["NOTIFY_SOCKET"] = notify.name
    let ending = splash.run(["--image", splash.dir.path + "/absent.png", "--", "/bin/sh", "-c", "exit 5"])
    guard case .handOff(let handOff, _) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(handOff.arguments == ["/bin/sh", "-c", "exit 5"])
    let messages = notify.received()
    #expect(messages.count == 1 && messages[0].hasPrefix("READY=1\nSTATUS=Splash failed: --image "), "\(messages)")
  }

  /// `--check`, `--help` and `--version` never run the program, even when
  /// the rest of the command line is wrong.
  @Test(arguments: [["--check"], ["--help"], ["--version"], ["--check", "--bogus"], ["--rotate", "45", "--check"]])
  func informationOnlyRunsNeverHandOff(options: [String]) throws {
    let splash = try Harness()
    let ending = splash.run(options + ["--", "/bin/sh", "-c", "echo PROGRAM-RAN"])
    guard case .exit(let status) = ending else {
      Issue.record("\(options) handed off: \(ending)")
      return
    }
    #expect(status == (options.count == 1 ? 0 : 2))
  }

  @Test func theConfigFilesProgramRunsAfterTheSplash() throws {
    let splash = try Harness()
    let config = splash.dir.file("c.conf", "[handoff]\nexec = sh -c 'echo \"from the file\"'\n")
    let ending = splash.run(["--config", config, "--display", "offscreen", "--size", "32x32", "--duration", "0"])
    #expect(
      ending
        == .handOff(
          HandOff(program: ["sh", "-c", "echo \"from the file\""], environment: splash.environment)!,
          environment: ["SPLASHD_ROTATION": "0"]))
    // The command line's program wins over the file's.
    let overridden = try Harness()
    let again = overridden.dir.file("c.conf", "[handoff]\nexec = sh -c 'echo file'\n")
    guard
      case .handOff(let handOff, _) = overridden.run([
        "--config", again, "--display", "offscreen", "--duration", "0", "--", "/bin/true",
      ])
    else {
      Issue.record("no hand-off")
      return
    }
    #expect(handOff.arguments == ["/bin/true"])
  }

  /// `--ready notify`: the program runs first, as splashd's child (a real
  /// process here); its end reveals the splash and its status is splashd's.
  @Test func aSpawnedProgramIsSupervisedAndItsStatusKept() throws {
    let splash = try Harness()
    let ending = splash.run(
      [
        "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--ready", "notify", "--timeout", "0", "--",
        "/bin/sh", "-c", "exit 4",
      ])
    #expect(ending == .exit(4))
    #expect(splash.revealReason == "/bin/sh ended")
    #expect(splash.lines.last == "splashd: /bin/sh ended with status 4")
  }
}
