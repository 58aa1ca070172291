// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode's text input relayed to an input method: a program whose text
/// field takes text (tools/test/wayland/text-input.py, text-input-v3) and
/// input methods of the test's own (tools/test/wayland/input-method.py,
/// input-method-v2), clients of the display's socket.
@Suite struct HostModeTextInputTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// What text-input.py has logged, a line each.
  func logged() -> [String] {
    ((try? String(contentsOfFile: dir.path + "/field", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// tools/test/wayland/input-method.py with `arguments`; nil when it
  /// cannot be started.
  func inputMethod(_ arguments: [String]) -> StartedProcess? {
    try? StartedProcess(
      "/usr/bin/env", ["python3", packageRoot + "/tools/test/wayland/input-method.py"] + arguments,
      environment: displayEnvironment)
  }

  /// Runs splashd with text-input.py as its program and, once its field
  /// has the keyboard's focus, `act`; then stops it. splashd's outcome.
  func withTheField(_ act: () -> Void) throws -> Outcome {
    try spawnSplashd(
      splash + [
        "--duration", "0.2", "--", "python3", packageRoot + "/tools/test/wayland/text-input.py", dir.path + "/field",
      ],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), waitUntil(20, { logged().contains("enter") }) else { return }
        act()
      }
    ).1
  }

  /// The program's field, enabled as its window has the keyboard, activates
  /// the input method, whose committed text ("héllo wörld") reaches the
  /// field; a second input method meanwhile is told it is unavailable; a lock
  /// screen's overlay taking the keyboard leaves the field and deactivates
  /// the input method, and its going gives both back.
  @Test func anInputMethodsTextReachesTheFocusedField() throws {
    var first: [String] = []
    var second: [String] = []
    var reached = false
    var locked = false
    var unlocked = false
    let outcome = try withTheField {
      guard let method = inputMethod(["héllo wörld"]) else { return }
      defer {
        first = said(method)
        kill(method.pid, SIGTERM)
      }
      reached = waitUntil(20) { logged().contains("text: héllo wörld") }
      if let other = inputMethod(["other"]) {
        _ = try? other.finish(timeout: 20)
        second = said(other)
      }
      let commands = dir.path + "/commands"
      guard
        let lock = try? layerSurface(
          [
            "--layer", "overlay", "--keyboard", "exclusive", "--anchor", "top,bottom,left,right", "--size", "0x0",
            "--zone", "-1",
          ], commands: commands)
      else { return }
      locked = waitUntil(20) { logged().contains("leave") && said(method).contains("deactivated") }
      tell(commands, "quit")
      _ = try? lock.finish(timeout: 10)
      unlocked = waitUntil(20) {
        logged().filter { $0 == "enter" }.count == 2 && said(method).filter { $0 == "activated" }.count == 2
      }
    }
    let note = "\(logged()) \(first) \(outcome.stderr)"
    #expect(reached, "the input method's text did not reach the field: \(note)")
    #expect(first.prefix(2) == ["activated", "committed"], "\(note)")
    #expect(second == ["unavailable"], "\(second)")
    #expect(locked, "the lock did not take the field's focus: \(note)")
    #expect(unlocked, "the field and the input method were not given back: \(note)")
  }

  /// An input method that floods the field (3000 commits of 4000 bytes at
  /// once) is cut off with a protocol error once it passes 100 commits or
  /// 16 KiB in a second; the program keeps its connection (its socket never
  /// filled), and the next input method's text reaches it.
  @Test func anInputMethodThatFloodsIsCutOffAndTheProgramStays() throws {
    var flood: Outcome?
    var stillShown = false
    var after = false
    let outcome = try withTheField {
      guard let flooding = inputMethod(["--flood", "3000"]) else { return }
      flood = try? flooding.finish(timeout: 30)
      stillShown = splashctl(["status"])?.stdout.contains(" program=shown") == true
      guard let method = inputMethod(["after"]) else { return }
      defer { kill(method.pid, SIGTERM) }
      after = waitUntil(20) { logged().last?.hasSuffix("after") == true }
    }
    let note = "\(logged().map { String($0.prefix(40)) }) \(outcome.stderr)"
    #expect(flood?.status == 1, "\(String(describing: flood))")
    #expect(stillShown, "the program did not stay: \(note)")
    #expect(after, "the next input method's text did not reach the field: \(note)")
    #expect(outcome.stderr.contains("an input method committed more than 100 times or 16 KiB of text in a second"))
  }

  /// cog (WPE WebKit), a page whose text field has the focus: the field
  /// activates the input method, whose "héllo" is typed into it, and the
  /// page's `input` handler turns the page from #208040 to #2080C0.
  @Test func cogsFocusedFieldTakesAnInputMethodsText() throws {
    let page = dir.path + "/field.html"
    try """
    <!doctype html><body style="margin:0;background:#208040"><input id=f style="font-size:40px"
    oninput="document.body.style.background='#2080c0'"><script>document.getElementById('f').focus()</script></body>
    """.write(toFile: page, atomically: true, encoding: .utf8)
    var said: [String] = []
    var typed: Screendump?
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "cog", "file://" + page], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path, "HOME=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        // (A browser takes its time on two busy cores.)
        guard waitUntil(60, { splashctl(["status"])?.stdout.contains(" program=shown") == true }),
          let method = inputMethod(["héllo"])
        else { return }
        defer { kill(method.pid, SIGTERM) }
        _ = waitUntil(60) { self.said(method).contains("committed") }
        said = self.said(method)
        _ = waitUntil(30) {
          typed = snapshot("typed")?.screen
          return typed?.at(300, 200) == 0x2080C0
        }
      })
    #expect(said == ["activated", "committed"], "\(said) \(outcome.stderr)")
    let screen = try #require(typed, "no snapshot: \(outcome.stderr)")
    screen.keep(as: "host-mode-cog-input-method")
    #expect(screen.at(300, 200) == 0x2080C0, "the page did not take the text: \(outcome.stderr)")
  }

  /// Debian's squeekboard, an input method, on a session bus of its own
  /// (dbus-run-session) with GNOME's screen-keyboard setting on: the
  /// process group of dbus-run-session, its bus and squeekboard (ended with
  /// `kill(-pid, …)`); nil when it cannot be started.
  func squeekboard() -> StartedProcess? {
    try? StartedProcess(
      "/usr/bin/dbus-run-session",
      [
        "--", "/bin/sh", "-c",
        "gsettings set org.gnome.desktop.a11y.applications screen-keyboard-enabled true && exec squeekboard",
      ], environment: displayEnvironment.merging(["HOME": dir.path]) { $1 })
  }

  /// Once the program is shown on an 800x480 screen: squeekboard
  /// (`squeekboard()`) beside a virtual pointer on its "q" (the first key of
  /// its first row, in the bottom half); once a snapshot shows it `docked`,
  /// the "q" is tapped and `afterTheTap` runs, squeekboard still there. The
  /// last snapshot taken while waiting for it to dock; nil for none.
  func squeekboardTapped(
    when go: String, docked: (Screendump) -> Bool, afterTheTap: () -> Void
  ) -> Screendump? {
    var shown: Screendump?
    guard waitUntil(60, { splashctl(["status"])?.stdout.contains(" program=shown") == true }),
      let pointer = virtualPointerOnceAlone(clickingAt: 40.0 / 800, 270.0 / 480, when: go, approaching: true),
      let keyboard = squeekboard()
    else { return nil }
    defer {
      // dbus-run-session, its bus and squeekboard: the group StartedProcess made.
      kill(-keyboard.pid, SIGTERM)
      _ = try? keyboard.finish(timeout: 10)
      kill(pointer.pid, SIGTERM)
    }
    guard
      waitUntil(
        60,
        {
          shown = snapshot("docked")?.screen
          return shown.map(docked) == true
        }), say(go: go)
    else { return shown }
    afterTheTap()
    return shown
  }

  /// Debian's squeekboard (`squeekboard()`) beside cog on an 800x480 screen:
  /// it pops up, docked at the bottom, when cog's field has the focus (the
  /// page, #208040, above it); a tap on its "q" types into the field, whose
  /// `input` handler turns the page #2080C0 and blurs the field; the keyboard
  /// then goes, and the page fills the screen again.
  @Test func squeekboardPopsUpForCogsFieldAndGoesAfter() throws {
    let page = dir.path + "/field.html"
    try """
    <!doctype html><body style="margin:0;background:#208040"><input id=f style="font-size:40px"
    oninput="document.body.style.background='#2080c0';setTimeout(function(){f.blur()},300)">
    <script>f.focus()</script></body>
    """.write(toFile: page, atomically: true, encoding: .utf8)
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var docked: Screendump?
    var gone: Screendump?
    let (_, outcome) = try spawnSplashd(
      splash + ["--size", "800x480", "--duration", "0.2", "--", "cog", "file://" + page], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path, "HOME=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        docked = squeekboardTapped(
          when: go, docked: { $0.at(400, 100) == 0x208040 && $0.at(400, 470) != 0x208040 },
          afterTheTap: {
            _ = waitUntil(30) {
              gone = snapshot("gone")?.screen
              return gone?.at(400, 100) == 0x2080C0 && gone?.at(400, 470) == 0x2080C0
            }
          })
      })
    let note = outcome.stderr
    let shown = try #require(docked, "no snapshot: \(note)")
    shown.keep(as: "host-mode-squeekboard")
    #expect(shown.at(400, 100) == 0x208040 && shown.at(400, 470) != 0x208040, "squeekboard did not pop up: \(note)")
    let after = try #require(gone, "no snapshot after the tap: \(note)")
    after.keep(as: "host-mode-squeekboard-gone")
    #expect(after.at(400, 100) == 0x2080C0, "the tap typed nothing into the field: \(note)")
    #expect(after.at(400, 470) == 0x2080C0, "squeekboard stayed after the field lost the focus: \(note)")
  }

  /// A GTK 3 program's focused field (tools/test/wayland/gtk-field.py, GTK's
  /// Wayland input module) on an 800x480 screen: squeekboard pops up under
  /// it, the window above it, and a tap on its "q" types a q into the
  /// field. GTK enables its text input only once its window has the
  /// keyboard's focus, which a seat without a keyboard never gives:
  /// squeekboard's own virtual keyboard gives the seat one.
  @Test func squeekboardPopsUpForGTKsFieldAndTypesIntoIt() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    let field = dir.path + "/gtk-field"
    func typed() -> String { (try? String(contentsOfFile: field, encoding: .utf8)) ?? "" }
    var docked: Screendump?
    var tapped = false
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--size", "800x480", "--duration", "0.2", "--", packageRoot + "/tools/test/wayland/gtk-field.py", field,
      ],
      in: dir,
      launcher: [
        "/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path, "HOME=" + dir.path, "GDK_BACKEND=wayland",
        "GTK_IM_MODULE=wayland",
      ],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        // Docked: GTK's white field above, squeekboard's keys below.
        docked = squeekboardTapped(
          when: go, docked: { $0.at(400, 120) == 0xFFFFFF && $0.at(400, 470) != 0xFFFFFF },
          afterTheTap: { tapped = waitUntil(30) { typed().contains("text: q") } })
      })
    let note = "\(typed()) \(outcome.stderr)"
    let shown = try #require(docked, "no snapshot: \(note)")
    shown.keep(as: "host-mode-squeekboard-gtk")
    #expect(
      shown.at(400, 120) == 0xFFFFFF && shown.at(400, 470) != 0xFFFFFF, "squeekboard did not pop up under GTK: \(note)")
    #expect(tapped, "the tap on squeekboard's q typed nothing into GTK's field: \(note)")
  }
}

