// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Host mode in process, on the test clock: the session with its
/// compositor stood in for (`FakeWaylandHost`) and a real program (`sleep`,
/// ended by the test): the reveal on the program's first frame, an early
/// reveal that waits for it, a program that disconnects or ends first, the
/// window turned with the screen, and the restart loop with its returns to
/// the splash. The real compositor with real programs is HostModeTests'
/// (SplashdTests).
@Suite struct HostModeSessionTests {
  /// The program's colour, and the splash's background.
  static let programColor: UInt32 = 0x00_20C0_40
  static let background = "#102030"

  /// A harness whose host mode gets the stand-in compositor.
  func harness() throws -> Harness {
    let splash = try Harness()
    splash.fakesWaylandHost = true
    // Small: the debug build's cross-fades are slow.
    splash.screens.size = PixelSize(width: 160, height: 120)
    return splash
  }

  /// The options of a host-mode run of `program` on the stand-in screen.
  func arguments(_ more: [String] = [], program: [String] = ["sleep", "60"]) -> [String] {
    [
      "--display", "screen", "--host", "wayland", "--hold", "0", "--duration", "0.5", "--timeout", "10",
      "--background", Self.background,
    ] + more + ["--"] + program
  }

  /// Ends the program that runs now (SIGKILL), as a crash would.
  func killProgram(of splash: Harness) {
    guard let pid = splash.session?.kiosk?.program.spawned?.child.pid else {
      Issue.record("no program runs")
      return
    }
    kill(pid, SIGKILL)
  }

  /// The centre pixel of the stand-in screen's last frame, without alpha.
  func centre(of splash: Harness) -> UInt32? {
    guard let screen = splash.screens.opened.last else { return nil }
    let size = screen.canvas.size
    return screen.canvas.pixels()[size.height / 2 * size.width + size.width / 2] & 0xFF_FFFF
  }

  /// When the gate opened, and why.
  func gateOpened(_ splash: Harness) -> (at: Double, reason: String)? {
    for case .gateOpened(let at, let reason) in splash.session?.controller.playbackEvents ?? [] {
      return (at, reason)
    }
    return nil
  }

