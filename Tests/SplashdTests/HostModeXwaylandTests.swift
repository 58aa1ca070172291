// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: X11 programs through Xwayland: the doors onto them, their windows and keys, their user, an Xwayland that dies.
@Suite struct HostModeXwaylandTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// An X11 program through Xwayland (`--xwayland`): xlogo, its logo and
  /// background both in the kiosk's colour, is configured full screen
  /// (its first window that is not a menu), and the doors open onto it.
  @Test func theDoorsOpenOntoAnX11ProgramThroughXwayland() throws {
    try theDoorsOpenOnto(
      ["xlogo", "-bg", "#2080c0", "-fg", "#2080c0"], options: ["--xwayland"], keptAs: "host-mode-xwayland")
  }

  /// Xwayland dumps no core when it crashes (it would land in splashd's
  /// working directory, / under systemd): it is started without `-core`,
  /// its core size limit 0, the hard limit too.
  @Test func xwaylandDumpsNoCore() throws {
    var found: (arguments: [String], limits: String?)?
    let (_, outcome) = try spawnSplashd(
      splash + ["--xwayland", "--duration", "0.2", "--", "xlogo", "-bg", "#2080c0", "-fg", "#2080c0"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        let display = children(of: splashd.pid).lazy.compactMap { environment(of: $0)["DISPLAY"] }.first
        guard let xwayland = processes(named: "Xwayland").first(where: { arguments(of: $0).contains(display ?? "-") })
        else { return }
        let limits = readProcFile("/proc/\(xwayland)/limits")?.split(separator: "\n")
          .first { $0.hasPrefix("Max core file size") }
          .map {
            $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2).joined(separator: " ")
          }
        found = (arguments(of: xwayland), limits)
      })
    let note = outcome.stderr
    let xwayland = try #require(found, "no Xwayland of the program's DISPLAY: \(note)")
    #expect(!xwayland.arguments.isEmpty && !xwayland.arguments.contains("-core"), "\(xwayland.arguments)")
    #expect(xwayland.limits == "0 0", "\(xwayland.limits ?? "no limits")")
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

  /// `--xwayland` needs host mode, and says so.
  @Test func xwaylandNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--xwayland", "--", "xlogo"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--xwayland needs --host wayland"), "\(outcome.stderr)")
  }
}
