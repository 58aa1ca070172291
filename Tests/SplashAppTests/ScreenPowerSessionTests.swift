// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// The screen's power in process, on the test clock, with the stand-in
/// compositor and screen (which counts frames presented while it is off)
/// and a backlight of the test's own: idle-off, the input that wakes the
/// screen withheld from the program, no frame callbacks while off, an idle
/// inhibitor holding it on, the schedule, and `splashctl screen` in host
/// mode and on a plain splash.
@Suite struct ScreenPowerSessionTests {
  static let programColor: UInt32 = 0x00_20C0_40

  func harness() throws -> Harness {
    let splash = try Harness()
    splash.fakesWaylandHost = true
    splash.screens.size = PixelSize(width: 160, height: 120)
    return splash
  }

  func arguments(_ more: [String], program: [String] = ["sleep", "60"]) -> [String] {
    [
      "--display", "screen", "--host", "wayland", "--hold", "0", "--duration", "0.3", "--timeout", "10",
      "--background", "#102030",
    ] + more + ["--"] + program
  }

  /// A backlight at `brightness` under the test's folder; its file.
  func backlight(in splash: Harness, brightness: String) throws -> String {
    let folder = splash.dir.path + "/backlight"
    try Files.makeDirectories(folder + "/panel")
    try Files.write(brightness + "\n", to: folder + "/panel/brightness")
    splash.backlightFolder = folder
    return folder + "/panel/brightness"
  }

  /// What the screen, the backlight, the program's input and frame
  /// callbacks were at one time.
  struct Seen {
    var status: String
    var powered: Bool
    var brightness: String
    var withheld: Bool
    var framesDone: Int
    /// The metrics file's screen samples: `splashd_screen_on` and `…_seconds_total`.
    var metrics: [String: String]
  }

  func look(_ splash: Harness, _ brightness: String) -> Seen {
    Seen(
      status: splash.session?.controller.statusLine() ?? "", powered: splash.screens.opened.last?.powered ?? false,
      brightness: (try? Files.readText(brightness)) ?? "", withheld: splash.waylandHost?.inputWithheld ?? false,
      framesDone: splash.waylandHost?.framesDone ?? 0, metrics: screenSamples(splash))
  }

  func screenSamples(_ splash: Harness) -> [String: String] {
    let text = (try? Files.readText(splash.dir.path + "/splashd.prom")) ?? ""
    var samples: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("splashd_screen_on") {
      let parts = line.split(separator: " ")
      if parts.count == 2 { samples[String(parts[0])] = String(parts[1]) }
    }
    return samples
  }