extension HostModeTextInputTests {
  /// `keyboard` pops wvkbd up under the program's field and takes it away
  /// after (keyboard-popup = signals): started by splashd, hidden, beside
  /// text-input.py on an 800x480 screen, it shows (the bottom 200 pixels
  /// its keys) while the field has the keyboard's focus; a band above the
  /// windows taking the keyboard leaves the field, and wvkbd hides (the
  /// field's colour to the screen's bottom); the band gone, it shows again.
  @Test func wvkbdStartedBySplashdPopsUpForTheFieldAndGoesAfter() throws {
    let program: UInt32 = 0x208040
    /// The bottom 200 rows, a sample every 10 pixels.
    func bottom(_ screen: Screendump) -> [UInt32] {
      stride(from: 285, to: 480, by: 10).flatMap { y in stride(from: 5, to: 800, by: 10).map { screen.at($0, y) } }
    }
    func docked(_ screen: Screendump) -> Bool {
      let samples = bottom(screen)
      return samples.filter { $0 != program }.count * 10 >= samples.count * 8 && screen.at(400, 100) == program
    }
    func hidden(_ screen: Screendump) -> Bool { bottom(screen).allSatisfy { $0 == program } }
    var seen: [String: Screendump] = [:]
    func shows(_ name: String, _ state: (Screendump) -> Bool) -> Bool {
      waitUntil(30) {
        guard let screen = snapshot(name)?.screen, state(screen) else { return false }
        seen[name] = screen
        return true
      }
    }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--size", "800x480", "--duration", "0.2", "--keyboard", "/usr/bin/wvkbd-mobintl --hidden -H 200", "--",
        "python3", packageRoot + "/tools/test/wayland/text-input.py", dir.path + "/field",
      ],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgramAlone(), waitUntil(20, { logged().contains("enter") }),
          shows("wvkbd-docked", docked),
          let band = try? layerSurface(
            [
              "--layer", "overlay", "--keyboard", "exclusive", "--anchor", "top,left,right", "--size", "0x40", "--zone",
              "0",
            ],
            commands: dir.path + "/commands")
        else { return }
        _ = waitUntil(20) { logged().contains("leave") } && shows("wvkbd-hidden", hidden)
        tell(dir.path + "/commands", "quit")
        _ = try? band.finish(timeout: 10)
        _ = waitUntil(20) { logged().filter { $0 == "enter" }.count == 2 } && shows("wvkbd-docked-again", docked)
      })
    let note = "\(logged()) \(outcome.stderr.suffix(3000))"
    let shown = try #require(seen["wvkbd-docked"], "wvkbd did not pop up under the field: \(note)")
    shown.keep(as: "host-mode-wvkbd-popup")
    seen["wvkbd-hidden"]?.keep(as: "host-mode-wvkbd-hidden")
    #expect(seen["wvkbd-hidden"] != nil, "wvkbd did not hide when the field lost the focus: \(note)")
    #expect(seen["wvkbd-docked-again"] != nil, "wvkbd did not pop up again: \(note)")
    #expect(outcome.stderr.contains("host mode: started the on-screen keyboard /usr/bin/wvkbd-mobintl"), "\(note)")
  }
}

