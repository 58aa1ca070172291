// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode's layer surfaces (wlr-layer-shell): an on-screen keyboard
/// docked at the screen's edge (Debian's wvkbd), bands of the test's own
/// (tools/test/wayland/layer-surface.py) beside a program that takes each
/// size it is configured to (tools/test/wayland/resizing-window.py), and the
/// bounds a layer client is held to.
@Suite struct HostModeLayerTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// resizing-window's colour, and layer-surface's.
  static var program: UInt32 { 0x208040 }
  static var band: UInt32 { 0xC08020 }

  /// The sizes resizing-window was configured to, in order.
  func sizes() -> [String] {
    ((try? String(contentsOfFile: dir.path + "/sizes", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// Runs splashd with resizing-window as its program (its sizes logged
  /// in `sizes`) and, once the program shows alone, `act`; then stops it.
  /// splashd's outcome.
  func withTheResizingWindow(_ act: () -> Void) throws -> Outcome {
    try spawnSplashd(
      splash + [
        "--duration", "0.2", "--", "python3", packageRoot + "/tools/test/wayland/resizing-window.py",
        dir.path + "/sizes",
      ],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgramAlone() else { return }
        act()
      }
    ).1
  }

  /// What wev, the program of `withWev`, has printed.
  func heard() -> String { (try? String(contentsOfFile: dir.path + "/wev.txt", encoding: .utf8)) ?? "" }

  /// Runs splashd (`options` after the test's splash) with wev as its
  /// program, its events in `heard`, and `act` while it runs; then stops
  /// it. splashd's outcome.
  func withWev(_ options: [String] = [], _ act: () -> Void) throws -> Outcome {
    try spawnSplashd(
      splash + options + ["--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(dir.path)/wev.txt"],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        act()
      }
    ).1
  }

  /// Whether `screen` shows `color` along the rows `rows` (sampled).
  func filled(_ screen: Screendump?, _ rows: Range<Int>, with color: UInt32) -> Bool {
    guard let screen else { return false }
    return stride(from: rows.lowerBound, to: rows.upperBound, by: 7).allSatisfy { y in
      stride(from: 0, to: screen.width, by: 9).allSatisfy { screen.at($0, y) == color }
    }
  }

  /// A band docked at the bottom (anchored bottom, left and right, 60
  /// pixels high, an exclusive zone of 60) is configured the screen's width,
  /// drawn over the bottom of the screen, and takes its zone from the
  /// program's window, which is configured 320x180 and shown above it; hidden
  /// (a commit without a buffer) and shown again, it gives the zone back and
  /// takes it again; gone, the program is configured the whole screen again.
  @Test func aBandTakesItsZoneFromTheProgramAndGivesItBack() throws {
    let commands = dir.path + "/commands"
    var shown: Screendump?
    var hidden: Screendump?
    var reshown: Screendump?
    var gone: Screendump?
    var lines: [String] = []
    let outcome = try withTheResizingWindow {
      guard let band = try? layerSurface([], commands: commands) else { return }
      defer { lines = said(band) }
      guard waitUntil(20, { said(band) == ["shown 320x60"] && sizes().last == "320x180" }) else { return }
      _ = waitUntil(10) {
        shown = snapshot("shown")?.screen
        return filled(shown, 0..<180, with: Self.program) && filled(shown, 180..<240, with: Self.band)
      }
      tell(commands, "hide")
      guard waitUntil(20, { said(band).last == "hidden" && sizes().last == "320x240" }) else { return }
      _ = waitUntil(10) {
        hidden = snapshot("hidden")?.screen
        return filled(hidden, 0..<240, with: Self.program)
      }
      tell(commands, "show")
      guard waitUntil(20, { said(band).last == "shown 320x60" && sizes().last == "320x180" }) else { return }
      _ = waitUntil(10) {
        reshown = snapshot("reshown")?.screen
        return filled(reshown, 0..<180, with: Self.program) && filled(reshown, 180..<240, with: Self.band)
      }
      tell(commands, "quit")
      _ = try? band.finish(timeout: 10)
      guard waitUntil(20, { sizes().last == "320x240" }) else { return }
      _ = waitUntil(10) {
        gone = snapshot("gone")?.screen
        return filled(gone, 0..<240, with: Self.program)
      }
    }
    let note = "\(lines) \(sizes()) \(outcome.stderr)"
    shown?.keep(as: "host-mode-layer-band")
    #expect(filled(shown, 0..<180, with: Self.program) && filled(shown, 180..<240, with: Self.band), "\(note)")
    #expect(filled(hidden, 0..<240, with: Self.program), "\(note)")
    #expect(filled(reshown, 0..<180, with: Self.program) && filled(reshown, 180..<240, with: Self.band), "\(note)")
    #expect(filled(gone, 0..<240, with: Self.program), "\(note)")
    #expect(sizes() == ["320x240", "320x180", "320x240", "320x180", "320x240"], "\(note)")
  }

  /// Debian's on-screen keyboard, wvkbd (a layer surface on the top layer
  /// and a virtual keyboard), docks at the bottom of an 800x480 screen, 200
  /// pixels high: the program (wev) is configured 800x280 and shown above
  /// it; a tap on its "a" (a client's virtual pointer) types an "a" into the
  /// program, whose window keeps the keyboard's focus; once wvkbd ends, the
  /// program is configured the whole screen again.
  @Test func anOnScreenKeyboardDocksAndTypesIntoTheProgram() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var docked: Screendump?
    var typed = false
    var undocked = false
    let outcome = try withWev(["--size", "800x480"]) {
      // The pointer first, so that wvkbd has the seat's pointer from its start.
      guard let pointer = virtualPointerOnceAlone(clickingAt: 115.0 / 800, 395.0 / 480, when: go, approaching: true),
        waitUntil(20, { heard().contains("capabilities: pointer") }),
        let keyboard = try? StartedProcess("/usr/bin/wvkbd-mobintl", ["-H", "200"], environment: displayEnvironment)
      else { return }
      defer {
        kill(keyboard.pid, SIGTERM)
        _ = try? keyboard.finish(timeout: 10)
        // A second configure to the whole screen (the first came before wvkbd).
        undocked = waitUntil(20) { heard().components(separatedBy: "configure: width: 800; height: 480").count > 2 }
      }
      guard waitUntil(20, { heard().contains("configure: width: 800; height: 280") }) else { return }
      _ = waitUntil(10) {
        docked = snapshot("docked")?.screen
        return docked != nil
      }
      // wvkbd 0.12's "a" (the fourth row of six in the bottom 200 pixels,
      // the second key), tapped once wvkbd is shown (it took the seat's
      // pointer before it drew).
      guard say(go: go) else { return }
      typed = waitUntil(20) { heard().contains("sym: a") }
      _ = try? pointer.finish(timeout: 10)
    }
    let note = "\(heard().suffix(2000)) \(outcome.stderr)"
    #expect(typed, "the tap on wvkbd's a typed nothing into wev: \(note)")
    #expect(undocked, "wev was not configured the whole screen again: \(note)")
    let screen = try #require(docked, "no snapshot with wvkbd docked: \(note)")
    screen.keep(as: "host-mode-wvkbd")
    // Above the keyboard, wev's checkerboard of two colours; below, wvkbd's keys.
    let above = Set(
      stride(from: 0, to: 280, by: 10).flatMap { y in stride(from: 0, to: 800, by: 10).map { screen.at($0, y) } })
    #expect(above.count <= 2, "\(above.map { String($0, radix: 16) })")
    let below = stride(from: 285, to: 480, by: 10).flatMap { y in
      stride(from: 5, to: 800, by: 10).map { screen.at($0, y) }
    }
    #expect(below.filter { !above.contains($0) }.count * 10 >= below.count * 8, "wvkbd's keys are not at the bottom")
  }
}

