// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode (`--host wayland`): splashd as the program's Wayland
/// compositor, the doors opening onto the program's live frames, with real
/// programs from Debian (foot, weston-simple-shm, GTK's widget factory), on
/// the offscreen display, read back with `splashctl snapshot` or recorded.
@Suite struct HostModeTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }
  /// The leaves (red, green) over blue, on a 320x240 screen.
  var splash: [String] {
    [
      "--display", "offscreen", "--size", "320x240", "--left",
      dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0)), "--right",
      dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0)), "--background", "#0000FF",
      "--control", socketPath, "--host", "wayland",
    ]
  }
  static let (red, green, blue, foot): (UInt32, UInt32, UInt32, UInt32) = (0xFF0000, 0x00FF00, 0x0000FF, 0x2080C0)

  init() throws { dir = try TemporaryDirectory() }

  func splashctl(_ arguments: [String]) -> Outcome? {
    try? run(splashctlPath, ["--control", socketPath] + arguments, environment: [:])
  }

  /// What the screen shows now (`splashctl snapshot`), with the phase it
  /// was taken in; nil when there is no snapshot.
  func snapshot(_ name: String) -> (phase: String, screen: Screendump)? {
    let phase = splashctl(["status"])?.stdout.split(separator: " ").first.map(String.init) ?? ""
    let png = dir.path + "/\(name).png"
    guard splashctl(["snapshot", png])?.status == 0,
      (try? run(packageRoot + "/tools/png-to-ppm.py", [png, dir.path + "/\(name).ppm"], environment: [:]))?.status
        == 0,
      let screen = Screendump(path: dir.path + "/\(name).ppm")
    else { return nil }
    return (phase, screen)
  }

  /// What a client of the host's display socket (grim, wtype) is given.
  var displayEnvironment: [String: String] { ["XDG_RUNTIME_DIR": dir.path, "WAYLAND_DISPLAY": "wayland-0"] }
  /// foot running a shell, in the kiosk's colour: the program keys are typed into.
  static let footShell = ["foot", "--override=colors.background=2080c0", "/bin/sh"]

  /// wtype's arguments to type `command` and Enter into the focused
  /// window. A leading space goes first: wtype now and then loses its first
  /// key on any wlroots compositor (its issue 46), and the shell ignores it.
  static func typing(_ command: String) -> [String] { [" " + command, "-k", "Return"] }

  /// Types `command` and Enter through the virtual-keyboard protocol
  /// (wtype); wtype's outcome, nil when it could not be run.
  func type(_ command: String) -> Outcome? {
    try? run("/usr/bin/wtype", Self.typing(command), environment: displayEnvironment)
  }

  /// Waits until `status` says the program has shown its first frame.
  func waitForTheProgram() -> Bool {
    waitUntil { FileManager.default.fileExists(atPath: socketPath) }
    return waitUntil(20) { splashctl(["status"])?.stdout.contains(" program=shown") == true }
  }

  /// Once the program shows alone (the transition done), a client's virtual
  /// pointer (tools/wayland/virtual-pointer.py) that clicks at (`u`, `v`) of
  /// the screen once "go" is said into the FIFO `go`; nil when the program
  /// never shows alone or the client cannot be started.
  func virtualPointerOnceAlone(clickingAt u: Double, _ v: Double, when go: String) -> StartedProcess? {
    guard waitForTheProgram(), waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
    else { return nil }
    return try? StartedProcess(
      "/bin/sh", ["-c", "exec python3 \(packageRoot)/tools/wayland/virtual-pointer.py \(u) \(v) 0<> \(go)"],
      environment: displayEnvironment)
  }

  /// Says "go" into `fifo`, once a program reads it (at most 10 s); whether it was said.
  func say(go fifo: String) -> Bool {
    waitUntil(10) {
      let end = open(fifo, O_WRONLY | O_NONBLOCK)
      guard end >= 0 else { return false }
      defer { close(end) }
      return write(end, "go\n", 3) == 3
    }
  }

  /// The snapshots taken from `splashctl reveal` until the transition is done.
  func snapshotsOfTheTransition() -> [Screendump] {
    _ = splashctl(["reveal"])
    var shots: [Screendump] = []
    var index = 0
    while let shot = snapshot("transition-\(index)"), index < 200 {
      index += 1
      if shot.phase == "phase=done" { break }
      if shot.phase == "phase=transition" { shots.append(shot.screen) }
    }
    return shots
  }

  /// Along the middle row: where the left leaf ends and the right leaf
  /// begins (the gap the doors leave open between them).
  func gap(_ screen: Screendump) -> Range<Int> {
    let y = screen.height / 2
    let leftEnd = (0..<screen.width).first { screen.at($0, y) != Self.red } ?? screen.width
    let rightStart = (leftEnd..<screen.width).first { screen.at($0, y) == Self.green } ?? screen.width
    return leftEnd..<rightStart
  }

  /// The doors open onto foot itself: held, the closed doors (foot
  /// already drawing under them); mid-transition, foot's own pixels in the
  /// gap between the leaves, never the background; after, foot alone, and
  /// splashd still its compositor, until SIGTERM ends both.
  @Test func theDoorsOpenOntoTheProgramItself() throws {
    var held: Screendump?
    var opening: [Screendump] = []
    var after: Screendump?
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "2", "--", "foot", "--override=colors.background=2080c0"], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram() else { return }
        held = snapshot("held")?.screen
        opening = snapshotsOfTheTransition()
        after = snapshot("after")?.screen
        kill(splashd.pid, SIGTERM)
      })
    let note = outcome.stderr
    let closed = try #require(held, "no snapshot of the held splash: \(note)")
    #expect(closed.at(0, 120) == Self.red && closed.at(159, 120) == Self.red && closed.at(160, 120) == Self.green)
    let parted = opening.filter { gap($0).count >= 40 && gap($0).count < 300 }
    #expect(!parted.isEmpty, "no snapshot with the doors part open among \(opening.count): \(note)")
    for screen in parted {
      let open = gap(screen)
      let shown = open.map { screen.at($0, 120) }
      #expect(!shown.contains(Self.blue), "the background shows between the doors")
      #expect(shown.filter { $0 == Self.foot }.count > open.count * 9 / 10, "foot's pixels are not in the gap")
    }
    parted.first?.keep(as: "host-mode-doors-opening")
    let program = try #require(after, "no snapshot after the transition: \(note)")
    program.keep(as: "host-mode-after")
    let grid = stride(from: 0, to: 240, by: 15).flatMap { y in
      stride(from: 0, to: 320, by: 20).map { program.at($0, y) }
    }
    #expect(grid.filter { $0 == Self.foot }.count > grid.count * 9 / 10, "foot does not fill the screen: \(note)")
    // SIGTERM went on to foot, which it ended; splashd exits with foot's status, as it says.
    #expect(outcome.status != 0 && note.contains("/foot ended with status \(outcome.status)\n"), "\(note)")
  }

  /// Once the program has shown its first frame, the splash's code is
  /// let go of (the compositor lives on for the kiosk's life): after the
  /// transition, splashd hosting foot has less of its code resident than a
  /// plain splash has once it has shown its picture (without that, as much
  /// or more: the compositor's code on top of the splash's).
  @Test func theSplashsCodeIsLetGoOfOnceTheProgramShows() throws {
    var plainKiB: Int?
    _ = try spawnSplashd(
      Array(splash.dropLast(2)) + ["--hold", "30"], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=hold") == true }) else { return }
        plainKiB = residentProgramCodeKiB(of: splashd.pid)
        kill(splashd.pid, SIGTERM)
      })
    try? FileManager.default.removeItem(atPath: socketPath)
    var hostingKiB: Int?
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "foot"], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram(),
          waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
        else { return }
        hostingKiB = residentProgramCodeKiB(of: splashd.pid)
        kill(splashd.pid, SIGTERM)
      })
    let plain = try #require(plainKiB, "no figure of the plain splash")
    let hosting = try #require(hostingKiB, "no figure of the hosting splash: \(outcome.stderr)")
    // What hosting runs after (its run loop, libwayland's callbacks,
    // splashctl's status) is mapped again: 1.9-2.5 MB of the debug build's
    // scattered code, against 3.3-3.5 for the plain splash.
    #expect(hosting * 5 < plain * 4, "hosting: \(hosting) KiB of code resident, a plain splash \(plain)")
  }

  /// After the transition splashd goes on as the compositor, the display
  /// its own: did-disappear (the splash gone from the screen) is told then.
  /// Before, `splashctl wait did-disappear` (and `plymouth --wait`) waited
  /// until the program ended, which a kiosk's program never does.
  @Test func didDisappearIsToldOnceTheProgramIsAlone() throws {
    var waited: Outcome?
    var failure = ""
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "foot"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(),
          waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
        else { return }
        do {
          waited = try run(
            splashctlPath, ["--control", socketPath, "wait", "did-disappear"], environment: [:], timeout: 10)
        } catch {
          failure = "\(error)"
        }
      })
    let wait = try #require(waited, "\(failure) \(outcome.stderr)")
    #expect(wait.status == 0, "\(wait) \(outcome.stderr)")
  }

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
  /// the left button's press and release. (tools/wayland/virtual-pointer.py
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
  /// (tools/wayland/idle-inhibit.py), and the program runs on.
  @Test func anIdleInhibitorIsTaken() throws {
    var asked: Outcome?
    var status: String?
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "foot"], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        asked = try? run(packageRoot + "/tools/wayland/idle-inhibit.py", [], environment: displayEnvironment)
        status = splashctl(["status"])?.stdout
      })
    let inhibited = try #require(asked, "the client did not run: \(outcome.stderr)")
    #expect(inhibited.status == 0 && inhibited.stdout == "inhibited\n", "\(inhibited.stderr): \(outcome.stderr)")
    #expect(status?.contains(" program=shown") == true, "\(status ?? "no status"): \(outcome.stderr)")
  }

  /// Remote control through wayvnc (Debian's, a client of the display's
  /// socket): a VNC viewer (tools/wayland/vnc-click.py) sees the screen
  /// as `splashctl snapshot` shows it (wayvnc reads it through
  /// screencopy), and its click reaches the program (wev) through the
  /// virtual pointer wayvnc makes.
  @Test func wayvncRemoteControlsTheProgram() throws {
    let events = dir.path + "/wev.txt"
    let vnc = dir.path + "/vnc"
    func said() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
    var viewer: Outcome?
    var screen: Screendump?
    var clicked = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(events)"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }),
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
        viewer = try? run(packageRoot + "/tools/wayland/vnc-click.py", [vnc, "0.25", "0.5"], environment: [:])
        clicked = waitUntil(20) { said().contains("state: 0 (released)") }
      })
    let seen = try #require(viewer, "no VNC viewer ran: \(outcome.stderr)")
    #expect(seen.status == 0, "\(seen.stderr): \(outcome.stderr)")
    let shown = try #require(screen, "no snapshot: \(outcome.stderr)")
    #expect(seen.stdout == "320 240 \(String(format: "%06X", shown.at(80, 120)))\n", "\(seen.stdout)")
    #expect(clicked, "wev saw no click: \(said()) \(outcome.stderr)")
    #expect(said().contains("x, y: 80.000000, 120.000000"), "\(said())")
  }

  /// A screencopy client that asks again the moment each copy is done
  /// (tools/wayland/screencopy-flood.py) gets one copy a refresh of the
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
          packageRoot + "/tools/wayland/screencopy-flood.py", ["30"], environment: displayEnvironment, timeout: 60)
        status = splashctl(["status"])?.stdout
      })
    let copied = try #require(flood, "the client did not run: \(outcome.stderr)")
    #expect(copied.status == 0, "\(copied.stderr): \(outcome.stderr)")
    let said = copied.stdout.split(separator: " ")
    let seconds = said.count == 2 ? Double(said[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    #expect(said.first == "30" && (seconds ?? 0) >= 29.0 / 20 * 0.99, "\(copied.stdout)")
    #expect(status?.hasPrefix("phase=waiting") == true, "\(status ?? "no status"): \(outcome.stderr)")
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

  /// `restart = on-failure`: foot's shell exits 3 when told to (a file
  /// appears); the splash comes back, cross-faded from foot's last frame
  /// (never the background between them), the program starts again and
  /// the doors open onto its new frame (`restarts=1`); when it fails again
  /// at the limit (1), the splash stays and splashd exits 3, saying why.
  @Test func aProgramThatFailsIsStartedAgainUnderTheSplash() throws {
    let fail = dir.path + "/fail"
    var returning: [Screendump] = []
    var back: Screendump?
    var again: Screendump?
    var restartedStatus = ""
    func phase() -> String { splashctl(["status"])?.stdout ?? "" }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "1", "--restart", "on-failure", "--restart-limit", "1", "--", "foot",
        "--override=colors.background=2080c0", "/bin/sh", "-c",
        "while [ ! -e \(fail) ]; do sleep 0.05; done; rm \(fail); exit 3",
      ], in: dir,
      whileRunning: { splashd in
        // Ended by the test only when something did not come; else it ends by itself.
        var ended = false
        defer { if !ended { kill(splashd.pid, SIGTERM) } }
        guard waitForTheProgram(), waitUntil(20, { phase().hasPrefix("phase=done") }) else { return }
        _ = FileManager.default.createFile(atPath: fail, contents: nil)
        // The return: snapshots until the leaves stand closed again.
        _ = waitUntil(20) {
          guard let shot = snapshot("returning-\(returning.count)")?.screen else { return false }
          returning.append(shot)
          guard shot.at(0, 120) == Self.red, shot.at(319, 120) == Self.green else { return false }
          back = shot
          return true
        }
        guard back != nil, waitUntil(20, { phase().hasPrefix("phase=done") && phase().contains(" program=shown") })
        else { return }
        restartedStatus = phase()
        again = snapshot("again")?.screen
        ended = FileManager.default.createFile(atPath: fail, contents: nil)
      })
    let note = outcome.stderr
    let closed = try #require(back, "the splash did not come back: \(note)")
    closed.keep(as: "host-mode-splash-back")
    // Foot's colour fades into the leaves': never the background, never black.
    let corners = returning.map { $0.at(0, 120) }
    #expect(!corners.contains(Self.blue) && !corners.contains(0), "\(corners.map { String($0, radix: 16) }): \(note)")
    let blended = returning.filter { $0.at(0, 120) != Self.red && $0.at(0, 120) != Self.foot }
    blended.dropFirst(blended.count / 2).first?.keep(as: "host-mode-splash-returning")
    #expect(!blended.isEmpty, "no frame between foot and the leaves: \(note)")
    #expect(restartedStatus.contains(" restarts=1"), "\(restartedStatus): \(note)")
    let program = try #require(again, "no snapshot of the restarted program: \(note)")
    #expect(program.at(0, 120) == Self.foot && program.at(319, 120) == Self.foot, "\(note)")
    #expect(outcome.status == 3, "\(outcome.status): \(note)")
    #expect(note.contains("foot ended with status 3; starting it again (restart 1)\n"), "\(note)")
    #expect(note.contains("foot ended with status 3; not started again after 1 restart\n"), "\(note)")
  }

  /// `splashctl quit` while the program runs (as systemctl stop's SIGTERM
  /// would): the program (a shell that keeps foot on for 2 s once told to
  /// stop) is told, and its frames cross-fade into the shutdown's picture
  /// (yellow), never the background or black between, which holds until the
  /// program ends; splashd then ends with it.
  @Test func aStopWhileTheProgramRunsFadesIntoTheShutdownPicture() throws {
    let yellow = dir.solidPNG("yellow.png", width: 320, height: 240, rgb: (255, 255, 0))
    var fading: [Screendump] = []
    var quit: Outcome?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "1", "--image-shutdown", yellow, "--", "/bin/sh", "-c",
        "foot --override=colors.background=2080c0 & trap 'sleep 2; kill $!; exit 0' TERM; wait",
      ], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        guard waitForTheProgram(), waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
        else {
          kill(splashd.pid, SIGTERM)
          return
        }
        quit = splashctl(["quit"])
        // Snapshots until the picture is whole (or splashd has gone).
        _ = waitUntil(20) {
          guard let shot = snapshot("fading-\(fading.count)")?.screen else { return true }
          fading.append(shot)
          return shot.at(0, 120) == 0xFFFF00 && shot.at(319, 120) == 0xFFFF00
        }
      })
    let note = outcome.stderr
    #expect(quit?.status == 0, "\(note)")
    let corners = fading.map { $0.at(0, 120) }
    #expect(corners.last == 0xFFFF00, "the shutdown's picture never showed: \(corners): \(note)")
    #expect(!corners.contains(Self.blue) && !corners.contains(0), "\(corners): \(note)")
    let blended = fading.filter { $0.at(0, 120) != 0xFFFF00 && $0.at(0, 120) != Self.foot }
    blended.dropFirst(blended.count / 2).first?.keep(as: "host-mode-fading-to-shutdown")
    #expect(!blended.isEmpty, "no frame between foot and the shutdown's picture: \(note)")
    #expect(outcome.status == 0 && note.contains("/sh ended with status 0\n"), "\(outcome.status): \(note)")
  }

  /// `splashctl quit` while a failed program waits to be started again
  /// ends splashd then, with the program's status: a stop is never
  /// followed by a restart (before: the quit was lost, the program started
  /// again and splashd never ended).
  @Test func aQuitWhileTheProgramWaitsForItsRestartEndsSplashd() throws {
    var quit: Outcome?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--restart", "on-failure", "--restart-limit", "3", "--", "foot",
        "--override=colors.background=2080c0", "/bin/sh", "-c", "sleep 0.5; exit 3",
      ], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram(),
          waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=holding") == true })
        else {
          kill(splashd.pid, SIGTERM)
          return
        }
        quit = splashctl(["quit"])
      })
    #expect(quit?.status == 0, "\(outcome.stderr)")
    #expect(outcome.status == 3, "\(outcome.status): \(outcome.stderr)")
    let starts = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("splashd: started ") }
    #expect(starts.count == 1, "\(outcome.stderr)")
  }

  /// A quit during the transition ends it at once, and splashd goes on as
  /// the program's compositor: weston-simple-shm keeps animating (the
  /// stage draws its frames, and their frame callbacks go out; before, the
  /// stage thought the stopped transition still ran, and drew nothing).
  @Test func aQuitDuringTheTransitionLeavesTheProgramAnimating() throws {
    var first: Screendump?
    var changed = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "3", "--", "weston-simple-shm"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=transition") == true }) else { return }
        _ = splashctl(["quit"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=transition") == false }) else { return }
        first = snapshot("after-quit")?.screen
        changed = waitUntil(10) {
          guard let first, let next = snapshot("later")?.screen else { return false }
          return (0..<240).contains { y in (0..<320).contains { next.at($0, y) != first.at($0, y) } }
        }
      })
    #expect(first != nil, "\(outcome.stderr)")
    #expect(changed, "the program stopped animating after the quit: \(outcome.stderr)")
  }

  /// A program that never draws, revealed by the timeout, then ending with
  /// 3, is a failure to start again (before: its end counted as a stop
  /// asked of splashd, which faded into the shutdown picture instead).
  @Test func aProgramThatNeverDrewIsStartedAgainWhenItFails() throws {
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--timeout", "0.5", "--duration", "0.2", "--restart", "on-failure", "--restart-limit", "1", "--",
        "/bin/sh", "-c", "sleep 1; exit 3",
      ], in: dir)
    #expect(outcome.status == 3, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("sh ended with status 3; starting it again (restart 1)\n"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("sh ended with status 3; not started again after 1 restart\n"), "\(outcome.stderr)")
  }

  /// Without `restart`, a setting that needs host mode is refused by name.
  @Test func restartNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--restart", "always", "--", "foot"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--restart needs --host wayland"), "\(outcome.stderr)")
  }

  /// A program that draws at each frame callback (frame-counter) is paced
  /// after the transition by the offscreen display's refresh (`--fps 50`),
  /// as on a screen: at most about 50 frames a second, never called again
  /// the moment its frame is drawn (thousands a second, a core burnt).
  /// What it counts in the second after 0.5 s is an upper bound that a
  /// slow machine can only lower.
  @Test func anAnimatingProgramIsPacedByTheOffscreenDisplaysRefresh() throws {
    let counter = dir.path + "/frame-counter"
    try buildWaylandClient("tools/qemu/frame-counter.c", in: dir.path, to: counter)
    let figures = dir.path + "/figures"
    let (_, outcome) = try spawnSplashd(
      splash + ["--fps", "50", "--duration", "0.1", "--", counter, "0.5", "1", figures], in: dir,
      whileRunning: { splashd in
        _ = waitUntil(20) { FileManager.default.fileExists(atPath: figures) }
        kill(splashd.pid, SIGTERM)
      })
    let words = ((try? String(contentsOfFile: figures, encoding: .utf8)) ?? "").split(separator: " ")
    let frames = words.count == 6 ? Double(words[1]) : nil
    let seconds = words.count == 6 ? Double(words[3]) : nil
    let rate = frames.flatMap { frames in seconds.map { frames / $0 } }
    #expect(rate.map { $0 > 0 && $0 <= 75 } == true, "\(words) \(outcome.stderr)")
  }

  /// An animating program keeps animating while the doors open: the
  /// program's pixels between the leaves change from frame to frame.
  @Test func theProgramAnimatesBetweenTheOpeningDoors() throws {
    var opening: [Screendump] = []
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "2", "--", "weston-simple-shm"], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram() else { return }
        opening = snapshotsOfTheTransition()
        kill(splashd.pid, SIGTERM)
      })
    // simple-shm's 250x250 window, centred: the columns of the middle where the doors have parted.
    let centre = opening.filter { gap($0).contains(150) && gap($0).contains(170) }
    let middles = centre.map { screen in (150..<170).flatMap { x in (100..<140).map { screen.at(x, $0) } } }
    let changes = zip(middles, middles.dropFirst()).filter { $0 != $1 }.count
    #expect(centre.count >= 2, "too few snapshots with the middle open: \(centre.count); \(outcome.stderr)")
    #expect(changes >= 1, "the program's pixels between the doors never changed in \(centre.count) snapshots")
    #expect(middles.allSatisfy { !$0.contains(Self.blue) }, "the background shows between the doors")
  }

  /// The cross-fade blends the picture into the program, not into the
  /// background: mid-fade, the left leaf's red is mixed with foot's colour
  /// (its green and blue rise), never with the blue background alone (no
  /// green).
  @Test func theCrossFadeBlendsThePictureIntoTheProgram() throws {
    var fading: [Screendump] = []
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--until-reveal", "--transition", "crossfade", "--duration", "2", "--", "foot",
        "--override=colors.background=2080c0",
      ], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram() else { return }
        fading = snapshotsOfTheTransition()
        kill(splashd.pid, SIGTERM)
      })
    // Well into the fade (the red down by a sixteenth or more), short of its end.
    let middles = fading.map { $0.at(80, 120) }.filter { $0 >> 16 < 0xF0 && $0 != Self.foot }
    #expect(!middles.isEmpty, "no snapshot mid-fade among \(fading.count); \(outcome.stderr)")
    for pixel in middles {
      let (green, blue) = ((pixel >> 8) & 0xFF, pixel & 0xFF)
      // Over foot (0x2080C0) green and blue rise together; over the blue background green would stay 0.
      #expect(green > 0 && blue > green, "mid-fade pixel \(String(pixel, radix: 16))")
    }
    fading.first { middles.contains($0.at(80, 120)) }?.keep(as: "host-mode-crossfade")
  }

  /// A reveal asked before the program's first frame waits for it: the
  /// splash holds (status: program=starting) while the program has not
  /// drawn, here until the test lets it start foot, and then the doors
  /// open onto foot.
  @Test func anEarlyRevealWaitsForTheProgramsFirstFrame() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var watched: [String] = []
    var after: Screendump?
    let script = "read go < \(go); exec foot --override=colors.background=2080c0"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "0.5", "--", "/bin/sh", "-c", script], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.contains(" program=starting") == true }) else { return }
        _ = splashctl(["reveal"])
        // Watched for half a second: a reveal that did not wait would have
        // the doors moving within a frame (0.5 s is the whole transition).
        let watchedUntil = Date().addingTimeInterval(0.5)
        while Date() < watchedUntil, let status = splashctl(["status"])?.stdout { watched.append(status) }
        // The program may go on (its shell waits on the FIFO).
        guard say(go: go), waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else {
          return
        }
        after = snapshot("after")?.screen
        kill(splashd.pid, SIGTERM)
      })
    let note = outcome.stderr
    #expect(!watched.isEmpty, "no status while the reveal waited: \(note)")
    let moved = watched.filter { !($0.hasPrefix("phase=holding") || $0.hasPrefix("phase=waiting")) }
    #expect(moved.isEmpty, "the doors moved before the program drew: \(moved.first ?? ""): \(note)")
    #expect(watched.allSatisfy { $0.contains(" program=starting") }, "\(watched.last ?? ""): \(note)")
    let program = try #require(after, "the doors never opened onto the program: \(note)")
    #expect(program.at(160, 120) == Self.foot && program.at(300, 200) == Self.foot, "\(note)")
  }

  /// A local page in the kiosk's colour, for the browsers.
  func kioskPage() throws -> String {
    let page = dir.path + "/page.html"
    try "<!doctype html><body style='margin:0;background:#2080c0'></body>".write(
      toFile: page, atomically: true, encoding: .utf8)
    return "file://" + page
  }

  /// `program` (splashd's `options` before it), which fills its window in
  /// the kiosk's colour: the doors open onto its own pixels (never the
  /// background), and it then fills the screen; the transition's first
  /// parted frame and the program are kept as `NAME-doors-opening` and
  /// `NAME`.
  func theDoorsOpenOnto(_ program: [String], options: [String] = [], keptAs name: String) throws {
    var opening: [Screendump] = []
    var after: Screendump?
    let (_, outcome) = try spawnSplashd(
      splash + options + ["--until-reveal", "--duration", "1", "--"] + program, in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path, "HOME=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        // (A browser takes its time on two busy cores.)
        guard waitUntil(60, { splashctl(["status"])?.stdout.contains(" program=shown") == true }) else { return }
        opening = snapshotsOfTheTransition()
        _ = waitUntil(30) {
          guard let shot = snapshot("after")?.screen else { return false }
          after = shot
          return shot.at(10, 10) == Self.foot && shot.at(310, 230) == Self.foot
        }
      })
    let note = outcome.stderr
    let parted = opening.filter { gap($0).count >= 40 && gap($0).count < 300 }
    #expect(!parted.isEmpty, "no snapshot with the doors part open among \(opening.count): \(note)")
    for screen in parted {
      #expect(!gap(screen).map { screen.at($0, 120) }.contains(Self.blue), "the background shows between the doors")
    }
    parted.first?.keep(as: name + "-doors-opening")
    let program = try #require(after, "no snapshot after the transition: \(note)")
    program.keep(as: name)
    let grid = stride(from: 0, to: 240, by: 15).flatMap { y in
      stride(from: 0, to: 320, by: 20).map { program.at($0, y) }
    }
    #expect(grid.allSatisfy { $0 == Self.foot }, "the program does not fill the screen: \(note)")
  }

  /// cog, WPE WebKit's kiosk browser, on its Wayland platform.
  @Test func theDoorsOpenOntoCogShowingALocalPage() throws {
    try theDoorsOpenOnto(["cog", "--platform=wl", try kioskPage()], keptAs: "host-mode-cog")
  }

  /// Chromium in kiosk mode on Ozone's Wayland platform (no GPU: its
  /// software compositor commits shared memory). As root it needs
  /// --no-sandbox; its profile goes to the test's folder.
  @Test func theDoorsOpenOntoChromiumShowingALocalPage() throws {
    let profile = dir.path + "/chromium"
    try theDoorsOpenOnto(
      [
        "chromium", "--ozone-platform=wayland", "--kiosk", "--no-sandbox", "--no-first-run",
        "--user-data-dir=" + profile, try kioskPage(),
      ], keptAs: "host-mode-chromium")
  }

  /// An X11 program through Xwayland (`--xwayland`): xlogo, its logo and
  /// background both in the kiosk's colour, is configured full screen
  /// (its first window that is not a menu), and the doors open onto it.
  @Test func theDoorsOpenOntoAnX11ProgramThroughXwayland() throws {
    try theDoorsOpenOnto(
      ["xlogo", "-bg", "#2080c0", "-fg", "#2080c0"], options: ["--xwayland"], keptAs: "host-mode-xwayland")
  }

  /// Xwayland killed under a running X11 program (its X server gone, the
  /// program ends with it): splashd forgets the X windows, lives on, and
  /// with `restart = on-failure` starts the program again, whose new X
  /// connection starts Xwayland again, and shows its new window.
  @Test func anX11ProgramWhoseXwaylandDiesIsStartedAgain() throws {
    var before = ""
    var after = ""
    var alive = false
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--xwayland", "--duration", "0.2", "--restart", "on-failure", "--", "xlogo", "-bg", "#2080c0", "-fg",
        "#2080c0",
      ], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        func status() -> String { splashctl(["status"])?.stdout ?? "" }
        guard waitForTheProgram(),
          waitUntil(20, { status().hasPrefix("phase=done") && status().contains(" windows=1") })
        else { return }
        before = status()
        // The X server of the program's DISPLAY (tests beside this one run
        // theirs); the program's X connection dies with it.
        let display = children(of: splashd.pid).lazy.compactMap { environment(of: $0)["DISPLAY"] }.first
        let xwayland = processes(named: "Xwayland").filter { arguments(of: $0).contains(display ?? "-") }
        guard xwayland.count == 1 else { return }
        kill(xwayland[0], SIGKILL)
        _ = waitUntil(30) {
          let now = status()
          after = now
          return now.contains(" restarts=1") && now.contains(" program=shown") && now.contains(" windows=1")
        }
        alive = kill(splashd.pid, 0) == 0
      })
    let note = outcome.stderr
    #expect(before.contains(" windows=1"), "\(before): \(note)")
    #expect(
      after.contains(" restarts=1") && after.contains(" program=shown") && after.contains(" windows=1"),
      "\(after): \(note)")
    #expect(alive, "splashd did not live on: \(note)")
  }

  /// The machine's processes, from /proc.
  func processes() -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
  }

  func children(of pid: Int32) -> [Int32] { processes().filter { Processes.parent(of: $0) == pid } }

  func processes(named name: String) -> [Int32] {
    processes().filter { readProcFile("/proc/\($0)/comm") == name + "\n" }
  }

  /// A process's arguments, from /proc.
  func arguments(of pid: Int32) -> [String] {
    (readProcFile("/proc/\(pid)/cmdline") ?? "").split(separator: "\0").map(String.init)
  }

  /// A process's environment, from /proc.
  func environment(of pid: Int32) -> [String: String] {
    var found: [String: String] = [:]
    for entry in (readProcFile("/proc/\(pid)/environ") ?? "").split(separator: "\0") {
      guard let equals = entry.firstIndex(of: "=") else { continue }
      found[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
    }
    return found
  }

  /// A second X11 window (a 100x60 xlogo in orange, the program's child)
  /// lies centred over the program's full-screen one, where X is told it is.
  @Test func aSecondX11WindowShowsCentredOverTheFirst() throws {
    let orange: UInt32 = 0xFF8000
    var shown: Screendump?
    let program =
      "xlogo -bg '#2080c0' -fg '#2080c0' & sleep 1; exec xlogo -bg '#ff8000' -fg '#ff8000' -geometry 100x60"
    let (_, outcome) = try spawnSplashd(
      splash + ["--xwayland", "--duration", "0.2", "--", "/bin/sh", "-c", program], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(30, { splashctl(["status"])?.stdout.contains(" windows=2") == true }) else { return }
        _ = waitUntil(20) {
          shown = snapshot("two")?.screen
          return shown?.at(160, 120) == orange
        }
      })
    let screen = try #require(shown, "no snapshot with two windows: \(outcome.stderr)")
    screen.keep(as: "host-mode-xwayland-two-windows")
    #expect(screen.at(160, 120) == orange && screen.at(115, 95) == orange && screen.at(205, 145) == orange)
    #expect(screen.at(105, 85) == Self.foot && screen.at(215, 155) == Self.foot, "not centred: \(outcome.stderr)")
    #expect(screen.at(5, 5) == Self.foot && screen.at(315, 235) == Self.foot, "the first is not full screen")
  }

  /// An X11 program run as another user (`--user nobody`): X lets in only
  /// its server's own user (root here), so splashd lets the program's user
  /// in before it starts; the doors open onto it.
  @Test func anX11ProgramRunsAsItsUser() throws {
    try theDoorsOpenOnto(
      ["xlogo", "-bg", "#2080c0", "-fg", "#2080c0"], options: ["--xwayland", "--user", "nobody"],
      keptAs: "host-mode-xwayland-user")
  }

  /// Keys reach an X11 program whose window shows after the keyboard came
  /// (a machine's keyboards are there from the start): xev reports the key
  /// a virtual keyboard made before it types. (Xwayland marks a window
  /// mapped only after its map signal: focus given then went nowhere.)
  /// wtype's pause before its key leaves xev 8 s to show.
  @Test func keysReachAnX11ProgramThatShowsAfterTheKeyboard() throws {
    let typed = dir.path + "/xev.txt"
    var got = false
    let program = "env -u WAYLAND_SOCKET wtype -s 8000 -k a & exec stdbuf -oL xev -event keyboard > \(typed)"
    let (_, outcome) = try spawnSplashd(
      splash + ["--xwayland", "--duration", "0.2", "--", "/bin/sh", "-c", program], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        got = waitUntil(30) {
          (try? String(contentsOfFile: typed, encoding: .utf8))?.contains("KeyPress event") == true
        }
      })
    #expect(got, "xev got no key: \(outcome.stderr)")
  }

  /// An X11 program is connected through its X server: Xwayland's own
  /// Wayland connection (made by splashd, as the program's own is) counts
  /// as the program's, so that a program that closes the WAYLAND_SOCKET it
  /// never uses and then opens its X display is waited for again.
  @Test func anX11ProgramIsConnectedThroughXwayland() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    let script =
      "eval \"exec $WAYLAND_SOCKET>&-\"; unset WAYLAND_SOCKET; read a < \(go); exec xlogo -bg '#2080c0' -fg '#2080c0'"
    var states: [String] = []
    let (_, outcome) = try spawnSplashd(
      splash + ["--xwayland", "--until-reveal", "--timeout", "0", "--", "/bin/bash", "-c", script], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        for state in ["disconnected", "starting"] {
          guard waitUntil(20, { splashctl(["status"])?.stdout.contains(" program=\(state)") == true }) else { return }
          states.append(state)
          if state == "disconnected", !say(go: go) { return }
        }
      })
    #expect(states == ["disconnected", "starting"], "\(states): \(outcome.stderr)")
    // Xwayland's launcher (a fork of splashd's, which waits for Xwayland to be ready) ends with splashd.
    #expect(waitUntil(10, { processes(mentioning: dir.path).isEmpty }), "\(processes(mentioning: dir.path))")
  }

  /// The processes whose command line holds `text`, with their command lines.
  func processes(mentioning text: String) -> [String] {
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int32($0) != nil } ?? []
    return pids.compactMap { pid in
      guard let line = readProcFile("/proc/\(pid)/cmdline")?.replacingOccurrences(of: "\0", with: " "),
        line.contains(text)
      else { return nil }
      return "\(pid): \(line)"
    }
  }

  /// `--screens` other than the default needs host mode, and says so.
  @Test func screensNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--screens", "extend", "--", "foot"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--screens needs --host wayland"), "\(outcome.stderr)")
  }

  /// `--xwayland` needs host mode, and says so.
  @Test func xwaylandNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--xwayland", "--", "xlogo"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--xwayland needs --host wayland"), "\(outcome.stderr)")
  }

  /// A program that lets go of its connection, then connects again
  /// through the display's socket, as cog does (it tries the display with
  /// WAYLAND_SOCKET first): while it is connected again a reveal waits for
  /// its frame (no timeout here); once it lets go of that connection too,
  /// the reveal goes ahead. (A Python client that connects and says
  /// nothing stands in for the program's second connection.)
  @Test func aProgramThatConnectsAgainIsWaitedForAgain() throws {
    let go = dir.path + "/go"
    let leave = dir.path + "/leave"
    #expect(mkfifo(go, 0o600) == 0 && mkfifo(leave, 0o600) == 0)
    let client = """
      import os, socket, time
      s = socket.socket(socket.AF_UNIX)
      s.connect(os.environ["XDG_RUNTIME_DIR"] + "/" + os.environ["WAYLAND_DISPLAY"])
      open("\(leave)").read()
      s.close()
      time.sleep(60)
      """
    let script = "eval \"exec $WAYLAND_SOCKET>&-\"; unset WAYLAND_SOCKET; read a < \(go); exec python3 -c '\(client)'"
    var states: [String] = []
    var watched: [String] = []
    var revealed: String?
    func state(_ name: String) -> Bool {
      let reached = waitUntil(20) { splashctl(["status"])?.stdout.contains(" program=\(name)") == true }
      if reached { states.append(name) }
      return reached
    }
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--duration", "0.2", "--", "/bin/bash", "-c", script], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard state("disconnected"), say(go: go), state("starting") else { return }
        _ = splashctl(["reveal"])
        let watchedUntil = Date().addingTimeInterval(0.5)
        while Date() < watchedUntil, let status = splashctl(["status"])?.stdout { watched.append(status) }
        guard say(go: leave), waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else {
          return
        }
        revealed = splashctl(["status"])?.stdout
      })
    let note = outcome.stderr
    #expect(states == ["disconnected", "starting"], "\(states): \(note)")
    #expect(!watched.isEmpty, "no status while the reveal waited: \(note)")
    let moved = watched.filter { !($0.hasPrefix("phase=holding") || $0.hasPrefix("phase=waiting")) }
    #expect(moved.isEmpty, "the doors moved while the program was connected: \(moved.first ?? ""): \(note)")
    #expect(revealed?.contains(" program=disconnected") == true, "\(revealed ?? "never revealed"): \(note)")
  }

  /// A program that never draws: the gate's timeout ends the wait, the
  /// doors open onto what there is (the background), and splashd stays
  /// its compositor (program=starting still) until it is stopped.
  @Test func theTimeoutEndsTheWaitForAProgramThatNeverDraws() throws {
    var status: String?
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "1", "--duration", "0.2", "--", "sleep", "60"], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.contains(" program=starting") == true }) else { return }
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else { return }
        status = splashctl(["status"])?.stdout
        kill(splashd.pid, SIGTERM)
      })
    let note = outcome.stderr
    let done = try #require(status, "the splash never ended: \(note)")
    #expect(done.contains(" program=starting"), "\(done)")
    // SIGTERM went on to sleep, which it ended; splashd exits with its status.
    #expect(note.contains("/sleep ended with status \(outcome.status)\n"), "\(note)")
  }

  /// A program that sends its compositor garbage (a request to an object
  /// that does not exist): the compositor cuts it off, splashd still
  /// answers, a reveal no longer waits for a frame that cannot come (no
  /// timeout here to end the wait), and the program runs on.
  @Test func garbageFromTheProgramCannotHoldTheSplashOrEndTheProgram() throws {
    var status: String?
    var programRuns = false
    // Object 99, opcode 0, 8 bytes: a whole message, for nothing.
    let script = "printf '\\x63\\x00\\x00\\x00\\x00\\x00\\x08\\x00' >&$WAYLAND_SOCKET; exec sleep 60"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--duration", "0.2", "--", "/bin/bash", "-c", script], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=") == true }) else { return }
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else { return }
        status = splashctl(["status"])?.stdout
        programRuns = (try? run("/usr/bin/pgrep", ["-P", String(splashd.pid), "sleep"], environment: [:]))?.status == 0
        kill(splashd.pid, SIGTERM)
      })
    let note = outcome.stderr
    #expect(status?.contains(" program=disconnected") == true, "\(status ?? "the splash never ended"): \(note)")
    #expect(programRuns, "the program did not run on: \(note)")
    #expect(note.contains("/bin/bash ended with status \(outcome.status)\n"), "\(note)")
  }

  /// tools/wayland/hostile-buffer-client.c, built here with wayland-scanner's
  /// xdg-shell code: its path.
  func hostileBufferClient() throws -> String {
    let client = dir.path + "/hostile-buffer-client"
    try buildWaylandClient("tools/wayland/hostile-buffer-client.c", in: dir.path, to: client)
    return client
  }

  /// A client whose 32-bit buffer has rows of one byte a pixel (all that
  /// libwayland checks), in a pool just that big (hostile-buffer-client
  /// short-rows): splashd, root in a kiosk, never reads past the client's
  /// memory; the buffer is not shown, the splash holds, and splashd answers on.
  @Test func aBufferWithShortRowsIsNeverRead() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    var status: String?
    var alive = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--", client, "short-rows", done], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(20, { FileManager.default.fileExists(atPath: done) }) else { return }
        status = splashctl(["status"])?.stdout
        alive = kill(splashd.pid, 0) == 0
      })
    let note = outcome.stderr
    #expect(alive, "splashd did not survive the buffer: \(note)")
    #expect(status?.contains(" program=starting") == true, "\(status ?? "no status"): \(note)")
    #expect(status?.hasPrefix("phase=waiting") == true, "\(status ?? "no status"): \(note)")
  }

  /// A program whose first frame has nothing in it (a fully transparent
  /// ARGB buffer, as a browser's before its first paint: cog's under QEMU),
  /// which then draws once its frame callback comes (hostile-buffer-client
  /// blank-then-drawn): the blank frame is not its first, so the splash
  /// holds rather than opening its doors onto black, but its callback still
  /// comes at the next frame; the drawn one reveals.
  @Test func aFrameWithNothingInItIsNotTheProgramsFirst() throws {
    let client = try hostileBufferClient()
    let blank = dir.path + "/blank-committed"
    let draw = dir.path + "/draw"
    var afterBlank: String?
    var afterDrawn: String?
    var shown: Screendump?
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.3", "--", client, "blank-then-drawn", blank, draw], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(20, { FileManager.default.fileExists(atPath: blank) }) else { return }
        afterBlank = splashctl(["status"])?.stdout
        _ = FileManager.default.createFile(atPath: draw, contents: nil)
        _ = waitUntil(20) {
          afterDrawn = splashctl(["status"])?.stdout
          return afterDrawn?.hasPrefix("phase=done") == true
        }
        shown = snapshot("drawn")?.screen
      })
    let note = outcome.stderr
    #expect(afterBlank?.contains(" program=starting") == true, "\(afterBlank ?? "no status"): \(note)")
    #expect(afterBlank?.hasPrefix("phase=waiting") == true, "\(afterBlank ?? "no status"): \(note)")
    #expect(afterDrawn?.contains(" program=shown") == true, "\(afterDrawn ?? "no status"): \(note)")
    #expect(shown?.at(160, 120) == 0x208040, "\(note)")
  }

  /// A client that cuts its buffer's memory to nothing once splashd has
  /// its frame (hostile-buffer-client shrunk-pool): the frame, drawn from
  /// where it lies at every draw, is read only inside wl_shm's access, so
  /// the doors' first frame finds the memory gone without harm, wl_shm
  /// cuts the client off (its exit status 4, which splashd exits with),
  /// and splashd plays on rather than dying of SIGBUS.
  @Test func aClientThatCutsItsMemoryAfterItsFrameIsCutOffAndSplashdGoesOn() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--timeout", "0", "--duration", "0.3", "--", client, "shrunk-pool", done], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { FileManager.default.fileExists(atPath: done) }) else {
          kill(splashd.pid, SIGTERM)
          return
        }
        _ = splashctl(["reveal"])
      })
    #expect(outcome.status == 4, "\(outcome.stderr)")
  }

  /// A client that cuts its buffer's memory to nothing and exits once its
  /// frame is alone on the screen (hostile-buffer-client shrink-and-leave),
  /// with `restart = on-failure`: the splash comes back cross-faded from
  /// that frame, read after the client has gone, when wl_shm guards its
  /// memory no more: from the copy made as the buffer went (a patch of the
  /// wlroots tools/build-wlroots.sh builds), so splashd lives on, starts the
  /// client again, and at the limit exits with its status, never crashed.
  @Test func aClientThatCutsItsMemoryAndLeavesIsReturnedFromWithoutACrash() throws {
    let client = try hostileBufferClient()
    let done = dir.path + "/committed"
    let leave = dir.path + "/leave"
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--restart", "on-failure", "--restart-limit", "1", "--", client, "shrink-and-leave",
        done, leave,
      ], in: dir,
      whileRunning: { splashd in
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }) else {
          kill(splashd.pid, SIGTERM)
          return
        }
        _ = FileManager.default.createFile(atPath: leave, contents: nil)
      })
    #expect(outcome.status == 3, "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("crashed"), "\(outcome.stderr)")
  }

  /// A prepared picture cut short in the cache while the splash holds over
  /// the program: libwayland's SIGBUS handler, in place since the program's
  /// memory was first read, comes after the guard of mapped files (which
  /// goes first again at the program's first frame), so the redraw after
  /// the cut reads zeros where the file was lost and says so, and the
  /// splash goes on to reveal the program, never crashed.
  @Test func aCacheFileCutShortWhileHostingNeverCrashesTheSplash() throws {
    // A first start prepares the pictures into the cache (its program ends at once).
    let shape = splash + ["--until-reveal", "--timeout", "0", "--duration", "0.3"]
    let warm = try run(splashdPath, ["--config", dir.testConfig] + shape + ["--", "/bin/true"], timeout: 20)
    #expect(warm.status == 0, "\(warm.stderr)")
    let file = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.cache).first { $0.hasSuffix(".prepared") }
        .map { dir.cache + "/" + $0 })
    var snapshotStatus: Int32?
    var revealed = false
    let (_, outcome) = try spawnSplashd(
      shape + ["--", "foot"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), splashd.log.contains("prepared pictures from") else { return }
        truncate(file, 4096)
        snapshotStatus = splashctl(["snapshot", dir.path + "/after-the-cut.png"])?.status
        _ = splashctl(["reveal"])
        revealed = waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true })
      })
    let note = outcome.stderr
    #expect(snapshotStatus == 0 && revealed, "\(note)")
    #expect(
      outcome.stderrLines.contains("splashd: \(file) was cut short while it was shown: its lost part shows as black"),
      "\(note)")
    #expect(!note.contains("crashed"), "\(note)")
  }

  /// A program that ends before its first frame: the splash ends with its
  /// picture, without opening the doors onto nothing, and splashd exits
  /// with the program's status.
  @Test func aProgramThatEndsBeforeItsFirstFrameEndsTheSplash() throws {
    let outcome = try splashd(
      splash + ["--until-reveal", "--timeout", "20", "--", "/bin/sh", "-c", "exit 3"], in: dir, timeout: 20)
    #expect(outcome.status == 3, "\(outcome.stderr)")
    #expect(!outcome.stderr.contains("will-disappear"), "the doors opened: \(outcome.stderr)")
  }

  /// Without its compositor (the shared object not beside splashd), host
  /// mode is one line, and the splash goes on without it: revealed, the
  /// program run after it, as without host mode.
  @Test func withoutItsCompositorTheProgramRunsAfterTheSplash() throws {
    let alone = dir.path + "/alone/splashd"
    try FileManager.default.createDirectory(atPath: dir.path + "/alone", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: splashdPath, toPath: alone)
    let outcome = try run(
      alone, ["--config", dir.testConfig] + splash + ["--", "/bin/sh", "-c", "echo ran; exit 4"], environment: [:])
    #expect(outcome.status == 4 && outcome.stdout == "ran\n", "\(outcome.stderr)")
    let said = outcome.stderr.split(separator: "\n").filter { $0.contains("libsplashd-wayland-host.so") }
    #expect(said.count == 1 && said[0].hasPrefix("splashd: --host wayland: cannot load"), "\(outcome.stderr)")
  }

  /// `--check` says what the program gets in host mode; first-frame
  /// without host mode is refused, naming the option.
  @Test func checkSaysWhatTheProgramGets() throws {
    let checked = try splashd(splash + ["--check", "--", "foot"], in: dir)
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(
      checked.stdout.contains("as the client of splashd's Wayland compositor (host = wayland: WAYLAND_SOCKET"),
      "\(checked.stdout)")
    #expect(checked.stdout.contains("host = wayland"), "\(checked.stdout)")
    // (A refused setting still runs the program, as every bad input does.)
    let refused = try splashd(
      ["--display", "offscreen", "--ready", "first-frame", "--", "/bin/sh", "-c", "exit 5"], in: dir)
    #expect(
      refused.status == 5 && refused.stderr.hasPrefix("splashd: --ready first-frame needs host mode (host = wayland)"),
      "\(refused.stderr)")
  }
}

