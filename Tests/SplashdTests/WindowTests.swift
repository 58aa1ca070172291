// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// A window dump from `xwd`, decoded for 24/32-bit TrueColor screens.
struct WindowDump {
  var width: Int
  var height: Int
  var pixels: [UInt32]  // 0xRRGGBB

  func at(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

  init?(xwd data: Data) {
    let bytes = [UInt8](data)
    guard bytes.count >= 100 else { return nil }
    func field(_ i: Int) -> Int {
      Int(bytes[i * 4]) << 24 | Int(bytes[i * 4 + 1]) << 16 | Int(bytes[i * 4 + 2]) << 8 | Int(bytes[i * 4 + 3])
    }
    let headerSize = field(0)
    let (width, height) = (field(4), field(5))
    let byteOrder = field(7)
    let bitsPerPixel = field(11)
    let bytesPerLine = field(12)
    let (redMask, greenMask, blueMask) = (field(14), field(15), field(16))
    let colors = field(19)
    let start = headerSize + colors * 12
    guard bitsPerPixel == 32, redMask == 0xFF0000, greenMask == 0xFF00, blueMask == 0xFF,
      bytes.count >= start + bytesPerLine * height
    else { return nil }
    self.width = width
    self.height = height
    pixels = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let i = start + y * bytesPerLine + x * 4
        let value =
          byteOrder == 0
          ? UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
          : UInt32(bytes[i + 3]) | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 1]) << 16
        pixels.append(value & 0xFF_FFFF)
      }
    }
  }
}

/// The X window tree of `screen` (xwininfo), for failure messages.
func tree(_ screen: VirtualScreen) -> String {
  (try? run(
    "/usr/bin/xwininfo", ["-display", screen.display, "-root", "-tree"],
    environment: ProcessInfo.processInfo.environment))?.stdout ?? "?"
}

/// Xvfb on a display number it picks itself, stopped when released.
final class VirtualScreen {
  let process: SpawnedChild
  let display: String
  let number: Int

  init() throws {
    let xvfb = "/usr/bin/Xvfb"
    guard FileManager.default.isExecutableFile(atPath: xvfb) else {
      throw TestFailure("Xvfb is missing: apt-get install xvfb x11-apps (make test installs them)")
    }
    // -displayfd: Xvfb takes the first free display number from 90 up and
    // writes it once it accepts clients, so no number is raced for and no
    // client comes too early. -noreset: an X server resets when its last
    // client leaves and refuses connections meanwhile, so the client after
    // the xdpyinfo below (splashd's XOpenDisplay) could find it closed (CI saw
    // "x11 not available"; here 16 of 200 back-to-back xdpyinfo failed
    // without it, none with it).
    process = try SpawnedChild(
      xvfb, ["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"],
      environment: ProcessInfo.processInfo.environment, standardOutput: .pipe)
    var text = ""
    let deadline = Date().addingTimeInterval(15)
    while !text.hasSuffix("\n") {
      let chunk = process.output?.availableData ?? Data()
      guard !chunk.isEmpty, Date() < deadline else { throw TestFailure("Xvfb did not start") }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw TestFailure("Xvfb announced no display number: \(text)")
    }
    self.number = number
    display = ":\(number)"
    // A client's connection is the proof that it takes clients.
    guard waitUntil(15, { answers }) else {
      throw TestFailure("Xvfb \(display) announced itself but takes no client: \(state)")
    }
  }

  /// Whether a client can open the display now (xdpyinfo).
  var answers: Bool {
    (try? run("/usr/bin/xdpyinfo", ["-display", display], environment: environment, timeout: 10))?.status == 0
  }

  /// Whether Xvfb runs and its socket is there, for failure messages.
  var state: String {
    "Xvfb running: \(process.isRunning), socket there: \(FileManager.default.fileExists(atPath: socketPath))"
  }

  private var lockPath: String { "/tmp/.X\(number)-lock" }
  private var socketPath: String { "/tmp/.X11-unix/X\(number)" }