extension HostModeLayerTests {
  /// What a layer client may ask is bounded, and the program keeps its
  /// window: a band asking for an exclusive zone of 10000 pixels and as
  /// high takes at most half the screen (the program is configured
  /// 320x120); twenty bands of one client at once, past its 8, have the
  /// rest closed, and their zones together still leave the program half; a band
  /// 0 pixels wide without both side anchors is a protocol error for its
  /// client alone. The program is shown throughout.
  @Test func aLayerClientIsHeldToItsBounds() throws {
    var greedy: [String] = []
    var many: [String] = []
    var zero: Outcome?
    var sizesAfterGreedy: [String] = []
    var stillShown = false
    let outcome = try withTheResizingWindow {
      let commands = dir.path + "/commands"
      if let band = try? layerSurface(["--size", "0x10000", "--zone", "10000"], commands: commands) {
        _ = waitUntil(20) { !said(band).isEmpty && sizes().last == "320x120" }
        greedy = said(band)
        sizesAfterGreedy = sizes()
        tell(commands, "quit")
        _ = try? band.finish(timeout: 10)
      }
      _ = waitUntil(20) { sizes().last == "320x240" }
      if let bands = try? layerSurface(["--count", "20"], commands: commands) {
        _ = waitUntil(20) { said(bands).count == 20 }
        many = said(bands)
        tell(commands, "quit")
        _ = try? bands.finish(timeout: 10)
      }
      zero = try? run(
        packageRoot + "/tools/test/wayland/layer-surface.py", ["--anchor", "bottom", "--size", "0x60"],
        environment: displayEnvironment)
      stillShown = splashctl(["status"])?.stdout.contains(" program=shown") == true
    }
    let note = outcome.stderr
    #expect(greedy == ["shown 320x240"], "\(greedy) \(note)")
    #expect(sizesAfterGreedy.last == "320x120", "\(sizesAfterGreedy) \(note)")
    #expect(many.filter { $0 == "shown 320x60" }.count == 8 && many.filter { $0 == "closed" }.count == 12, "\(many)")
    #expect(!sizes().contains { $0 != "320x240" && $0 != "320x180" && $0 != "320x120" }, "\(sizes())")
    #expect(
      zero?.status == 1 && zero?.stderr.contains("needs the surface anchored to both edges") == true,
      "\(String(describing: zero))")
    #expect(stillShown, "\(note)")
  }

  /// A layer surface above the windows that asks for the keyboard alone
  /// (a lock screen's: the overlay layer, exclusive interactivity) takes it
  /// from the program (wev hears its keyboard leave) and gives it back when
  /// it goes (wev's window entered again).
  @Test func anExclusiveOverlayTakesTheKeyboardAndGivesItBack() throws {
    func count(_ text: String) -> Int { heard().components(separatedBy: text).count - 1 }
    var left = false
    var entered = false
    let outcome = try withWev {
      let commands = dir.path + "/commands"
      // A keyboard for the seat first (wtype's, held 20 s), so that wev has one to lose.
      guard waitForTheProgramAlone(),
        let keyboard = try? StartedProcess("/usr/bin/wtype", ["-s", "20000"], environment: displayEnvironment)
      else { return }
      defer { kill(keyboard.pid, SIGTERM) }
      guard waitUntil(20, { count("wl_keyboard] enter:") > 0 }),
        let lock = try? layerSurface(
          [
            "--layer", "overlay", "--keyboard", "exclusive", "--anchor", "top,bottom,left,right", "--size", "0x0",
            "--zone", "-1",
          ], commands: commands)
      else { return }
      left = waitUntil(20) { count("wl_keyboard] leave:") > 0 }
      tell(commands, "quit")
      _ = try? lock.finish(timeout: 10)
      entered = waitUntil(20) { count("wl_keyboard] enter:") > count("wl_keyboard] leave:") }
    }
    #expect(left, "the program kept the keyboard under the lock: \(heard().suffix(1500)) \(outcome.stderr)")
    #expect(entered, "the program did not get the keyboard back: \(heard().suffix(1500))")
  }
}