extension HostModeTextInputTests {
  /// An input method that grabs the keyboard (an engine that composes text
  /// from keys, as fcitx5 does for Chinese) has the keys typed while the
  /// field takes text, and the program none of them; what it commits for
  /// them reaches the field; once it is gone, keys reach the program again.
  /// A keyboard is held on the seat throughout (wtype's, 20 s), so that the
  /// program has one from the start.
  @Test func anInputMethodThatGrabsTheKeyboardHasTheKeys() throws {
    var grabbed: [String] = []
    var whileGrabbed: [String] = []
    var committed = false
    var backToTheProgram = false
    // wtype's keymap has a key of its own for each character (space 1, a 2).
    func keys(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("key ") } }
    let outcome = try withTheField {
      guard let holder = try? StartedProcess("/usr/bin/wtype", ["-s", "20000"], environment: displayEnvironment)
      else { return }
      defer { kill(holder.pid, SIGTERM) }
      guard waitUntil(20, { logged().contains("keyboard") }), let method = inputMethod(["--grab", "X"]) else { return }
      defer { kill(method.pid, SIGTERM) }
      guard waitUntil(20, { said(method).contains("grabbed") }) else { return }
      _ = try? run("/usr/bin/wtype", [" a"], environment: displayEnvironment)
      committed = waitUntil(20) { keys(said(method)).count == 2 } && waitUntil(20) { logged().contains("text: XX") }
      grabbed = said(method)
      whileGrabbed = logged()
      kill(method.pid, SIGTERM)
      _ = try? method.finish(timeout: 10)
      _ = try? run("/usr/bin/wtype", [" b"], environment: displayEnvironment)
      backToTheProgram = waitUntil(20) { !keys(logged()).isEmpty }
    }
    let note = "\(grabbed) \(logged()) \(outcome.stderr.suffix(1500))"
    #expect(committed, "the grabbed keys were not the input method's, or its text did not reach the field: \(note)")
    #expect(keys(whileGrabbed).isEmpty, "the program got a key the input method grabbed: \(note)")
    #expect(backToTheProgram, "keys did not reach the program once the input method was gone: \(note)")
  }
}

