// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Host mode's on-screen keyboard (`keyboard`) in process, with the
/// stand-in compositor (whose text field the test turns on and off) and a
/// real keyboard process: a shell script that logs what it is told.
@Suite struct ScreenKeyboardSessionTests {
  static let programColor: UInt32 = 0x00_20C0_40

  func harness() throws -> Harness {
    let splash = try Harness()
    splash.fakesWaylandHost = true
    splash.screens.size = PixelSize(width: 160, height: 120)
    return splash
  }

  func arguments(_ more: [String]) -> [String] {
    [
      "--display", "screen", "--host", "wayland", "--hold", "0", "--duration", "0.3", "--timeout", "10",
    ] + more + ["--", "sleep", "60"]
  }

  /// A keyboard of the test's own that appends to its log, a line each:
  /// "PID started DISPLAY" (its WAYLAND_DISPLAY), "PID hidden" at SIGUSR1,
  /// "PID shown" at SIGUSR2, "PID ended" at SIGTERM; its command and log.
  func keyboard(in splash: Harness) throws -> (command: String, log: String) {
    let log = splash.dir.path + "/keyboard.log"
    let script = splash.dir.file(
      "keyboard.sh",
      """
      #!/bin/sh
      say() { echo "$$ $1" >> "\(log)"; }
      trap 'say hidden' USR1
      trap 'say shown' USR2
      trap 'say ended; exit 0' TERM
      say "started $WAYLAND_DISPLAY"
      while :; do sleep 1 & wait $!; done
      """)
    chmod(script, 0o755)
    return (script, log)
  }

  func lines(of log: String) -> [String] {
    ((try? Files.readText(log)) ?? "").split(separator: "\n").map(String.init)
  }