extension DisplayTests.WindowTests {
  /// `--display window --host wayland -- foot` previews the doors opening
  /// onto the real program in a desktop window (Xvfb): foot between the
  /// parting leaves, then foot filling splashd's window.
  @Test func hostModePreviewsTheDoorsOpeningOntoTheProgramInAWindow() throws {
    let screen = try VirtualScreen()
    let dir = try TemporaryDirectory()
    let control = dir.path + "/control"
    let splash = try screen.launchSplashd(
      [
        "--left", dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0)), "--right",
        dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0)), "--background", "#0000FF",
        "--until-reveal", "--duration", "3", "--control", control, "--host", "wayland", "--", "foot",
        "--override=colors.background=2080c0",
      ], in: dir)
    func splashctl(_ arguments: [String]) -> Outcome? {
      try? run(splashctlPath, ["--control", control] + arguments, environment: screen.environment)
    }
    waitUntil { FileManager.default.fileExists(atPath: control) }
    #expect(waitUntil(20) { splashctl(["status"])?.stdout.contains(" program=shown") == true })
    _ = splashctl(["reveal"])
    // Foot's colour between the leaves, on the middle row.
    let parted = screen.splashdWindow { dump in
      let row = (0..<320).map { dump.at($0, 120) }
      return row.first == 0xFF0000 && row.last == 0x00FF00 && row.contains(0x2080C0) && !row.contains(0x0000FF)
    }
    #expect(parted != nil, "no window dump with foot between the doors; \(screen.failures)")
    let alone = screen.splashdWindow { dump in
      (0..<16).allSatisfy { i in dump.at(i * 20, 200) == 0x2080C0 }
    }
    #expect(alone != nil, "foot never filled splashd's window; \(screen.failures)")
    splash.send(SIGTERM)
    #expect(splash.wait(seconds: 30))
  }
}