extension HostModeLayerTests {
  /// A band that takes the keyboard on demand (a launcher's search field:
  /// on-demand interactivity) has it only once pressed on: shown, it leaves
  /// the keys with the program (wev); clicked, it hears the keyboard enter
  /// and the key typed, which the program does not; asking for no keys it
  /// loses it, and asking on demand again it does not have it back until
  /// clicked again; and a click on the program's window gives the keyboard
  /// back to it. wtype types each key
  /// (a virtual keyboard), another holds one on the seat throughout (so that
  /// the band's client has a keyboard to be given from its start).
  @Test func anOnDemandBandHasTheKeyboardOnceClicked() throws {
    let keys = dir.path + "/band-keys.txt"
    let (toBand, toWindow) = (dir.path + "/band-go", dir.path + "/window-go")
    #expect(mkfifo(toBand, 0o600) == 0 && mkfifo(toWindow, 0o600) == 0)
    func bandHeard() -> String { (try? String(contentsOfFile: keys, encoding: .utf8)) ?? "" }
    func count(_ line: String, in text: String) -> Int { text.split(separator: "\n").filter { $0 == line }.count }
    func type(_ text: String) -> Bool {
      (try? StartedProcess("/usr/bin/wtype", [text], environment: displayEnvironment).finish(timeout: 20))?.status == 0
    }
    var steps: [String: Bool] = [:]
    let outcome = try withWev {
      let commands = dir.path + "/commands"
      // The band: the bottom 60 of 240 rows; the window above it.
      guard let onBand = virtualPointerOnceAlone(clickingAt: 0.5, 210.0 / 240, when: toBand),
        let onWindow = virtualPointer(clickingAt: 0.5, 60.0 / 240, when: toWindow),
        let held = try? StartedProcess("/usr/bin/wtype", ["-s", "60000"], environment: displayEnvironment)
      else { return }
      defer { kill(held.pid, SIGTERM) }
      guard waitUntil(20, { heard().contains("wl_keyboard] enter:") }),
        let band = try? layerSurface(["--keyboard", "on_demand", "--keys", keys], commands: commands)
      else { return }
      defer {
        tell(commands, "quit")
        _ = try? band.finish(timeout: 10)
      }
      guard waitUntil(20, { said(band).contains("shown 320x60") }) else { return }
      steps["the program keeps the keys"] = type("b") && waitUntil(20) { heard().contains("sym: b") }
      steps["the band clicked has the keyboard"] =
        say(go: toBand) && waitUntil(20) { bandHeard().contains("enter") }
      steps["the band hears the key"] = type("c") && waitUntil(20) { bandHeard().contains("key ") }
      // No keys asked for: the program has the keyboard; on demand again: still the program's.
      tell(commands, "keyboard none")
      steps["the band that asks for none loses it"] =
        waitUntil(20) { bandHeard().contains("leave") } && type("e") && waitUntil(20) { heard().contains("sym: e") }
      tell(commands, "keyboard on_demand")
      steps["asking again is not pressing"] =
        waitUntil(20) { said(band).contains("keyboard on_demand") } && type("f")
        && waitUntil(20) { heard().contains("sym: f") }
      _ = try? onBand.finish(timeout: 10)
      let toBandAgain = dir.path + "/band-again-go"
      guard mkfifo(toBandAgain, 0o600) == 0,
        let onBandAgain = virtualPointer(clickingAt: 0.5, 210.0 / 240, when: toBandAgain)
      else { return }
      steps["the band clicked again has it"] =
        say(go: toBandAgain) && waitUntil(20) { count("enter", in: bandHeard()) == 2 }
      _ = try? onBandAgain.finish(timeout: 10)
      steps["the window clicked has it back"] =
        say(go: toWindow) && waitUntil(20) { count("leave", in: bandHeard()) == 2 }
      steps["the program hears the key"] = type("d") && waitUntil(20) { heard().contains("sym: d") }
      _ = try? onWindow.finish(timeout: 10)
    }
    let note = "\(steps) band: \(bandHeard()) wev: \(heard().suffix(1500)) \(outcome.stderr)"
    for step in [
      "the program keeps the keys", "the band clicked has the keyboard", "the band hears the key",
      "the band that asks for none loses it", "asking again is not pressing", "the band clicked again has it",
      "the window clicked has it back", "the program hears the key",
    ] {
      #expect(steps[step] == true, "\(step): \(note)")
    }
    #expect(!heard().contains("sym: c"), "the key typed into the band reached the program: \(note)")
  }
}