  /// With keyboard-popup = signals the keyboard, started as a client of
  /// the display's socket, is hidden once it takes SIGUSR1, shown while
  /// a field takes text and hidden after; killed, it is started again and
  /// hidden again; it is ended with splashd. (The waits in real time are
  /// the shell's: setting its traps, running them.)
  @Test func theKeyboardShowsWhileAFieldTakesTextAndIsKeptRunning() throws {
    let splash = try harness()
    let (command, log) = try keyboard(in: splash)
    let said = { self.lines(of: log) }
    let running = { splash.session?.kiosk?.program.keyboard?.pid }
    /// Waits in real time until the keyboard `pid` takes both signals.
    let trapsSet = { (pid: pid_t) in
      waitUntil(10) { Processes.takes(SIGUSR1, pid: pid) && Processes.takes(SIGUSR2, pid: pid) }
    }
    var first: pid_t = 0
    var second: pid_t = 0
    var steps: [String: Bool] = [:]
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 2) {
          first = running() ?? 0
          // In real time, within the 10 s the keyboard has on the test clock to take them.
          steps["traps set"] = first > 0 && trapsSet(first)
        }
        splash.clock.atTime(now + 3) {
          steps["hidden"] = waitUntil(10) { said().contains("\(first) hidden") }
          host.textFieldActive = true
        }
        splash.clock.atTime(now + 4) {
          steps["shown"] = waitUntil(10) { said().contains("\(first) shown") }
          host.textFieldActive = false
        }
        splash.clock.atTime(now + 5) {
          steps["hidden again"] = waitUntil(10) { said().filter { $0 == "\(first) hidden" }.count == 2 }
          kill(first, SIGKILL)
          // Dead (not reaped) before the clock moves on: its end is found at the next turn.
          var info = siginfo_t()
          _ = waitid(P_PID, id_t(first), &info, WEXITED | WNOWAIT)
        }
        splash.clock.atTime(now + 10) {
          second = running() ?? 0
          steps["started again"] = second > 0 && second != first && trapsSet(second)
        }
        splash.clock.atTime(now + 11) {
          steps["hidden after its restart"] = waitUntil(10) { said().contains("\(second) hidden") }
          splash.killProgram()
        }
      }
    }
    #expect(
      splash.run(arguments(["--keyboard", "\(command) --height 200"])) == .exit(128 + SIGKILL), "\(splash.lines)")
    for step in ["traps set", "hidden", "shown", "hidden again", "started again", "hidden after its restart"] {
      #expect(steps[step] == true, "\(step): \(said())")
    }
    #expect(waitUntil(10) { said().contains("\(second) ended") }, "not ended with splashd: \(said())")
    var status: Int32 = 0
    _ = waitpid(second, &status, 0)
    // Each start a client of the display's socket; the first told hide, show, hide, nothing else.
    #expect(said().filter { $0.contains(" started wayland-") }.count == 2, "\(said())")
    let firsts = said().filter { $0.hasPrefix("\(first) ") }
    #expect(firsts.dropFirst() == ["\(first) hidden", "\(first) shown", "\(first) hidden"], "\(said())")
    let restartLine = try #require(splash.lines.first { $0.contains("the on-screen keyboard") && $0.contains("ended") })
    #expect(restartLine.hasSuffix("ended with status \(128 + SIGKILL); started again in 1 s"), "\(restartLine)")
  }

  /// A keyboard that never takes the signals is never sent one (it would
  /// end): once its start is 10 s past, one line says so, and it runs on
  /// until splashd ends it.
  @Test func aKeyboardThatTakesNoSignalsIsLeftAsItIs() throws {
    let splash = try harness()
    var runningAfterTheGrace = false
    var pid: pid_t = 0
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 12) {
          host.textFieldActive = true
        }
        splash.clock.atTime(now + 13) {
          pid = splash.session?.kiosk?.program.keyboard?.pid ?? 0
          runningAfterTheGrace = pid > 0 && Processes.isRunning(pid)
          splash.killProgram()
        }
      }
    }
    #expect(splash.run(arguments(["--keyboard", "sleep 600"])) == .exit(128 + SIGKILL), "\(splash.lines)")
    #expect(runningAfterTheGrace)
    let said = splash.lines.filter { $0.contains("takes neither") }
    #expect(said.count == 1, "\(splash.lines)")
    #expect(
      said.first?.hasSuffix(
        "sleep takes neither SIGUSR1 nor SIGUSR2; keyboard-popup = signals sends it none until it does") == true,
      "\(said)")
    var status: Int32 = 0
    if pid > 0 { _ = waitpid(pid, &status, 0) }
    #expect(status & 0x7f == SIGTERM, "the keyboard was not ended by splashd's SIGTERM")
  }

  /// A keyboard that cannot be found is one line; the program runs and is
  /// shown all the same.
  @Test func aKeyboardThatCannotRunIsOneLineAndTheProgramRuns() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 3) { splash.killProgram() }
      }
    }
    #expect(splash.run(arguments(["--keyboard", "no-such-keyboard -H 200"])) == .exit(128 + SIGKILL))
    #expect(splash.lines.contains { $0.hasPrefix("splashd: host mode: the program's first frame") })
    #expect(
      splash.lines.filter { $0.contains("on-screen keyboard") } == [
        "splashd: host mode: no on-screen keyboard: cannot run no-such-keyboard: not found (looked in PATH)"
      ], "\(splash.lines)")
  }

  /// Ended, the keyboard's process group goes with it: what it started (a
  /// bus of its own, here a `sleep`) does not outlive splashd.
  @Test func whatTheKeyboardStartedEndsWithIt() throws {
    let splash = try harness()
    let started = splash.dir.path + "/started"
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 3) {
          _ = waitUntil(10) { !((try? Files.readText(started)) ?? "").isEmpty }
          splash.killProgram()
        }
      }
    }
    let keyboard = "sh -c 'sleep 600 & echo $! > \(started); wait'"
    let ending = splash.run(arguments(["--keyboard", keyboard, "--keyboard-popup", "itself"]))
    #expect(ending == .exit(128 + SIGKILL), "\(splash.lines)")
    let grandchild = try #require(pid_t(((try? Files.readText(started)) ?? "").filter(\.isNumber)))
    #expect(waitUntil(10) { !Processes.isRunning(grandchild) }, "the keyboard's sleep outlived splashd")
  }

  /// Once splashd is asked to stop (SIGTERM: systemd's, which reaches the
  /// keyboard too), a keyboard that ends is not started again, nor is its
  /// end a failure said in the log.
  @Test func aKeyboardThatEndsAsSplashdStopsIsNotStartedAgain() throws {
    let splash = try harness()
    let (command, log) = try keyboard(in: splash)
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 3) {
          guard let pid = splash.session?.kiosk?.program.keyboard?.pid else { return }
          // As systemd's stop does: the keyboard ends (dead before the clock
          // moves on), and splashd is told.
          _ = waitUntil(10) { Processes.takes(SIGTERM, pid: pid) }
          kill(pid, SIGTERM)
          var info = siginfo_t()
          _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
          splash.signals.send(SIGTERM)
        }
      }
    }
    _ = splash.run(arguments(["--keyboard", command]))
    let keyboardLines = splash.lines.filter { $0.contains("on-screen keyboard") }
    #expect(keyboardLines.count == 1 && keyboardLines[0].contains("started the on-screen keyboard"), "\(keyboardLines)")
    #expect(lines(of: log).filter { $0.contains(" started ") }.count == 1, "\(lines(of: log))")
  }
}