  deinit {
    process.send(SIGTERM)
    if !process.wait(seconds: 10) {
      process.send(SIGKILL)
      process.wait(seconds: 10)
    }
    // Xvfb removes its lock and socket when it ends; a killed one leaves
    // them, and they are removed only while the lock still names it (the
    // next Xvfb may already have taken the number).
    let lock = (try? String(contentsOfFile: lockPath, encoding: .utf8)) ?? ""
    if Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) == process.pid {
      try? FileManager.default.removeItem(atPath: lockPath)
      try? FileManager.default.removeItem(atPath: socketPath)
    }
  }

  /// What went wrong with dumps, for the failure message.
  var failures: [String] = []

  /// The environment of programs shown on this screen.
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    environment["WAYLAND_DISPLAY"] = nil
    return environment
  }

  /// Starts splashd in a 320×240 window on this screen, with `dir`'s empty
  /// config and `arguments`, its standard output and error going where asked.
  func launchSplashd(
    _ arguments: [String], in dir: TemporaryDirectory, standardOutput: ChildOutput = .discarded,
    standardError: ChildOutput = .discarded
  ) throws -> SpawnedChild {
    try SpawnedChild(
      splashdPath, ["--config", dir.testConfig, "--display", "window", "--size", "320x240"] + arguments,
      environment: environment, standardOutput: standardOutput, standardError: standardError)
  }

  /// The first dump of splashd's 320×240 window, within 10 s, that `matches`.
  func splashdWindow(where matches: (WindowDump) -> Bool) -> WindowDump? {
    for _ in 0..<100 {
      if let d = dump(windowNamed: "splashd"), d.width == 320, d.height == 240, matches(d) { return d }
      usleep(100_000)
    }
    return nil
  }

  /// Dumps the window named `name`, or nil while it is not mapped.
  func dump(windowNamed name: String) -> WindowDump? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("xwd-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let xwd: SpawnedChild
    do {
      xwd = try SpawnedChild(
        "/usr/bin/xwd", ["-silent", "-display", display, "-name", name], environment: environment,
        standardOutput: .file(file))
    } catch {
      failures.append("xwd did not start: \(error)")
      return nil
    }
    let ended = xwd.wait(seconds: 10)
    guard ended, let status = xwd.terminationStatus, status == 0 else {
      failures.append(ended ? "xwd exit \(xwd.terminationStatus ?? 0)" : "xwd killed after 10 s")
      return nil
    }
    let data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
    guard let dump = WindowDump(xwd: data) else {
      failures.append("undecodable dump of \(data.count) bytes")
      return nil
    }
    return dump
  }
}

/// The tests that drive a display (Xvfb, QEMU): one at a time, since each
/// keeps both cores busy (llvmpipe, TCG) and would starve the others.
@Suite(.serialized) enum DisplayTests {}