extension HostModeLayerTests {
  /// A layer client playing with its popups (tools/test/wayland/layer-popup.py)
  /// harms only itself: a popup given to its band twice, or given again
  /// once the band's unmapping destroyed it, is a protocol error for that
  /// client (before, wlroots 0.15.1 listed it twice, and the compositor
  /// looped for good drawing the band, or read the inert popup through
  /// NULL and crashed); a popup of a layer surface destroyed unmapped goes
  /// with it, and a popup made of that popup after is no harm (its place
  /// is no longer looked up through the gone layer surface). The program is
  /// shown throughout, and splashd runs on.
  @Test(arguments: ["twice", "inert", "orphan", "orphan-child"])
  func aLayerClientsPopupsHarmOnlyItself(case name: String) throws {
    var answer: Outcome?
    var stillShown = false
    let outcome = try withTheResizingWindow {
      answer = try? run(
        packageRoot + "/tools/test/wayland/layer-popup.py", [name], environment: displayEnvironment, timeout: 30)
      // A snapshot composes the band with its popups: it comes back.
      stillShown =
        snapshot("after")?.screen != nil && splashctl(["status"])?.stdout.contains(" program=shown") == true
    }
    let said = answer?.stdout ?? ""
    if name == "orphan" {
      #expect(said == "served\n", "\(String(describing: answer)) \(outcome.stderr)")
    } else if name == "orphan-child" {
      // Its parent gone with the layer surface: served, or refused as having none.
      #expect(said == "served\n" || said.hasPrefix("refused:"), "\(String(describing: answer)) \(outcome.stderr)")
    } else {
      #expect(
        said.hasPrefix("refused: protocol error 0") && said.contains("the popup is inert or has a parent already"),
        "\(String(describing: answer)) \(outcome.stderr)")
    }
    #expect(stillShown, "splashd or the program did not survive: \(outcome.stderr)")
  }
}

