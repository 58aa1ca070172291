// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: what reaches the program: virtual keyboards and pointers, the cursor, wayvnc, keys to the newest window and none while a question is asked, idle-inhibit.
@Suite struct HostModeInputTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// The virtual-keyboard protocol (on-screen keyboards): wtype, a client
  /// of the display's socket, types a command into the shell foot runs,
  /// which runs it: the keys reach the program's window, which has the
  /// keyboard's focus since it was mapped.
  @Test func aVirtualKeyboardTypesIntoTheProgram() throws {
    let typed = dir.path + "/typed"
    var created = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.3", "--"] + Self.footShell, in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        let wtype = type("touch \(typed)")
        guard let wtype, wtype.status == 0 else {
          Issue.record("wtype failed: \(wtype?.stderr ?? "not run")")
          return
        }
        created = waitUntil(20) { FileManager.default.fileExists(atPath: typed) }
      })
    #expect(created, "the typed command did not run: \(outcome.stderr)")
  }

  /// A second virtual keyboard arriving while the first holds the seat (an
  /// on-screen keyboard beside another) types too, and the program keeps
  /// its connection: a keyboard counts only once its keymap has come
  /// (before, wlroots sent foot a keymap descriptor of -1, which cut it off).
  @Test func aSecondVirtualKeyboardTypesBesideTheFirst() throws {
    var second = false
    var stillRunning = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.3", "--"] + Self.footShell, in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        // The first types, then holds its keyboard for 5 s (wtype's own sleep).
        guard
          let first = try? StartedProcess(
            "/usr/bin/wtype", Self.typing("touch \(dir.path)/first") + ["-s", "5000"],
            environment: displayEnvironment),
          waitUntil(20, { FileManager.default.fileExists(atPath: dir.path + "/first") })
        else { return }
        _ = type("touch \(dir.path)/second")
        second = waitUntil(20) { FileManager.default.fileExists(atPath: dir.path + "/second") }
        stillRunning = splashctl(["status"])?.stdout.contains(" program=shown") == true
        _ = try? first.finish(timeout: 10)
      })
    #expect(second && stillRunning, "the second keyboard did not type into foot: \(outcome.stderr)")
  }

  /// A client's virtual pointer (wlr-virtual-pointer, as wayvnc's remote
  /// control makes) clicks the program where the screen shows it: the seat
  /// offers a pointer while it lasts, its absolute position is a fraction
  /// of the screen as a screenshot shows it, turned with the screen as a
  /// touch is. wev (the program) reports where the pointer entered it and
  /// the left button's press and release. (tools/test/wayland/virtual-pointer.py
  /// clicks once wev has taken the new pointer.)
  @Test(arguments: [0, 180])
  func aVirtualPointerClicksWhereTheScreenShows(rotation: Int) throws {
    let events = dir.path + "/wev.txt"
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    func said() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
    var clicked = false
    var clientOutcome: Outcome?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--rotate", String(rotation), "--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(events)",
      ],
      in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard let client = virtualPointerOnceAlone(clickingAt: 0.25, 0.5, when: go) else { return }
        // The seat's pointer reaches wev once the client has made it.
        if waitUntil(20, { said().contains("capabilities: pointer") }), say(go: go) {
          clicked = waitUntil(20) { said().contains("state: 0 (released)") }
        }
        clientOutcome = try? client.finish(timeout: 10)
      })
    #expect(clientOutcome?.status == 0, "\(clientOutcome?.stderr ?? "the client did not end"): \(outcome.stderr)")
    #expect(clicked, "wev saw no click: \(said()) \(outcome.stderr)")
    // A quarter across and half down the 320x240 screen; turned 180 degrees,
    // that is three quarters across the program's canvas.
    let x = rotation == 0 ? 80 : 240
    #expect(said().contains("x, y: \(x).000000, 120.000000"), "\(said())")
    #expect(said().contains("button: 272 (left), state: 1 (pressed)"), "\(said())")
  }

  /// A program that sets no cursor (hostile-buffer-client's window of
  /// #208040 has no pointer, so never asks for one) still shows where the
  /// pointer is once it moves, as under other compositors: the cursor
  /// theme's arrow, its tip at the pointer (a virtual pointer's click a
  /// quarter across and half down the 320x240 screen: 80,120), drawn over
  /// the program and nowhere else; before the pointer moves, none.
  @Test func aProgramThatSetsNoCursorShowsTheArrowWhereThePointerIs() throws {
    let client = try hostileBufferClient()
    let committed = dir.path + "/committed"
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var before: Screendump?
    var pointed: Screendump?
    var clientOutcome: Outcome?
    let green: UInt32 = 0x208040
    // Whether any pixel of the box from (x, y), `size` wide and high, is not the program's.
    func marked(_ screen: Screendump?, _ x: Int, _ y: Int, _ size: Int) -> Bool {
      guard let screen else { return false }
      return (y..<y + size).contains { row in (x..<x + size).contains { screen.at($0, row) != green } }
    }
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", client, "shrink-and-leave", committed, dir.path + "/never"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard let pointer = virtualPointerOnceAlone(clickingAt: 0.25, 0.5, when: go) else { return }
        before = snapshot("before")?.screen
        if say(go: go) {
          clientOutcome = try? pointer.finish(timeout: 10)
          _ = waitUntil(10) {
            pointed = snapshot("pointed")?.screen
            return marked(pointed, 80, 120, 8)
          }
        }
      })
    #expect(clientOutcome?.status == 0, "\(clientOutcome?.stderr ?? "the pointer did not click"): \(outcome.stderr)")
    #expect(before.map { !marked($0, 0, 0, 240) } == true, "a cursor before the pointer moved: \(outcome.stderr)")
    pointed?.keep(as: "host-mode-arrow")
    #expect(marked(pointed, 80, 120, 8), "no arrow at the pointer: \(outcome.stderr)")
    // Nothing well above and left of the tip (a theme's shadow may reach a
    // pixel or two), nor far from it.
    #expect(pointed.map { !marked($0, 50, 90, 20) && !marked($0, 200, 20, 100) } == true, "\(outcome.stderr)")
  }

  /// A client's idle inhibitor (a video player's, a browser's) is taken
  /// (tools/test/wayland/idle-inhibit.py), and the program runs on.
  @Test func anIdleInhibitorIsTaken() throws {
    var asked: Outcome?
    var status: String?
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "foot"], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        asked = try? run(packageRoot + "/tools/test/wayland/idle-inhibit.py", [], environment: displayEnvironment)
        status = splashctl(["status"])?.stdout
      })
    let inhibited = try #require(asked, "the client did not run: \(outcome.stderr)")
    #expect(inhibited.status == 0 && inhibited.stdout == "inhibited\n", "\(inhibited.stderr): \(outcome.stderr)")
    #expect(status?.contains(" program=shown") == true, "\(status ?? "no status"): \(outcome.stderr)")
  }

  /// Remote control through wayvnc (Debian's, a client of the display's
  /// socket): a VNC viewer (tools/test/wayland/vnc-click.py) sees the screen
  /// as `splashctl snapshot` shows it (wayvnc reads it through
  /// screencopy), and its click reaches the program (wev) through the
  /// virtual pointer wayvnc makes.
  @Test func wayvncRemoteControlsTheProgram() throws {
    let events = dir.path + "/wev.txt"
    let vnc = dir.path + "/vnc"
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    func said() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
    var viewer: Outcome?
    var screen: Screendump?
    var clicked = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(events)"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgramAlone(),
          // wayvnc looks for its config under HOME (none there).
          let wayvnc = try? StartedProcess(
            "/usr/bin/wayvnc", ["-u", vnc], environment: displayEnvironment.merging(["HOME": dir.path]) { $1 })
        else { return }
        defer {
          kill(wayvnc.pid, SIGTERM)
          _ = try? wayvnc.finish(timeout: 10)
        }
        guard waitUntil(20, { FileManager.default.fileExists(atPath: vnc) }) else { return }
        screen = snapshot("program")?.screen
        // The viewer stays connected until the click has reached wev.
        guard
          let clicking = try? testClient("vnc-click.py", [vnc, "0.25", "0.5"], reading: go, notOfTheDisplay: true)
        else { return }
        clicked = waitUntil(20) { said().contains("state: 0 (released)") }
        _ = say(go: go)
        viewer = try? clicking.finish(timeout: 20)
      })
    let seen = try #require(viewer, "no VNC viewer ran: \(outcome.stderr)")
    #expect(seen.status == 0, "\(seen.stderr): \(outcome.stderr)")
    let shown = try #require(screen, "no snapshot: \(outcome.stderr)")
    #expect(seen.stdout == "320 240 \(String(format: "%06X", shown.at(80, 120)))\n", "\(seen.stdout)")
    #expect(clicked, "wev saw no click: \(said()) \(outcome.stderr)")
    #expect(said().contains("x, y: 80.000000, 120.000000"), "\(said())")
  }

  /// While a question is asked on the splash (a disk's passphrase), what is
  /// typed is its answer's and never the program's: a command typed then
  /// (through the virtual keyboard) does not reach foot's shell, while the
  /// answer typed on the console's terminal reaches the asker; once it is
  /// answered, the keys go to foot again. foot's shell runs its commands in
  /// order, so when the later command has run, the earlier would have too.
  @Test func whileAQuestionIsAskedTheProgramGetsNoKeys() throws {
    let console = try PseudoTerminal()
    var answer: Outcome?
    var afterwards = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--prompt-tty", console.terminal, "--"] + Self.footShell, in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(),
          let asker = try? StartedProcess(splashctlPath, ["--control", socketPath, "ask-password", "Disk"])
        else { return }
        guard waitUntil(20, { splashctl(["status"])?.stdout.contains(" asking=1") == true }) else { return }
        _ = type("touch \(dir.path)/leaked")
        console.type("s3cret\r")
        answer = try? asker.finish(timeout: 10)
        _ = type("touch \(dir.path)/afterwards")
        afterwards = waitUntil(20) { FileManager.default.fileExists(atPath: dir.path + "/afterwards") }
      })
    #expect(answer?.status == 0 && answer?.stdout == "s3cret\n", "\(String(describing: answer))")
    #expect(afterwards, "the keys did not come back to foot: \(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path + "/leaked"), "foot got keys typed for the question")
  }

  /// The keys go to the newest window: a second foot, started by the
  /// program through WAYLAND_DISPLAY, gets them while it is open; once it
  /// closes, the first has them again. Each foot's shell knows its name
  /// (WHO), and the typed command makes a file of it.
  @Test func theKeysGoToTheNewestWindowUntilItCloses() throws {
    let pidFile = dir.path + "/second.pid"
    let program =
      "WHO=first foot --override=colors.background=2080c0 /bin/sh & sleep 0.5; "
      + "env -u WAYLAND_SOCKET WHO=second foot /bin/sh & echo $! > \(pidFile); wait"
    var secondGotThem = false
    var firstGotThemBack = false
    var firstGotThemEarly = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.3", "--", "/bin/sh", "-c", program], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        // The second window is there once the screen's middle is not the first's alone.
        guard waitUntil(20, { snapshot("two")?.screen.at(160, 120) != Self.foot }) else { return }
        _ = type("touch \(dir.path)/$WHO")
        secondGotThem = waitUntil(20) { FileManager.default.fileExists(atPath: dir.path + "/second") }
        firstGotThemEarly = FileManager.default.fileExists(atPath: dir.path + "/first")
        guard secondGotThem,
          let second = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
          })
        else { return }
        kill(second, SIGTERM)
        guard waitUntil(20, { snapshot("closed")?.screen.at(160, 120) == Self.foot }) else { return }
        _ = type("touch \(dir.path)/$WHO")
        firstGotThemBack = waitUntil(20) { FileManager.default.fileExists(atPath: dir.path + "/first") }
      })
    #expect(secondGotThem && !firstGotThemEarly, "the second window did not get the keys: \(outcome.stderr)")
    #expect(firstGotThemBack, "the first window did not get the keys back: \(outcome.stderr)")
  }
}