extension DisplayTests {
  @Suite(.serialized) struct WindowTests {
    @Test func doorsOpenInARealWindowUnderXvfb() throws {
      let screen = try VirtualScreen()
      let dir = try TemporaryDirectory()
      let red = dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0))
      let green = dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0))
      let errPath = dir.path + "/stderr"
      let splash = try screen.launchSplashd(
        [
          "--left", red, "--right", green, "--background", "#0000FF", "--hold", "4", "--duration", "2", "--easing",
          "linear",
        ], in: dir, standardError: .file(errPath))

      var dumps: [WindowDump] = []
      let deadline = Date().addingTimeInterval(30)
      while splash.isRunning && Date() < deadline {
        if let dump = screen.dump(windowNamed: "splashd") { dumps.append(dump) }
        usleep(100_000)
      }
      if !splash.wait(seconds: 0) { Issue.record("splashd did not finish in its window") }
      let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
      #expect(splash.terminationStatus == 0, "\(stderr); \(screen.state), answers: \(screen.answers)")
      #expect(stderr.contains("splashd: window: 320x240"))

      let sized = dumps.filter { $0.width == 320 && $0.height == 240 }
      #expect(
        sized.count >= 3,
        "only \(sized.count) window dumps of 320x240; sizes \(dumps.map { "\($0.width)x\($0.height)" }), failures \(screen.failures), splashd said: \(stderr)"
      )
      // During the hold: the two leaves meet exactly at the centre line.
      let closed = sized.contains { d in
        d.at(0, 120) == 0xFF0000 && d.at(159, 120) == 0xFF0000 && d.at(160, 120) == 0x00FF00
          && d.at(319, 120) == 0x00FF00
      }
      #expect(closed, "no dump showed the closed doors")
      // Mid-transition: the background shows between the leaves, which are still on screen.
      let opening = sized.contains { d in
        d.at(160, 120) == 0x0000FF && d.at(2, 120) == 0xFF0000 && d.at(317, 120) == 0x00FF00
      }
      #expect(opening, "no dump showed the doors opening")
      // The gap only ever widens.
      let gaps = sized.map { d in (0..<320).filter { d.at($0, 120) == 0x0000FF }.count }
      #expect(zip(gaps, gaps.dropFirst()).allSatisfy { $0 <= $1 + 2 }, "gap widths over time: \(gaps)")
    }

    @Test func aHeldSplashTurnsWithSplashctlRotate() throws {
      let screen = try VirtualScreen()
      let dir = try TemporaryDirectory()
      let red = dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0))
      let green = dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0))
      let control = dir.path + "/control"
      let environment = screen.environment
      let splash = try screen.launchSplashd(
        [
          "--left", red, "--right", green, "--until-reveal", "--timeout", "0", "--control", control, "--", "/bin/sh",
          "-c",
          "echo $SPLASHD_ROTATION",
        ], in: dir, standardOutput: .pipe, standardError: .file(dir.path + "/splashd.log"))
      func log() -> String { (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? "" }

      let upright = screen.splashdWindow { $0.at(10, 120) == 0xFF0000 && $0.at(310, 120) == 0x00FF00 }
      #expect(upright != nil, "no upright dump; \(screen.failures.suffix(3)); splashd: \(log())")
      let turn = try run(splashctlPath, ["--control", control, "rotate", "90"], environment: environment)
      #expect(turn.status == 0, "\(turn.stderr)")
      // Turned a quarter clockwise: the left leaf is now on top, the right one below.
      let turned = screen.splashdWindow { $0.at(160, 10) == 0xFF0000 && $0.at(160, 230) == 0x00FF00 }
      #expect(turned != nil, "no turned dump; \(screen.failures)")
      if let turned {
        #expect(turned.at(5, 119) == 0xFF0000 && turned.at(315, 119) == 0xFF0000)
        #expect(turned.at(5, 120) == 0x00FF00 && turned.at(315, 120) == 0x00FF00)
      }
      _ = try run(splashctlPath, ["--control", control, "reveal"], environment: environment)
      #expect(splash.wait(seconds: 30))
      let rotation = String(decoding: splash.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      #expect(splash.terminationStatus == 0)
      #expect(rotation == "90\n")  // the program hears of the new angle
    }

    /// In a window, `splashctl progress` redraws the held splash, and the
    /// snapshot (the window surface's pixels) is what the window shows; no
    /// GL driver is loaded for it.
    @Test func aSnapshotOfAWindowIsWhatTheWindowShows() throws {
      let screen = try VirtualScreen()
      let dir = try TemporaryDirectory()
      let picture = dir.solidPNG("blue.png", width: 32, height: 24, rgb: (0, 0, 128))
      let control = dir.path + "/control"
      let environment = screen.environment
      let splash = try screen.launchSplashd(
        [
          "--image", picture, "--until-reveal", "--timeout", "0", "--control", control, "--progress", "30",
          "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000", "--progress-track", "#00FF00",
        ], in: dir)
      func filled(_ d: WindowDump) -> Int { (0..<320).filter { d.at($0, 120) == 0xFF0000 }.count }
      #expect(screen.splashdWindow { filled($0) == 96 } != nil, "no dump with the bar at 30%; \(screen.failures)")
      // Painted into the window's surface in software: no GL driver loaded.
      let gl = mappedLibraries(of: splash.pid).filter {
        $0.contains("libGL") || $0.contains("_dri.so") || $0.contains("libLLVM") || $0.contains("libEGL")
      }
      #expect(gl.isEmpty, "\(gl)")
      let progress = try run(splashctlPath, ["--control", control, "progress", "70"], environment: environment)
      #expect(progress.status == 0, "\(progress.stderr)")
      let shown = screen.splashdWindow { filled($0) == 224 }
      #expect(shown != nil, "no dump with the bar at 70%; \(screen.failures)")
      let file = dir.path + "/window.png"
      let snapshot = try run(splashctlPath, ["--control", control, "snapshot", file], environment: environment)
      #expect(snapshot.status == 0, "\(snapshot.stderr)")
      _ = try run(packageRoot + "/tools/test/png-to-ppm.py", [file, dir.path + "/window.ppm"], environment: [:])
      let shot = try #require(Screendump(path: dir.path + "/window.ppm"))
      if let shown {
        #expect(shot.width == 320 && shot.height == 240)
        let differing = (0..<240).flatMap { y in (0..<320).filter { shot.at($0, y) != shown.at($0, y) } }
        #expect(differing.isEmpty, "\(differing.count) pixels differ from the window dump")
      }
      _ = try run(splashctlPath, ["--control", control, "reveal"], environment: environment)
      #expect(splash.wait(seconds: 30))
      #expect(splash.terminationStatus == 0)
    }

    @Test func closingTheWindowWhileTheGateHoldsEndsTheSplash() throws {
      let screen = try VirtualScreen()
      let dir = try TemporaryDirectory()
      let splash = try screen.launchSplashd(
        ["--until-file", dir.path + "/never", "--timeout", "0"], in: dir, standardError: .pipe)
      for _ in 0..<100 {
        if screen.dump(windowNamed: "splashd") != nil { break }
        usleep(100_000)
      }
      // Escape closes a preview window, as the window manager's close button
      // does. Only the key press is sent: splashd reacts to it at once, and
      // its window would be gone before a key release could reach it.
      let key = try run(
        "/usr/bin/xdotool",
        ["search", "--limit", "1", "--name", "^splashd$", "windowfocus", "--sync", "keydown", "Escape"],
        environment: screen.environment)
      #expect(
        key.status == 0,
        "xdotool: \(key.stdout) \(key.stderr); dumps: \(screen.failures.suffix(3)); windows: \(tree(screen))")
      if !splash.wait(seconds: 10) { Issue.record("splashd did not end when its window was closed") }
      let log = String(decoding: splash.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      #expect(splash.terminationStatus == 0)
      // (Diagnostics for a rare failure under load: SDL could not open the display.)
      #expect(
        log.contains("splashd: ended early: the window was closed"),
        "\(log); Xvfb \(screen.display) running: \(screen.process.isRunning); windows: \(tree(screen))")
    }
  }
}