extension HostModeTextInputTests {
  /// An input method's popup (a candidate list) is drawn under the field's
  /// text cursor (text-input.py's at (20, 40), 2x16: the popup's corner at
  /// (20, 56)), and the input method is told the cursor lies just above it.
  @Test func anInputMethodsPopupIsDrawnUnderTheTextCursor() throws {
    var told: [String] = []
    var seen: Screendump?
    let outcome = try withTheField {
      guard let method = inputMethod(["--popup"]) else { return }
      defer { kill(method.pid, SIGTERM) }
      _ = waitUntil(20) { said(method).contains { $0.hasPrefix("rectangle") } }
      told = said(method)
      _ = waitUntil(20) {
        seen = snapshot("candidates")?.screen
        return seen?.at(40, 70) == 0xFF8000
      }
    }
    #expect(told.contains("rectangle 0,-16,2,16"), "\(told) \(outcome.stderr.suffix(1500))")
    let screen = try #require(seen, "no snapshot: \(outcome.stderr.suffix(1500))")
    screen.keep(as: "host-mode-input-method-popup")
    let program: UInt32 = 0x208040
    // Its corners, and the program's colour just outside them.
    #expect(screen.at(20, 56) == 0xFF8000 && screen.at(79, 85) == 0xFF8000, "\(told)")
    #expect(screen.at(19, 56) == program && screen.at(20, 55) == program && screen.at(80, 85) == program)
    #expect(screen.at(79, 86) == program)
  }
}