extension HostModeLayerTests {
  /// A layer surface's popup (a bar's menu) is kept on the screen as its
  /// positioner allows, and so is a popup of that popup: the band at the
  /// bottom (tools/test/wayland/layer-popup.py) has its popup, placed
  /// under the band's bottom edge and so under the screen's, flipped
  /// above its anchor (configured at the band's row 30, not 60), and that
  /// popup's popup, placed 10 rows past the screen's bottom, flipped too
  /// (-10, not 20); both are drawn over the program, the second on top.
  @Test func aLayerSurfacesPopupsAreKeptOnTheScreen() throws {
    var placed: [String] = []
    var seen: Screendump?
    let outcome = try withTheResizingWindow {
      let commands = dir.path + "/popup-commands"
      #expect(mkfifo(commands, 0o600) == 0)
      guard let client = try? testClient("layer-popup.py", ["offscreen"], reading: commands) else { return }
      defer {
        tell(commands, "quit")
        _ = try? client.finish(timeout: 10)
      }
      guard waitUntil(20, { said(client).count == 2 }) else { return }
      placed = said(client)
      _ = waitUntil(10) {
        seen = snapshot("popups")?.screen
        return seen.map { $0.at(20, 205) == 0xFF40C0 } ?? false
      }
    }
    #expect(placed == ["shown 0,30", "nested 0,-10"], "\(placed) \(outcome.stderr)")
    let screen = try #require(seen, "no snapshot: \(outcome.stderr)")
    screen.keep(as: "host-mode-layer-popups")
    // The band over rows 180 to 240; the popup over 210 to 230, its own over 200 to 220, both 40 wide.
    #expect(screen.at(20, 205) == 0xFF40C0, "\(String(screen.at(20, 205), radix: 16))")
    #expect(screen.at(20, 225) == 0x4080FF, "\(String(screen.at(20, 225), radix: 16))")
    #expect(screen.at(200, 200) == 0xC08020, "\(String(screen.at(200, 200), radix: 16))")
  }
}