extension HostModeTests {
  /// `--record` in host mode writes the frames of the doors opening onto
  /// the real program: the closed doors first, foot's pixels in the gap
  /// mid-way, foot alone at the end; the program is ended with the
  /// recording.
  @Test func recordWritesTheDoorsOpeningOntoTheProgram() throws {
    let frames = dir.path + "/frames"
    let outcome = try splashd(
      ["--size", "320x240"] + Array(splash.drop { $0 != "--left" }) + [
        "--duration", "1", "--fps", "10", "--record", frames, "--", "foot", "--override=colors.background=2080c0",
      ], in: dir, timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let first = try #require(recordedFrame(frames, 0), "\(outcome.stderr)")
    #expect(gap(first).isEmpty, "the first frame is not the closed doors")
    let middle = try #require(recordedFrame(frames, 5), "\(outcome.stderr)")
    let open = gap(middle)
    #expect(open.count > 40 && open.allSatisfy { middle.at($0, 120) == Self.foot }, "gap \(open)")
    let last = try #require(recordedFrame(frames, recordedCount(frames) - 1), "\(outcome.stderr)")
    #expect((0..<16).allSatisfy { last.at($0 * 20, 200) == Self.foot }, "foot is not alone at the end")
  }

  /// A GTK3 program (gtk3-widget-factory) under a splashd that has no
  /// XDG_RUNTIME_DIR, as a system service has none (GTK opens no Wayland
  /// display without one): splashd gives it /run/user/UID, and the recorded
  /// doors open onto GTK's own pixels: mid-way the gap between the leaves
  /// shows what GTK's window shows at the end (Adwaita's window colour
  /// among it), never the background.
  @Test func theDoorsOpenOntoAGTKProgramThatHadNoRuntimeDirectory() throws {
    var environment = ProcessInfo.processInfo.environment
    for name in ["XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY"] { environment[name] = nil }
    let frames = dir.path + "/frames"
    let outcome = try splashd(
      [
        "--display", "offscreen", "--size", "640x480", "--left",
        dir.solidPNG("red.png", width: 320, height: 480, rgb: (255, 0, 0)), "--right",
        dir.solidPNG("green.png", width: 320, height: 480, rgb: (0, 255, 0)), "--background", "#0000FF", "--host",
        "wayland", "--duration", "1", "--fps", "10", "--record", frames, "--", "gtk3-widget-factory",
      ], in: dir, environment: environment, timeout: 90)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let first = try #require(recordedFrame(frames, 0), "\(outcome.stderr)")
    #expect(gap(first).isEmpty, "the first frame is not the closed doors")
    let last = try #require(recordedFrame(frames, recordedCount(frames) - 1), "\(outcome.stderr)")
    let adwaita: UInt32 = 0xF6F5F4
    let row = (0..<last.width).map { last.at($0, 240) }
    #expect(row.filter { $0 == adwaita }.count > last.width / 4, "GTK's window is not at the end: \(Set(row))")
    let middle = try #require(recordedFrame(frames, 5), "\(outcome.stderr)")
    let open = gap(middle)
    #expect(
      open.count > 80 && open.allSatisfy { middle.at($0, 240) == row[$0] && row[$0] != Self.blue },
      "gap \(open): \(open.map { middle.at($0, 240) })")
  }

  /// Frame `index` of the recording in `frames`.
  func recordedFrame(_ frames: String, _ index: Int) -> Screendump? {
    let name = "\(frames)/frame-" + String(format: "%05d", index)
    _ = try? run(packageRoot + "/tools/png-to-ppm.py", [name + ".png", name + ".ppm"], environment: [:])
    return Screendump(path: name + ".ppm")
  }

  /// How many frames the recording in `frames` holds.
  func recordedCount(_ frames: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).filter { $0.hasSuffix(".png") }.count
  }
}
