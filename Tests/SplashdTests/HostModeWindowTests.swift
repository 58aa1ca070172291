// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: the program's windows: popups and later windows over the first, a turn after the transition, screencopy clients.
@Suite struct HostModeWindowTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// Other clients connect at `wayland-0` in the runtime directory, which
  /// the program is told (WAYLAND_DISPLAY): grim, run by the program before
  /// it draws, copies the held splash (the leaves); run by the test after
  /// the transition, the live program. The socket goes with splashd.
  @Test func grimCopiesTheSplashAndTheLiveProgram() throws {
    var fromTheProgram: Screendump?
    var afterTheTransition: Screendump?
    let early = dir.path + "/early.ppm"
    let program = "env -u WAYLAND_SOCKET grim -t ppm \(early) && exec foot --override=colors.background=2080c0"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "0.5", "--", "/bin/sh", "-c", program], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        fromTheProgram = Screendump(path: early)
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else { return }
        let late = dir.path + "/late.ppm"
        let grim = try? run("/usr/bin/grim", ["-t", "ppm", late], environment: displayEnvironment)
        if grim?.status == 0 { afterTheTransition = Screendump(path: late) }
      })
    let note = outcome.stderr
    let held = try #require(fromTheProgram, "the program's grim copied nothing: \(note)")
    #expect(held.width == 320 && held.height == 240)
    #expect(held.at(0, 120) == Self.red && held.at(159, 120) == Self.red && held.at(160, 120) == Self.green, "\(note)")
    let live = try #require(afterTheTransition, "grim copied nothing after the transition: \(note)")
    let grid = stride(from: 0, to: 240, by: 15).flatMap { y in stride(from: 0, to: 320, by: 20).map { live.at($0, y) } }
    #expect(grid.filter { $0 == Self.foot }.count > grid.count * 9 / 10, "foot does not fill grim's copy: \(note)")
    #expect(!FileManager.default.fileExists(atPath: dir.path + "/wayland-0"), "the socket outlived splashd")
  }

  /// A screencopy client that asks again the moment each copy is done
  /// (tools/test/wayland/screencopy-flood.py) gets one copy a refresh of the
  /// screen, not as many as it can take: 30 copies at 20 frames a second
  /// take at least 29 refreshes (without the pacing, a few milliseconds),
  /// and the splash answers on.
  @Test func aScreencopyClientThatAsksWithoutPauseGetsOneCopyARefresh() throws {
    var flood: Outcome?
    var status: String?
    let (_, outcome) = try spawnSplashd(
      splash + ["--fps", "20", "--until-reveal", "--timeout", "0", "--", "foot"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        flood = try? run(
          packageRoot + "/tools/test/wayland/screencopy-flood.py", ["30"], environment: displayEnvironment, timeout: 60)
        status = splashctl(["status"])?.stdout
      })
    let copied = try #require(flood, "the client did not run: \(outcome.stderr)")
    #expect(copied.status == 0, "\(copied.stderr): \(outcome.stderr)")
    let said = copied.stdout.split(separator: " ")
    let seconds = said.count == 2 ? Double(said[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    #expect(said.first == "30" && (seconds ?? 0) >= 29.0 / 20 * 0.99, "\(copied.stdout)")
    #expect(status?.hasPrefix("phase=waiting") == true, "\(status ?? "no status"): \(outcome.stderr)")
  }

  /// A GTK program's menu (gtk3-demo's menus demo: a window with a menu
  /// bar over the demo's own): F10, typed through the virtual keyboard into
  /// the newest window (the active one), opens the bar's first menu as a
  /// popup, drawn below the bar over what lies there: its last items' text
  /// is where the demo's blank pane lay (dark pixels there only once the
  /// menu is open).
  @Test func aGTKMenuOpensAsAPopupOverTheWindows() throws {
    var before = -1
    var opened = false
    // Dark pixels below the menus window, where the open menu's last items go.
    func dark(_ screen: Screendump) -> Int {
      (335..<358).reduce(0) { count, y in
        count
          + (262..<410).filter { x in
            let pixel = screen.at(x, y)
            return (pixel >> 16 & 0xFF) + (pixel >> 8 & 0xFF) + (pixel & 0xFF) < 300
          }.count
      }
    }
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "640x480", "--control", socketPath, "--host", "wayland", "--duration",
        "0.3", "--", "gtk3-demo", "--run=menus",
      ], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard
          waitUntil(
            30,
            {
              let status = splashctl(["status"])?.stdout ?? ""
              return status.hasPrefix("phase=done") && status.contains(" windows=2")
            }), let shown = snapshot("before")?.screen
        else { return }
        before = dark(shown)
        // (wtype's pause lets the new keyboard's focus settle before its key.)
        _ = try? run("/usr/bin/wtype", ["-s", "300", "-k", "F10"], environment: displayEnvironment)
        opened = waitUntil(20) { snapshot("opened").map { dark($0.screen) > 50 } == true }
        if opened { snapshot("opened")?.screen.keep(as: "host-mode-gtk-menu") }
      })
    #expect(before == 0, "\(before) dark pixels before the menu opened: \(outcome.stderr)")
    #expect(opened, "the menu did not open: \(outcome.stderr)")
  }

  /// A later toplevel (here a second client's window, weston-simple-shm,
  /// 250x250, started by the program through WAYLAND_DISPLAY) shows centred
  /// over the first, which stays full screen around it; once it closes,
  /// what it covered shows again (the first window, idle, draws nothing new).
  @Test func aLaterWindowShowsCentredOverTheFirstUntilItCloses() throws {
    var shown: Screendump?
    var afterClosing: Screendump?
    let pidFile = dir.path + "/second.pid"
    let program =
      "foot --override=colors.background=2080c0 & sleep 0.5; env -u WAYLAND_SOCKET weston-simple-shm & "
      + "echo $! > \(pidFile); wait"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "0.3", "--", "/bin/sh", "-c", program], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        _ = splashctl(["reveal"])
        _ = waitUntil(20) {
          guard let screen = snapshot("two")?.screen, screen.at(160, 120) != Self.foot else { return false }
          shown = screen
          return true
        }
        guard shown != nil,
          let second = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
          })
        else { return }
        kill(second, SIGTERM)
        _ = waitUntil(20) {
          guard let screen = snapshot("closed")?.screen, screen.at(160, 120) == Self.foot else { return false }
          afterClosing = screen
          return true
        }
      })
    let note = outcome.stderr
    let screen = try #require(shown, "the second window never showed: \(note)")
    screen.keep(as: "host-mode-second-window")
    // foot at the sides: the second window's 250 pixels centred on the
    // 320x240 screen leave 35 at each side (it is taller than the screen).
    let sides = [screen.at(5, 5), screen.at(5, 120), screen.at(314, 120), screen.at(314, 234)]
    #expect(sides.allSatisfy { $0 == Self.foot }, "\(sides): \(note)")
    let middle = (40..<280).map { screen.at($0, 120) }
    #expect(middle.filter { $0 != Self.foot }.count > middle.count * 9 / 10, "\(note)")
    let closed = try #require(afterClosing, "the closed window stayed on the screen: \(note)")
    let row = (0..<320).map { closed.at($0, 120) }
    #expect(row.filter { $0 == Self.foot }.count > 300, "\(note)")
  }

  /// A turn after the transition (`splashctl rotate 90`, as a sensor's
  /// would be) turns the program too: foot is told its new size (its
  /// terminal narrower), and fills the turned screen, where its old
  /// landscape frame centred on the portrait canvas would leave the
  /// background at the screen's left and right.
  @Test func aTurnAfterTheTransitionTurnsTheProgramsWindow() throws {
    let sizes = dir.path + "/sizes"
    var turned: Outcome?
    var before: [[Int]] = []
    var after: [[Int]] = []
    var filled: Screendump?
    // Each size foot gives its terminal: "ROWS COLUMNS" lines.
    func read() -> [[Int]] {
      ((try? String(contentsOfFile: sizes, encoding: .utf8)) ?? "").split(separator: "\n").map {
        $0.split(separator: " ").compactMap { Int($0) }
      }
    }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--", "foot", "--override=colors.background=2080c0", "/bin/sh", "-c",
        "trap 'stty size >> \(sizes)' WINCH; while :; do sleep 0.1; done",
      ], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(),
          waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
        else { return }
        before = read()
        turned = splashctl(["rotate", "90"])
        guard waitUntil(20, { read().count > before.count }) else { return }
        after = Array(read().dropFirst(before.count))
        _ = waitUntil(20) {
          guard let screen = snapshot("turned")?.screen, screen.at(10, 120) == Self.foot,
            screen.at(310, 120) == Self.foot
          else { return false }
          filled = screen
          return true
        }
      })
    let note = outcome.stderr
    #expect(turned?.status == 0, "\(turned?.stderr ?? ""): \(note)")
    let told = try #require(after.last, "foot was told no new size: \(note)")
    if let was = before.last { #expect(told.count == 2 && was.count == 2 && told[1] < was[1], "\(was) → \(told)") }
    let screen = try #require(filled, "foot does not fill the turned screen: \(note)")
    screen.keep(as: "host-mode-turned")
    let grid = stride(from: 20, to: 240, by: 20).flatMap { y in
      stride(from: 0, to: 320, by: 20).map { screen.at($0, y) }
    }
    #expect(grid.filter { $0 == Self.foot }.count > grid.count * 9 / 10, "\(note)")
  }
}
