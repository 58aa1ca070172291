// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: the doors open onto the program: its first frame (not one with nothing in it, not before it connects), an early reveal or a timeout, what the splash lets go of, --check and the settings host mode needs.
@Suite struct HostModeRevealTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

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

  /// A program that draws at each frame callback (frame-counter) is paced
  /// after the transition by the offscreen display's refresh (`--fps 50`),
  /// as on a screen: at most about 50 frames a second, never called again
  /// the moment its frame is drawn (thousands a second, a core burnt).
  /// What it counts in the second after 0.5 s is an upper bound that a
  /// slow machine can only lower.
  @Test func anAnimatingProgramIsPacedByTheOffscreenDisplaysRefresh() throws {
    let counter = dir.path + "/frame-counter"
    try buildWaylandClient("tools/test/qemu/frame-counter.c", in: dir.path, to: counter)
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

  /// `--screens` other than the default needs host mode, and says so.
  @Test func screensNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--screens", "extend", "--", "foot"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--screens needs --host wayland"), "\(outcome.stderr)")
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
}
