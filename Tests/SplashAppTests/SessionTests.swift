// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Following a sensor while the splash holds (an orientation device
/// through a pipe here; the real ones are tested under QEMU).
@Suite struct FollowTests {
  @Test func aNewAngleTurnsTheHeldSplashButNotTheMovingDoors() throws {
    let splash = try Harness()
    let sensor = PipeAngles()
    splash.resolveRotation = { _, _ in
      ResolvedRotation(rotation: .none, source: "the test sensor", misses: [], followed: sensor)
    }
    splash.clock.at(1) { sensor.send(.quarter) }
    splash.clock.at(1.5) { sensor.send(.quarter) }  // no change: nothing to do
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    splash.clock.at(2.5) { sensor.send(.half) }  // the doors move: the angle stays
    let ending = splash.run(
      [
        "--display", "offscreen", "--size", "64x32", "--rotate", "auto", "--duration", "2", "--until-reveal",
        "--timeout", "0", "--control", splash.controlPath, "--", "/bin/true",
      ])
    #expect(splash.lines.contains("splashd: rotation 0 from the test sensor"))
    #expect(
      splash.lines.filter { $0.hasPrefix("splashd: turned to") } == ["splashd: turned to 90 degrees (the test sensor)"])
    #expect(splash.rotations == [.none, .quarter])
    guard case .handOff(_, let environment) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(environment["SPLASHD_ROTATION"] == "90")
  }

  @Test func aDeviceThatGoesAwayIsNoLongerFollowed() throws {
    let splash = try Harness()
    let sensor = PipeAngles()
    splash.resolveRotation = { _, _ in
      ResolvedRotation(rotation: .none, source: "the test sensor", misses: [], followed: sensor)
    }
    splash.clock.at(1) { sensor.unplug() }
    splash.clock.at(3) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(
        [
          "--display", "offscreen", "--size", "32x32", "--rotate", "auto", "--duration", "0.1", "--until-reveal",
          "--timeout", "0", "--control", splash.controlPath,
        ]) == .exit(0))
    #expect(splash.lines.contains("splashd: rotation: test sensor: it hung up; no longer following it"))
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
  }
}

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
          HandOff(program: ["sh", "-c", "echo \"from the file\""], searchPath: "/usr/bin:/bin")!,
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

/// Which back end shows the splash.
@Suite struct OutputChoiceTests {
  @Test func autoPassesOverABackEndThatFailsAndSaysWhy() throws {
    let splash = try Harness()
    splash.backEnds = [brokenBackEnd, OffscreenOutput.backEnd]
    #expect(splash.run(["--size", "32x32", "--duration", "0"]) == .exit(0))
    #expect(splash.lines.first == "splashd: display broken: /dev/broken: no such screen; trying offscreen")
    #expect(splash.session?.stage.display == "offscreen")
    #expect(splash.playback?.skippedVsyncs == 0 && (splash.playback?.frames.count ?? 0) > 1)
  }

  @Test func aBackEndAskedForByNameThatFailsIsARuntimeFailure() throws {
    let splash = try Harness()
    #expect(splash.run(["--display", "broken"]) == .exit(1))
    #expect(splash.lines == ["splashd: --display broken: /dev/broken: no such screen"])
  }