  @Test func theDoorsOpenOntoTheProgramsFirstFrame() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in splash.clock.at(2) { host.commit(color: Self.programColor) } }
    var shown: UInt32?
    var status = ""
    splash.clock.at(4) {
      shown = centre(of: splash)
      status = splash.session?.controller.statusLine() ?? ""
    }
    splash.clock.at(5) { killProgram(of: splash) }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    let opened = try #require(gateOpened(splash))
    #expect(opened.reason == "the program's first frame" && opened.at >= 102, "\(splash.lines)")
    // After the doors, the program alone.
    #expect(shown == Self.programColor, "\(splash.lines)")
    #expect(status.contains("phase=done") && status.contains("program=shown windows=1"), "\(status)")
    #expect((splash.waylandHost?.framesDone ?? 0) > 0)
    // It ended on its own, without a restart: the splash does not come back.
    #expect(splash.screens.opened.last?.keptLastFrame == false)
  }

  @Test func anEarlyRevealWaitsForTheProgramsFirstFrame() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in splash.clock.at(3) { host.commit(color: Self.programColor) } }
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    var waiting = ""
    splash.clock.at(2) { waiting = splash.session?.controller.statusLine() ?? "" }
    splash.clock.at(5) { killProgram(of: splash) }
    #expect(
      splash.run(arguments(["--until-reveal", "--control", splash.controlPath])) == .exit(128 + SIGKILL))
    #expect(waiting.contains("phase=waiting") && waiting.contains("program=starting"), "\(waiting)")
    let opened = try #require(gateOpened(splash))
    #expect(opened.reason == "splashctl reveal" && opened.at >= 103, "\(splash.lines)")
  }

  @Test func aFrameWithNothingInItIsNotTheFirst() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: 0, hasAlpha: true) }
      splash.clock.at(3) { host.commit(color: 0xFF00_0000 | Self.programColor, hasAlpha: true) }
    }
    splash.clock.at(5) { killProgram(of: splash) }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    let opened = try #require(gateOpened(splash))
    #expect(opened.reason == "the program's first frame" && opened.at >= 103, "\(splash.lines)")
  }

  @Test func aProgramThatClosesItsConnectionIsNoLongerWaitedFor() throws {
    let splash = try harness()
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    splash.clock.at(2) { splash.waylandHost?.disconnectAll() }
    var after = ""
    splash.clock.at(2.1) { after = splash.session?.controller.statusLine() ?? "" }
    splash.clock.at(5) { killProgram(of: splash) }
    #expect(
      splash.run(arguments(["--until-reveal", "--control", splash.controlPath])) == .exit(128 + SIGKILL))
    #expect(after.contains("program=disconnected"), "\(after)")
    let opened = try #require(gateOpened(splash))
    #expect(opened.reason == "splashctl reveal" && opened.at >= 102 && opened.at < 103, "\(splash.lines)")
  }

  @Test func aProgramThatEndsBeforeItsFirstFrameEndsTheSplash() throws {
    let splash = try harness()
    // No timeout: the gate waits for the program's end, which comes in real time.
    #expect(splash.run(arguments(["--timeout", "0"], program: ["true"])) == .exit(0))
    #expect(splash.stopReason?.hasSuffix("/true ended") == true, "\(splash.lines)")
    // No doors onto nothing.
    let events = splash.session?.controller.playbackEvents ?? []
    #expect(!events.contains { if case .willDisappear = $0 { true } else { false } }, "\(events)")
  }

  @Test func theProgramsWindowTurnsWithTheScreen() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in splash.clock.at(1) { host.commit(color: Self.programColor) } }
    splash.clock.at(3) { TestClient(splash.controlPath).send("rotate 90\n") }
    splash.clock.at(5) { killProgram(of: splash) }
    #expect(splash.run(arguments(["--control", splash.controlPath])) == .exit(128 + SIGKILL))
    let host = try #require(splash.waylandHost)
    // The screen is 160x120: turned, the window is 120x160.
    #expect(host.resizes == [PixelSize(width: 120, height: 160)], "\(splash.lines)")
    #expect(splash.session?.controller.rotation == .quarter)
    // Touches turn with the screen: the panel's top-left is the window's bottom-left.
    let map = try #require(host.inputMaps.first?.standard)
    #expect(map == Rotation.quarter.logicalPointMap(inLogical: PixelSize(width: 120, height: 160)), "\(map)")
  }

  @Test func aProgramThatFailsIsStartedAgainUnderTheSplashUntilTheLimit() throws {
    let splash = try harness()
    var messages: [String?] = []
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        // What the splash says while the program starts (again).
        messages.append(splash.session?.stage.status.message)
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 3) { killProgram(of: splash) }
      }
    }
    #expect(
      splash.run(arguments(["--restart", "on-failure", "--restart-limit", "2"])) == .exit(128 + SIGKILL))
    let host = try #require(splash.waylandHost)
    #expect(host.connections == 3, "\(splash.lines)")
    #expect(
      messages == [
        nil, "sleep was ended by signal 9; starting it again (restart 1)",
        "sleep was ended by signal 9; starting it again (restart 2)",
      ], "\(messages)")
    // At the limit the splash came back and stays, with its message.
    #expect(splash.session?.stage.status.message == "sleep was ended by signal 9; not started again after 2 restarts")
    #expect(splash.session?.controller.statusLine().contains("restarts=2") == true)
    #expect(splash.screens.opened.last?.keptLastFrame == true)
    #expect(centre(of: splash) != Self.programColor)
    // Each start was revealed by its own first frame.
    let reveals = (splash.session?.controller.playbackEvents ?? []).compactMap { event -> String? in
      if case .gateOpened(_, let reason) = event { reason } else { nil }
    }
    #expect(reveals == Array(repeating: "the program's first frame", count: 3), "\(reveals)")
  }

  /// A question asked after the splash (a later unlock) brings the splash
  /// back over the program, nothing typed reaching the program, and the
  /// program back once it is answered: it is answered for real, not
  /// refused while Plymouth's PID file says a splash asks the questions.
  @Test func aQuestionAfterTheSplashBringsItBackUntilItIsAnswered() throws {
    let splash = try harness()
    let console = try PseudoTerminal()
    splash.onWaylandHost = { host in splash.clock.at(1) { host.commit(color: Self.programColor) } }
    var asker: TestClient?
    var during: (pixel: UInt32?, withheld: Bool?, status: String)?
    var after: (pixel: UInt32?, withheld: Bool?)?
    splash.clock.at(3) {
      asker = TestClient(splash.controlPath)
      asker?.send("ask-password Unlock backup:\n")
    }
    splash.clock.at(5) {
      during = (
        centre(of: splash), splash.waylandHost?.inputWithheld, splash.session?.controller.statusLine() ?? ""
      )
      console.type("pw\r")
    }
    splash.clock.at(8) { after = (centre(of: splash), splash.waylandHost?.inputWithheld) }
    splash.clock.at(9) { killProgram(of: splash) }
    #expect(
      splash.run(arguments(["--control", splash.controlPath, "--prompt-tty", console.terminal]))
        == .exit(128 + SIGKILL))
    #expect(during?.pixel != nil && during?.pixel != Self.programColor, "\(splash.lines)")
    #expect(during?.withheld == true && during?.status.contains("asking=1") == true, "\(String(describing: during))")
    #expect(asker?.replies == ["ok pw"])
    #expect(after?.pixel == Self.programColor && after?.withheld == false, "\(String(describing: after))")
  }

  /// Plymouth's `deactivate` after the splash (a package script, a
  /// distribution's shutdown) does not freeze the program: no other program
  /// takes the screen from its compositor.
  @Test func plymouthsDeactivateAfterTheSplashLeavesTheProgramDrawing() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor) }
      splash.clock.at(4) { host.commit(color: 0x00_4080_F0) }
    }
    splash.clock.at(3) { _ = splash.session?.controller.execute(.pauseDrawing, because: "plymouth deactivate") }
    var shown: UInt32?
    splash.clock.at(5) { shown = centre(of: splash) }
    splash.clock.at(6) { killProgram(of: splash) }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    #expect(shown == 0x00_4080_F0, "\(splash.lines)")
    #expect(splash.session?.stage.isPaused == false)
  }
}
