// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode's screen power with the real compositor and real clients:
/// `splashctl screen off`, then a click (a client's virtual pointer) or a
/// key (its virtual keyboard) wakes the screen and reaches the program
/// (wev) neither pressed nor released, though let go of after the wake; the
/// next click or key does; idle-off held off by a real idle inhibitor
/// until it goes.
@Suite struct HostModeScreenPowerTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  var status: String { splashctl(["status"])?.stdout ?? "" }

  @Test func theClickThatWakesTheScreenReachesNothing() throws {
    let events = dir.path + "/wev.txt"
    func said() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
    func count(_ text: String) -> Int { said().components(separatedBy: text).count - 1 }
    func pointers() -> Int { count("capabilities: pointer") }
    let (first, second) = (dir.path + "/first", dir.path + "/second")
    #expect(mkfifo(first, 0o600) == 0 && mkfifo(second, 0o600) == 0)
    var off: Outcome?
    var statusOff = ""
    var woken = false
    var clicked = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(events)"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard let pointer = virtualPointerOnceAlone(clickingAt: 0.25, 0.5, when: first, holding: true),
          waitUntil(20, { pointers() == 1 })
        else { return }
        off = splashctl(["screen", "off"])
        statusOff = status
        // Pressed: the screen wakes; let go of once it is on.
        guard say(go: first) else { return }
        woken = waitUntil(20) { !status.contains(" screen=off") }
        guard say(go: first), (try? pointer.finish(timeout: 10))?.status == 0 else { return }
        guard let again = virtualPointer(clickingAt: 0.25, 0.5, when: second), waitUntil(20, { pointers() == 2 }),
          say(go: second)
        else { return }
        // The next click's release comes after whatever the first sent.
        clicked = waitUntil(20) { count("state: 0 (released)") > 0 }
        _ = try? again.finish(timeout: 10)
      })
    #expect(
      off?.status == 0 && off?.stdout == "screen=off off_by=splashctl\n", "\(off?.stderr ?? ""): \(outcome.stderr)")
    #expect(statusOff.contains(" screen=off off_by=splashctl"), "\(statusOff)")
    #expect(woken, "the click did not wake the screen: \(outcome.stderr)")
    #expect(clicked, "the next click did not reach the program: \(said()) \(outcome.stderr)")
    #expect(
      count("state: 1 (pressed)") == 1 && count("state: 0 (released)") == 1,
      "the waking click, or its release, reached the program: \(said())")
    #expect(outcome.stderr.contains("screen power: off (splashctl)") && outcome.stderr.contains("screen power: on"))
  }

  /// A key held down as the screen wakes, let go of after: neither its
  /// press, its being down (a keyboard's enter) nor its release reaches
  /// the program; the next key does, pressed and released.
  @Test func theKeyThatWakesTheScreenReachesNothing() throws {
    let events = dir.path + "/wev.txt"
    func said() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
    func count(_ text: String) -> Int { said().components(separatedBy: text).count - 1 }
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var woken = false
    var typed = false
    var keyboardEnded = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "/bin/sh", "-c", "exec stdbuf -oL wev > \(events)"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), waitUntil(20, { status.hasPrefix("phase=done") }),
          let keyboard = virtualKeyboard(when: go, times: 4), waitUntil(20, { said().contains("keymap") })
        else { return }
        defer { keyboardEnded = (try? keyboard.finish(timeout: 10))?.status == 0 }
        guard splashctl(["screen", "off"])?.status == 0, waitUntil(10, { status.contains(" screen=off") }),
          say(go: go)
        else { return }
        woken = waitUntil(20) { !status.contains(" screen=off") }
        // Let go of once the screen is on; then a key pressed and released,
        // whose release comes after whatever the first key sent.
        guard say(go: go), say(go: go), say(go: go) else { return }
        typed = waitUntil(20) { count("state: 0 (released)") > 0 }
      })
    #expect(woken, "the key did not wake the screen: \(outcome.stderr)")
    #expect(typed, "the next key did not reach the program: \(said()) \(outcome.stderr)")
    #expect(keyboardEnded, "the virtual keyboard did not end of itself")
    #expect(
      count("state: 1 (pressed)") == 1 && count("state: 0 (released)") == 1,
      "the waking key, or its release, reached the program: \(said())")
    // Its keysym is told for the next key's press and release alone, not
    // for the keys down as the program got the keyboard back (an enter).
    #expect(count("sym: a ") == 2, "the waking key was down when the program got the keyboard: \(said())")
  }

  /// idle-off 1 s with a real idle inhibitor (tools/test/wayland/idle-inhibit.py
  /// hold): the screen stays on while it is held (status, asked again and
  /// again for 3 s), and goes off once the client has gone.
  @Test func anIdleInhibitorHoldsIdleOffUntilItGoes() throws {
    let go = dir.path + "/go"
    #expect(mkfifo(go, 0o600) == 0)
    var inhibitor: StartedProcess?
    var offWhileHeld = false
    var offAfter = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--idle-off", "1", "--", "foot"], in: dir,
      launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(),
          let held = try? testClient("idle-inhibit.py", ["hold"], reading: go)
        else { return }
        inhibitor = held
        let inhibited = { (try? String(contentsOfFile: held.stdoutPath, encoding: .utf8)) == "inhibited\n" }
        guard waitUntil(10, inhibited) else { return }
        // Any sample that finds it off is a failure; 3 s is three idle-offs.
        let until = Date().addingTimeInterval(3)
        while Date() < until && !offWhileHeld { offWhileHeld = status.contains(" screen=off") }
        guard say(go: go), (try? held.finish(timeout: 10))?.status == 0 else { return }
        offAfter = waitUntil(20) { status.contains(" screen=off off_by=idle-off") }
      })
    #expect(inhibitor != nil, "\(outcome.stderr)")
    #expect(!offWhileHeld, "the screen went off with the inhibitor held: \(outcome.stderr)")
    #expect(offAfter, "the screen did not go off once the inhibitor went: \(outcome.stderr)")
  }
}