extension HostModeTextInputTests {
  /// Chromium's field (Ozone's Wayland platform with --enable-wayland-ime
  /// and text-input-v3) pops up the keyboard splashd started (wvkbd,
  /// `keyboard`) and takes an input method's text: a page whose field has
  /// the focus at its start and turns the page red once it holds text.
  /// wvkbd docks under it, and the input method's "hello" reaches the
  /// field (the page red above the keyboard).
  @Test func chromiumsFieldPopsUpTheKeyboardAndTakesText() throws {
    let page = dir.path + "/field.html"
    try """
    <!doctype html><body style='margin:0;background:#2080c0'>
    <input id='f' autofocus style='font-size:30px' oninput="document.body.style.background='#ff0000'">
    <script>document.getElementById('f').focus()</script></body>
    """.write(toFile: page, atomically: true, encoding: .utf8)
    var docked: Screendump?
    var typed: Screendump?
    var told: [String] = []
    func bottomIsKeys(_ screen: Screendump) -> Bool {
      let samples = stride(from: 290, to: 480, by: 10).flatMap { y in
        stride(from: 5, to: 800, by: 10).map { screen.at($0, y) }
      }
      return samples.filter { $0 != 0x2080C0 && $0 != 0xFF0000 }.count * 10 >= samples.count * 8
    }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--size", "800x480", "--duration", "0.2", "--keyboard", "/usr/bin/wvkbd-mobintl --hidden -H 200", "--",
        "chromium", "--ozone-platform=wayland", "--kiosk", "--no-sandbox", "--no-first-run",
        "--user-data-dir=" + dir.path + "/chromium", "--enable-wayland-ime", "--wayland-text-input-version=3",
        "file://" + page,
      ],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgramAlone(),
          waitUntil(
            60,
            {
              docked = snapshot("chromium-docked")?.screen
              return docked.map(bottomIsKeys) ?? false
            }), let method = inputMethod(["hello"])
        else { return }
        defer { kill(method.pid, SIGTERM) }
        _ = waitUntil(20) { said(method).contains("committed") }
        told = said(method)
        _ = waitUntil(30) {
          typed = snapshot("chromium-typed")?.screen
          return typed.map { $0.at(700, 200) == 0xFF0000 && bottomIsKeys($0) } ?? false
        }
      })
    let note = "\(told) \(outcome.stderr.suffix(2000))"
    let shown = try #require(docked, "no snapshot: \(note)")
    shown.keep(as: "host-mode-chromium-wvkbd")
    #expect(bottomIsKeys(shown), "wvkbd did not pop up under Chromium's field: \(note)")
    #expect(told == ["activated", "committed"], "Chromium's field did not activate the input method: \(note)")
    let after = try #require(typed, "no snapshot after the text: \(note)")
    after.keep(as: "host-mode-chromium-typed")
    #expect(after.at(700, 200) == 0xFF0000, "the input method's text did not reach Chromium's field: \(note)")
  }
}