  /// 30 s without input after the program is shown: the backlight down,
  /// the screen off, input withheld, and the program's frames get no
  /// callbacks (it would draw nothing more); a touch wakes it, reaches
  /// nothing, and the next touch reaches the program; its frames are
  /// called back again.
  @Test func idleOffThenATouchWakesTheScreenAndIsSwallowed() throws {
    let splash = try harness()
    let brightness = try backlight(in: splash, brightness: "120")
    var seen: [String: Seen] = [:]
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 20) { seen["on"] = look(splash, brightness) }
        splash.clock.atTime(now + 40) {
          seen["off"] = look(splash, brightness)
          host.commit(color: 0x0040_2080)
        }
        splash.clock.atTime(now + 45) {
          seen["off, a frame later"] = look(splash, brightness)
          host.press()
        }
        splash.clock.atTime(now + 46) {
          seen["woken"] = look(splash, brightness)
          host.press()
          host.commit(color: Self.programColor)
        }
        splash.clock.atTime(now + 47) { seen["on again"] = look(splash, brightness) }
        splash.clock.atTime(now + 48) { splash.killProgram() }
      }
    }
    let metrics = ["--metrics-file", splash.dir.path + "/splashd.prom"]
    #expect(splash.run(arguments(["--idle-off", "30"] + metrics)) == .exit(128 + SIGKILL), "\(splash.lines)")
    let on = try #require(seen["on"])
    #expect(!on.status.contains(" screen=") && on.powered && on.brightness == "120\n" && !on.withheld)
    let off = try #require(seen["off"])
    #expect(off.status.contains(" screen=off off_by=idle-off"), "\(off.status)")
    #expect(!off.powered && off.brightness == "0" && off.withheld, "\(off)")
    // Off after 30 s from the program's first frame (~1.3 s in), not before.
    let screen = try #require(splash.screens.opened.last)
    let offAt = try #require(screen.powerSwitches.first)
    let shownAt = try #require(splash.time(of: "splashd: host mode: the program's first frame"))
    #expect(!offAt.on && offAt.time >= shownAt + 30 && offAt.time < shownAt + 31, "\(screen.powerSwitches)")
    // metrics-file: off, after the ~31.3 s it was on since the start (the clock's 100).
    #expect(off.metrics["splashd_screen_on"] == "0", "\(off.metrics)")
    let onFor = off.metrics["splashd_screen_on_seconds_total"].flatMap(Double.init) ?? 0
    #expect(abs(onFor - (offAt.time - 100)) < 1e-3, "\(off.metrics) \(offAt.time)")
    #expect(seen["woken"]?.metrics["splashd_screen_on"] == "1")
    // No frame drawn and no frame callback while off, though the program drew.
    #expect(screen.presentsWhileOff == 0)
    #expect(seen["off, a frame later"]?.framesDone == off.framesDone)
    // The touch woke it, and did not reach the program; the next did.
    let woken = try #require(seen["woken"])
    #expect(woken.powered && woken.brightness == "120" && !woken.withheld && !woken.status.contains(" screen="))
    let host = try #require(splash.waylandHost)
    #expect(host.withheldPresses == 1 && host.deliveredPresses == 1)
    #expect((seen["on again"]?.framesDone ?? 0) > woken.framesDone, "no frame callback after the wake")
  }

  /// A client's idle inhibitor (a video playing) holds idle-off off; once
  /// it goes, idle time counts from then.
  @Test func anIdleInhibitorHoldsTheScreenOn() throws {
    let splash = try harness()
    var during: String?
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        host.idleInhibited = true
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 50) {
          during = splash.session?.controller.statusLine()
          host.idleInhibited = false
        }
        splash.clock.atTime(now + 80) { splash.killProgram() }
      }
    }
    #expect(splash.run(arguments(["--idle-off", "20"])) == .exit(128 + SIGKILL), "\(splash.lines)")
    #expect(during.map { !$0.contains(" screen=") } == true, "\(during ?? "")")
    let screen = try #require(splash.screens.opened.last)
    let off = try #require(screen.powerSwitches.first)
    // The inhibitor went 50 s in; off 20 s later.
    let connected = try #require(splash.time(of: "splashd: host mode: the program's first frame")) - 1
    #expect(!off.on && off.time >= connected + 70 && off.time <= connected + 70.1, "\(screen.powerSwitches)")
  }

  /// off-at and on-at: off at 22:00 with an inhibitor held (the schedule
  /// wins), on again at 07:00 with nobody there.
  @Test func theScheduleSwitchesTheScreen() throws {
    let splash = try harness()
    // The day starts at 21:59:00 when the clock reads 100 s.
    let start = 21 * 3600 + 59 * 60.0
    splash.localSecondOfDay = { [clock = splash.clock] in
      (start + clock.now() - 100).truncatingRemainder(dividingBy: 86400)
    }
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        host.idleInhibited = true
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        // 07:00:30 is 9 h 1.5 min after the start.
        splash.clock.atTime(100 + 9 * 3600 + 90) { splash.killProgram() }
      }
    }
    let ending = splash.run(arguments(["--on-at", "07:00", "--off-at", "22:00"]))
    #expect(ending == .exit(128 + SIGKILL), "\(splash.lines)")
    let screen = try #require(splash.screens.opened.last)
    let switches = screen.powerSwitches.map { ($0.time - 100, $0.on) }
    // Off within a minute of 22:00 (60 s after the start), on within a
    // minute of 07:00.
    #expect(switches.count == 2, "\(switches)")
    #expect(switches.first.map { !$0.1 && $0.0 >= 60 && $0.0 <= 121 } == true, "\(switches)")
    #expect(switches.last.map { $0.1 && $0.0 >= 9 * 3600 + 60 && $0.0 <= 9 * 3600 + 121 } == true, "\(switches)")
    #expect(splash.lines.contains("splashd: screen power: off (off-at)"), "\(splash.lines)")
  }

  /// `splashctl screen off` on a plain splash that holds: the display off
  /// and nothing drawn though the progress changed, `screen status` says
  /// so; `screen on` draws again, the progress shown.
  @Test func screenOffAndOnOnAPlainSplash() throws {
    let splash = try harness()
    var client: TestClient?
    var drawn: (atOff: Int, whileOff: Int)?
    splash.clock.at(1) {
      client = TestClient(splash.controlPath)
      client?.send("screen off\nscreen status\n")
    }
    splash.clock.at(1.2) {
      drawn = (splash.screens.opened.last?.presents ?? 0, 0)
      client?.send("progress 50\nstatus\n")
    }
    splash.clock.at(2) {
      drawn?.whileOff = splash.screens.opened.last?.presents ?? 0
      client?.send("screen on\n")
    }
    var drawnAfterOn = 0
    splash.clock.at(2.5) { drawnAfterOn = splash.screens.opened.last?.presents ?? 0 }
    #expect(
      splash.run(["--display", "screen", "--hold", "3", "--duration", "0.2", "--control", splash.controlPath])
        == .exit(0), "\(splash.lines)")
    let replies = client?.replies ?? []
    #expect(replies.count == 5, "\(replies)")
    #expect(Array(replies.prefix(3)) == ["ok screen=off off_by=splashctl", "ok screen=off off_by=splashctl", "ok"])
    #expect(replies.dropFirst(3).first?.hasSuffix(" progress=50 screen=off off_by=splashctl") == true, "\(replies)")
    #expect(replies.last == "ok screen=on")
    let screen = try #require(splash.screens.opened.last)
    #expect(screen.powerSwitches.map(\.on) == [false, true] && screen.presentsWhileOff == 0)
    // Nothing drawn while off; on again, the splash drawn again before its transition.
    #expect(drawn.map { $0.whileOff == $0.atOff } == true, "\(String(describing: drawn))")
    #expect(drawnAfterOn > (drawn?.whileOff ?? 0), "\(drawnAfterOn)")
  }

  /// splashd stopped (SIGTERM) while the screen is off: the display is
  /// switched on and the backlights put back before it lets go, so the
  /// console (or the program after it) is not left dark.
  @Test func aScreenThatIsOffIsOnAgainWhenSplashdEnds() throws {
    let splash = try harness()
    let brightness = try backlight(in: splash, brightness: "80")
    var client: TestClient?
    var whileOff = ""
    splash.clock.at(1) {
      client = TestClient(splash.controlPath)
      client?.send("screen off\n")
    }
    splash.clock.at(1.5) {
      whileOff = (try? Files.readText(brightness)) ?? ""
      splash.signals.send(SIGTERM)
    }
    #expect(
      splash.run(["--display", "screen", "--hold", "30", "--control", splash.controlPath]) == .exit(0),
      "\(splash.lines)")
    #expect(whileOff == "0")
    let screen = try #require(splash.screens.opened.last)
    #expect(screen.powerSwitches.map(\.on) == [false, true], "\(screen.powerSwitches)")
    #expect(screen.keptLastFrame != nil && (screen.powerSwitches.last?.time ?? 0) >= 101.5)
    #expect(try Files.readText(brightness) == "80")
  }

  /// The program crashes while the screen is off (idle-off): the splash
  /// that comes back over it, saying so, switches the screen on.
  @Test func theSplashComingBackSwitchesTheScreenOn() throws {
    let splash = try harness()
    var offBeforeTheCrash = false
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        if host.connections == 1 {
          splash.clock.atTime(now + 20) {
            offBeforeTheCrash = splash.screens.opened.last?.powered == false
            splash.killProgram(awaitingItsEnd: true)
          }
        } else {
          splash.clock.atTime(now + 2) { splash.killProgram(awaitingItsEnd: true) }
        }
      }
    }
    let ending = splash.run(
      arguments(["--idle-off", "10", "--restart", "on-failure", "--restart-limit", "1"]))
    #expect(ending == .exit(128 + SIGKILL), "\(splash.lines)")
    #expect(offBeforeTheCrash, "\(splash.lines)")
    let screen = try #require(splash.screens.opened.last)
    let crash = try #require(splash.time(of: "splashd: host mode: sleep was ended by signal 9"), "\(splash.lines)")
    let back = try #require(screen.powerSwitches.first { $0.on }, "\(screen.powerSwitches)")
    #expect(back.time >= crash && back.time < crash + 1, "crashed at \(crash): \(screen.powerSwitches)")
  }

  /// `screen off`, then a question (a disk's passphrase) asked on the
  /// splash: the screen comes on, so that its prompt is seen.
  @Test func aQuestionAskedSwitchesTheScreenOn() throws {
    let splash = try harness()
    var client: TestClient?
    var asker: TestClient?
    var offBefore = false
    splash.clock.at(1) {
      client = TestClient(splash.controlPath)
      client?.send("screen off\n")
    }
    splash.clock.at(2) {
      offBefore = splash.screens.opened.last?.powered == false
      asker = TestClient(splash.controlPath)
      asker?.send("ask-password Passphrase\n")
    }
    splash.clock.at(3) { splash.signals.send(SIGTERM) }
    #expect(
      splash.run(["--display", "screen", "--hold", "30", "--control", splash.controlPath]) == .exit(0),
      "\(splash.lines)")
    _ = asker
    #expect(offBefore)
    let screen = try #require(splash.screens.opened.last)
    #expect(screen.powerSwitches.map(\.on) == [false, true], "\(screen.powerSwitches)")
    #expect(screen.powerSwitches.last.map { $0.time >= 102 && $0.time < 102.5 } == true, "\(screen.powerSwitches)")
  }
}
