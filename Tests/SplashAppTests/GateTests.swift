// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// The held splash waiting for its gate (a file, a timeout, a signal), on
/// the test clock: no sleeps, and times exact to the frame.
@Suite struct GateTests {
  let quick = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05"]

  @Test func theSplashHoldsUntilTheFileAppearsEvenInDirectoriesNotYetMade() throws {
    let splash = try Harness()
    let ready = splash.dir.path + "/run/kiosk/ready"
    splash.clock.at(1) {
      try? FileManager.default.createDirectory(
        atPath: splash.dir.path + "/run/kiosk", withIntermediateDirectories: true)
    }
    splash.clock.at(2) { writeFile(atPath: ready, contents: nil) }
    let ending = splash.run(quick + ["--until-file", ready, "--", "/bin/sh", "-c", "exit 3"])
    guard case .handOff(let handOff, let environment) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(handOff.path == "/bin/sh" && environment == ["SPLASHD_ROTATION": "0"])
    #expect(splash.revealReason == "\(ready) exists")
    #expect(splash.logged("splashd: reveal: ", before: "splashd: will-disappear"))
    let held = try #require(splash.time(of: "splashd: will-disappear"))
    #expect(held >= 102 && held < 102 + 1.0 / 60 + 1e-9, "revealed at \(held)")
  }

  @Test func theTimeoutOpensTheGateCountedFromTheFirstFrame() throws {
    let splash = try Harness()
    #expect(splash.run(quick + ["--until-file", splash.dir.path + "/never", "--timeout", "3"]) == .exit(0))
    #expect(splash.gateTimedOut)
    let appeared = try #require(splash.time(of: "splashd: appeared"))
    let revealed = try #require(splash.time(of: "splashd: will-disappear"))
    #expect(abs(revealed - appeared - 3) < 1e-9)
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
  }

  /// A question asked of the person at the screen (a disk's passphrase)
  /// holds the gate past its timeout, and the timeout counts again from the
  /// answer: the boot waited for it, and needs the splash a while more.
  @Test func aQuestionHoldsTheGatePastItsTimeoutWhichCountsAgainFromTheAnswer() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    var asker: TestClient?
    var answer: [String] = []
    splash.clock.at(1) {
      asker = TestClient(splash.controlPath)
      asker?.send("ask-password Disk\n")
    }
    splash.clock.at(5) { console.type("pw\r") }
    splash.clock.at(6) { answer = asker?.replies ?? [] }
    let arguments = [
      "--until-reveal", "--timeout", "3", "--control", splash.controlPath, "--prompt-tty", console.terminal,
    ]
    #expect(splash.run(quick + arguments) == .exit(0))
    #expect(answer == ["ok pw"])
    #expect(splash.gateTimedOut)
    let revealed = try #require(splash.time(of: "splashd: will-disappear"))
    #expect(revealed >= 108 && revealed < 108 + 1.0 / 60 + 1e-9, "revealed at \(revealed)")
  }

  /// `--hold` and the gate's timeout count from the first frame on the
  /// screen, not from the start: here the first present takes 1.7 s.
  @Test func aSlowFirstFrameDoesNotEatTheHoldOrTheTimeout() throws {
    let splash = try Harness()
    splash.screens.cost = { $0 == 0 ? 1.7 : 0.004 }
    #expect(splash.run(["--display", "screen", "--hold", "1", "--duration", "0.1"]) == .exit(0))
    let appeared = try #require(splash.time(of: "splashd: appeared"))
    let transition = try #require(splash.time(of: "splashd: will-disappear"))
    #expect(appeared - 100 >= 1.7)
    #expect(transition - appeared >= 1 - 1.0 / 60 - 1e-9, "the hold was \(transition - appeared) s")

    let gated = try Harness()
    gated.screens.cost = { $0 == 0 ? 1.7 : 0.004 }
    #expect(
      gated.run(["--display", "screen", "--until-file", gated.dir.path + "/never", "--timeout", "2"]) == .exit(0))
    let shown = try #require(gated.time(of: "splashd: appeared"))
    let timedOut = try #require(gated.time(of: "splashd: reveal: timeout"))
    #expect(abs(timedOut - shown - 2) < 1e-9)
  }

  @Test func sigtermWhileWaitingEndsTheSplashAndStillHandsOff() throws {
    let splash = try Harness()
    splash.clock.at(5) { splash.signals.send(SIGTERM) }
    let ending = splash.run(quick + ["--until-file", splash.dir.path + "/never", "--timeout", "0", "--", "/bin/true"])
    guard case .handOff(let handOff, _) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(handOff.path == "/bin/true")
    #expect(splash.stopReason == "SIGTERM")
    #expect(!splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
    #expect(splash.time(of: "splashd: ended early") == 105)
  }

  @Test func theConfigFileCanSetTheGate() throws {
    let splash = try Harness()
    let config = splash.dir.file("gate.conf", "[handoff]\nuntil-file = flag\ntimeout = 0.2\n")
    #expect(splash.run(["--config", config] + quick) == .exit(0))
    #expect(splash.gateTimedOut)
    let opened = try Harness()
    let flagged = opened.dir.file("gate.conf", "[handoff]\nuntil-file = flag\ntimeout = 0.2\n")
    opened.dir.file("flag", "")
    #expect(opened.run(["--config", flagged] + quick) == .exit(0))
    #expect(opened.revealReason == "\(opened.dir.path)/flag exists")
  }
}
