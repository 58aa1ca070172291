// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
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
    splash.clock.at(5) { splash.killProgram() }
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
    splash.clock.at(5) { splash.killProgram() }
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
    splash.clock.at(5) { splash.killProgram() }
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
    splash.clock.at(5) { splash.killProgram() }
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
    splash.clock.at(5) { splash.killProgram() }
    #expect(splash.run(arguments(["--control", splash.controlPath])) == .exit(128 + SIGKILL))
    let host = try #require(splash.waylandHost)
    // The screen is 160x120: turned, the window is 120x160.
    #expect(host.resizes == [PixelSize(width: 120, height: 160)], "\(splash.lines)")
    #expect(splash.session?.controller.rotation == .quarter)
    // Touches turn with the screen: the panel's top-left is the window's bottom-left.
    let map = try #require(host.inputMaps.first?.standard)
    #expect(map == Rotation.quarter.logicalPointMap(inLogical: PixelSize(width: 120, height: 160)), "\(map)")
  }

  /// Pinned to a screen that is not there, the program shows on the first
  /// screen all the same, and the log says so once, not at each change of
  /// the screens (a turn here).
  @Test func aProgramPinnedToAScreenThatIsNotThereShowsOnTheFirst() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in splash.clock.at(1) { host.commit(color: Self.programColor) } }
    var shown: UInt32?
    splash.clock.at(3) { TestClient(splash.controlPath).send("rotate 90\n") }
    splash.clock.at(4) { shown = centre(of: splash) }
    splash.clock.at(5) { splash.killProgram() }
    #expect(
      splash.run(arguments(["--control", splash.controlPath, "--screens", "HDMI-A-9"])) == .exit(128 + SIGKILL))
    #expect(shown == Self.programColor, "\(splash.lines)")
    #expect(splash.waylandHost?.resizes == [PixelSize(width: 120, height: 160)], "\(splash.lines)")
    let said = splash.lines.filter { $0.contains("--screens: no screen HDMI-A-9 among ") }
    #expect(said.count == 1 && said[0].hasSuffix(" until it is plugged in"), "\(splash.lines)")
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
        splash.clock.atTime(now + 3) { splash.killProgram() }
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
    splash.clock.at(9) { splash.killProgram() }
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
    splash.clock.at(6) { splash.killProgram() }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    #expect(shown == 0x00_4080_F0, "\(splash.lines)")
    #expect(splash.session?.stage.isPaused == false)
  }

  /// A pixel of `page` (what it holds, as painted: XRGB).
  func pixel(_ page: OffscreenOutput, _ x: Int, _ y: Int) -> UInt32 {
    page.pixels()[y * page.size.width + x] & 0xFF_FFFF
  }

  /// Writes a pixel into `page` behind the stage's back: a frame drawn
  /// whole paints over it, one drawn only where something changed does not.
  func mark(_ page: OffscreenOutput, _ x: Int, _ y: Int) {
    let surface = page.frame.surface.pointee
    (surface.pixels! + y * Int(surface.pitch)).assumingMemoryBound(to: UInt32.self)[x] = Self.marker
  }
  static let marker: UInt32 = 0x12_3456

  /// Every pixel of `page` as a whole repaint would draw it: `base`, but
  /// the rectangles given their colours (and the marked pixel, which only
  /// a partial repaint keeps); where it differs, the first such pixel.
  func differences(
    _ page: OffscreenOutput, base: UInt32, _ rects: [(PixelRect, UInt32)], marked: (Int, Int)?
  ) -> String? {
    let size = page.size
    let pixels = page.pixels()
    for y in 0..<size.height {
      for x in 0..<size.width {
        var expected = base
        for (rect, color) in rects
        where x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height {
          expected = color
        }
        if let marked, marked == (x, y) { expected = Self.marker }
        if pixels[y * size.width + x] & 0xFF_FFFF != expected {
          return
            "(\(x),\(y)) is \(String(pixels[y * size.width + x] & 0xFF_FFFF, radix: 16)), not \(String(expected, radix: 16))"
        }
      }
    }
    return nil
  }

  /// A frame of which part changed is drawn only there (a pixel written
  /// outside it behind the stage's back survives), and the screen shows
  /// what a whole repaint would.
  @Test func aFrameOfWhichPartChangedIsDrawnOnlyThere() throws {
    let splash = try harness()
    splash.screens.retainFrames = true
    let part = PixelRect(x: 40, y: 30, width: 20, height: 20)
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor) }
      splash.clock.at(4) { host.commit(color: 0x00_FF00_00, damage: part) }
    }
    splash.clock.at(3.5) { if let page = splash.screens.opened.last?.canvas { mark(page, 0, 0) } }
    var seen: String??
    splash.clock.at(5) {
      guard let page = splash.screens.opened.last?.canvas else { return }
      seen = differences(page, base: Self.programColor, [(part, 0xFF_0000)], marked: (0, 0))
    }
    splash.clock.at(6) { splash.killProgram() }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    #expect(seen == .some(nil), "\(String(describing: seen))")
  }

  /// On a screen of two pages flipped in turn, the page painted holds the
  /// frame before last: a frame draws what changed in it and in the frame
  /// before, and the screen shows what a whole repaint would.
  @Test func onFlippedPagesAFrameDrawsWhatChangedSinceThePageWasPainted() throws {
    let splash = try harness()
    let first = PixelRect(x: 40, y: 30, width: 20, height: 20)
    let second = PixelRect(x: 100, y: 80, width: 10, height: 10)
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor) }
      splash.clock.at(4) { host.commit(color: 0xFF_0000, damage: first) }
      splash.clock.at(4.5) { host.commit(color: 0x00_00FF, damage: second) }
    }
    splash.clock.at(3.5) { for page in splash.screens.flipping.last?.pages ?? [] { mark(page, 0, 0) } }
    var seen: String??
    splash.clock.at(5) {
      guard let screen = splash.screens.flipping.last else { return }
      seen = differences(
        screen.pages[screen.shown], base: Self.programColor, [(first, 0xFF_0000), (second, 0x00_00FF)],
        marked: (0, 0))
    }
    splash.clock.at(6) { splash.killProgram() }
    let options = arguments().map { $0 == "screen" ? "flipping" : $0 }
    #expect(splash.run(options) == .exit(128 + SIGKILL))
    #expect(seen == .some(nil), "\(String(describing: seen))")
  }

  /// A window smaller than the screen, centred on it: only what changed is
  /// copied into its picture and drawn.
  @Test func aSmallWindowsChangedPartIsAllThatIsCopiedAndDrawn() throws {
    let splash = try harness()
    splash.screens.retainFrames = true
    let window = PixelSize(width: 80, height: 60)
    let part = PixelRect(x: 10, y: 10, width: 20, height: 20)
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor, size: window) }
      splash.clock.at(4) { host.commit(color: 0xFF_0000, size: window, damage: part) }
    }
    splash.clock.at(3.5) { if let page = splash.screens.opened.last?.canvas { mark(page, 0, 0) } }
    var seen: [UInt32] = []
    splash.clock.at(5) {
      guard let page = splash.screens.opened.last?.canvas else { return }
      // The window lies at (40, 30); its changed part at (50, 40).
      seen = [pixel(page, 0, 0), pixel(page, 55, 45), pixel(page, 45, 35), pixel(page, 10, 100)]
    }
    splash.clock.at(6) { splash.killProgram() }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    #expect(seen == [Self.marker, 0xFF_0000, Self.programColor, 0x10_2030], "\(seen.map { String($0, radix: 16) })")
  }
}