extension HostModeTextInputTests {
  /// A key pressed to an input method's grab is let go of there too, even
  /// once the grab no longer applies: the field loses the focus to a lock
  /// screen's band between the press of KEY_A and its release (before, the
  /// release went to the band, and the input method kept the key down for
  /// good, repeating it).
  @Test func aKeyPressedToTheGrabIsLetGoOfThere() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var heard: [String] = []
    var pressed = false
    var left = false
    let outcome = try withTheField {
      guard let method = inputMethod(["--grab", "X"]) else { return }
      defer { kill(method.pid, SIGTERM) }
      guard waitUntil(20, { said(method).contains("grabbed") }), let keyboard = virtualKeyboard(when: go, times: 2),
        waitUntil(20, { said(keyboard).contains("ready") })
      else { return }
      defer { kill(keyboard.pid, SIGTERM) }
      pressed = say(go: go) && waitUntil(20) { said(method).contains("key 30") }
      let commands = dir.path + "/commands"
      guard
        let band = try? layerSurface(
          ["--layer", "overlay", "--keyboard", "exclusive", "--anchor", "top,left,right", "--size", "0x40"],
          commands: commands)
      else { return }
      defer {
        tell(commands, "quit")
        _ = try? band.finish(timeout: 10)
      }
      left = waitUntil(20) { logged().contains("leave") && said(method).contains("deactivated") }
      _ = say(go: go)
      _ = waitUntil(20) { said(method).contains("release 30") }
      heard = said(method)
    }
    let note = "\(heard) \(logged()) \(outcome.stderr.suffix(1500))"
    #expect(pressed && left, "\(note)")
    #expect(heard.contains("release 30"), "the grabbed key's release did not reach the input method: \(note)")
  }
}

extension HostModeTextInputTests {
  /// An input method's popup that goes without a commit of any surface
  /// (its role object destroyed, its surface kept) is gone from the screen
  /// at once (before, the frame composed with it stayed until something
  /// else committed).
  @Test func anInputMethodsPopupThatGoesLeavesTheScreen() throws {
    let commands = dir.path + "/method-commands"
    #expect(mkfifo(commands, 0o600) == 0)
    var shown = false
    var gone: Screendump?
    let outcome = try withTheField {
      guard let method = try? testClient("input-method.py", ["--popup-gone"], reading: commands) else { return }
      defer { kill(method.pid, SIGTERM) }
      shown = waitUntil(20) { snapshot("with-popup")?.screen.at(40, 70) == 0xFF8000 }
      tell(commands, "go")
      guard waitUntil(20, { said(method).contains("popup gone") }) else { return }
      _ = waitUntil(10) {
        gone = snapshot("popup-gone")?.screen
        return gone?.at(40, 70) == 0x208040
      }
    }
    let note = outcome.stderr.suffix(1500)
    #expect(shown, "the popup never showed: \(note)")
    let screen = try #require(gone, "no snapshot: \(note)")
    #expect(screen.at(40, 70) == 0x208040, "the popup stayed on the screen: \(String(screen.at(40, 70), radix: 16))")
  }
}