  @Test func anUnknownBackEndIsNamedWithItsLine() throws {
    let splash = try Harness()
    let config = splash.dir.file("d.conf", "[splash]\n\ndisplay = vulkan\n")
    #expect(splash.run(["--config", config, "--check"]) == .exit(2))
    let names = splash.backEnds.map(\.name).joined(separator: ", ")
    #expect(
      splash.lines == [
        "splashd: \(config):3: display: expected auto, \(names.replacingOccurrences(of: ", broken", with: " or broken")), got \"vulkan\""
      ])
  }

  /// A screen's mode decides its size; the last frame is kept for a program
  /// that follows (exec'd or spawned), and only then.
  @Test func aScreenKeepsItsModeAndItsLastFrameForTheProgram() throws {
    let splash = try Harness()
    _ = splash.run(["--display", "screen", "--size", "1920x1080", "--duration", "0", "--", "/bin/true"])
    #expect(splash.lines.contains("splashd: screen: --size 1920x1080 does not apply; the mode is 640x480"))
    #expect(splash.lines.contains("splashd: screen: 640x480 stub"))
    #expect(splash.screens.opened.first?.keptLastFrame == true)
    let alone = try Harness()
    #expect(alone.run(["--display", "screen", "--duration", "0"]) == .exit(0))
    #expect(alone.screens.opened.first?.keptLastFrame == false)
    // A spawned program follows too: it starts with the last frame (this once went back to the console).
    let spawned = try Harness()
    #expect(
      spawned.run(["--display", "screen", "--duration", "0", "--ready", "notify", "--timeout", "0", "--", "/bin/true"])
        == .exit(0))
    #expect(spawned.screens.opened.first?.keptLastFrame == true)
  }
}

/// A program that fails at once and is restarted by systemd, again and
/// again: only its first start gets the splash.
@Suite struct RestartLoopTests {
  func isHandOff(_ ending: Ending) -> Bool {
    if case .handOff = ending { return true }
    return false
  }

  @Test func aStartSoonAfterTheLastHandOffHandsOffAtOnce() throws {
    let splash = try Harness()
    splash.handOffRecord = splash.dir.path + "/run/last-hand-off"
    let arguments = ["--display", "screen", "--duration", "0.1", "--", "/bin/true"]
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 1)
    // Started again (a moment later on this clock): straight to the program, said once.
    splash.clock.advance(by: 2)
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 1)
    let said = splash.lines.filter { $0.hasPrefix("splashd: restart: ") }
    #expect(
      said.count == 1
        && said.first?.hasSuffix("; handing off at once, without the splash (--restart-window 30)") == true, "\(said)")
    // Past the window, or another program, or the window off: the splash plays.
    splash.clock.advance(by: 31)
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 2)
    #expect(isHandOff(splash.run(arguments.dropLast() + ["/bin/echo"])))
    #expect(splash.screens.opened.count == 3)
    #expect(isHandOff(splash.run(["--restart-window", "0"] + arguments)))
    #expect(splash.screens.opened.count == 4)
  }

  @Test func outsideSystemdEveryStartPlays() throws {
    let splash = try Harness()
    let arguments = ["--display", "screen", "--duration", "0.1", "--", "/bin/true"]
    for _ in 0..<2 { _ = splash.run(arguments) }
    #expect(splash.screens.opened.count == 2)
  }
}

/// The kernel command line's nosplash still runs the program the config
/// file names (`exec`), not only one given after `--`.
@Suite struct NoSplashTests {
  @Test func nosplashRunsTheConfigsProgram() throws {
    let splash = try Harness()
    let cmdline = splash.dir.file("cmdline", "ro quiet nosplash\n")
    let config = splash.dir.file(
      "exec.conf",
      "[splash]\ncache = \(splash.dir.cache)\n[handoff]\nexec = /bin/true\n[orientation]\ncmdline = \(cmdline)\n")
    let ending = splash.run(["--config", config, "--display", "screen", "--boot", "root"])
    #expect(
      ending == .handOff(HandOff(program: ["/bin/true"], searchPath: nil)!, environment: ["SPLASHD_ROTATION": "0"]))
    #expect(splash.screens.opened.isEmpty)
  }
}

/// The test sensor's pipe: its writer closed, its reader hangs up even
/// while a process spawned meanwhile runs (one another test spawns, with
/// every descriptor it inherits): the pipe is close-on-exec.
@Suite struct PipeAnglesTests {
  @Test func anUnpluggedSensorHangsUpWhileAChildRuns() throws {
    let sensor = PipeAngles()
    var pid: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("5"), nil]
    defer { for argument in arguments { free(argument) } }
    #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ) == 0)
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    sensor.unplug()
    var ready = pollfd(fd: sensor.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&ready, 1, 1000) == 1 && ready.revents & Int16(POLLHUP) != 0)
  }
}
