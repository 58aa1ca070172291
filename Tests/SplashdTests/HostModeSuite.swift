// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode (`--host wayland`) with real programs from Debian (foot,
/// weston-simple-shm, GTK's widget factory, cog, Chromium, X11 programs
/// through Xwayland), on the offscreen display, read back with `splashctl
/// snapshot` or recorded: what the suites by concern share (HostModeRevealTests,
/// HostModeInputTests, HostModeWindowTests, HostModeRestartTests,
/// HostModeXwaylandTests, HostModeHostileClientTests, HostModePreviewTests).
/// Each test has a scratch folder of its own (`dir`), the control socket in it.
protocol HostModeSuite {
  var dir: TemporaryDirectory { get }
}

extension HostModeSuite {
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

  static var red: UInt32 { 0xFF0000 }
  static var green: UInt32 { 0x00FF00 }
  static var blue: UInt32 { 0x0000FF }
  /// foot's background, as the tests set it.
  static var foot: UInt32 { 0x2080C0 }

  func splashctl(_ arguments: [String]) -> Outcome? {
    try? run(splashctlPath, ["--control", socketPath] + arguments, environment: [:])
  }

  /// What the screen shows now (`splashctl snapshot`), with the phase it
  /// was taken in; nil when there is no snapshot.
  func snapshot(_ name: String) -> (phase: String, screen: Screendump)? {
    let phase = splashctl(["status"])?.stdout.split(separator: " ").first.map(String.init) ?? ""
    let png = dir.path + "/\(name).png"
    guard splashctl(["snapshot", png])?.status == 0,
      (try? run(packageRoot + "/tools/test/png-to-ppm.py", [png, dir.path + "/\(name).ppm"], environment: [:]))?.status
        == 0,
      let screen = Screendump(path: dir.path + "/\(name).ppm")
    else { return nil }
    return (phase, screen)
  }

  /// What a client of the host's display socket (grim, wtype) is given.
  var displayEnvironment: [String: String] { ["XDG_RUNTIME_DIR": dir.path, "WAYLAND_DISPLAY": "wayland-0"] }

  /// foot running a shell, in the kiosk's colour: the program keys are typed into.
  static var footShell: [String] { ["foot", "--override=colors.background=2080c0", "/bin/sh"] }

  /// wtype's arguments to type `command` and Enter into the focused
  /// window. A leading space goes first: wtype now and then loses its first
  /// key on any wlroots compositor (its issue 46), and the shell ignores it.
  static func typing(_ command: String) -> [String] { [" " + command, "-k", "Return"] }

  /// Types `command` and Enter through the virtual-keyboard protocol
  /// (wtype); wtype's outcome, nil when it could not be run.
  func type(_ command: String) -> Outcome? {
    try? run("/usr/bin/wtype", Self.typing(command), environment: displayEnvironment)
  }

  /// Once the program has failed for good (`restart-limit` reached),
  /// the diagnostic screen holds 30 s with splashd answering `status`:
  /// waits for `status` to say `program=failed` and returns that line,
  /// then stops splashd (SIGTERM, which ends the hold; splashd still exits
  /// with the program's status). nil when the report never came (splashd
  /// is stopped all the same).
  func failureReport(of splashd: pid_t) -> String? {
    defer { kill(splashd, SIGTERM) }
    var report: String?
    _ = waitUntil(40) {
      guard let line = splashctl(["status"])?.stdout, line.contains(" program=failed") else { return false }
      report = line
      return true
    }
    return report
  }

  /// Waits until `status` says the program has shown its first frame.
  func waitForTheProgram() -> Bool {
    waitUntil { FileManager.default.fileExists(atPath: socketPath) }
    return waitUntil(20) { splashctl(["status"])?.stdout.contains(" program=shown") == true }
  }

  /// Waits until the program has shown its first frame and the transition
  /// is done (it shows alone).
  func waitForTheProgramAlone() -> Bool {
    waitForTheProgram() && waitUntil(20) { splashctl(["status"])?.stdout.hasPrefix("phase=done") == true }
  }

  /// The lines a started client has printed.
  func said(_ process: StartedProcess) -> [String] {
    ((try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// Writes `line` into the FIFO `fifo` (its reader holds it open).
  func tell(_ fifo: String, _ line: String) {
    let end = open(fifo, O_WRONLY | O_NONBLOCK)
    guard end >= 0 else {
      Issue.record("\(fifo): no reader")
      return
    }
    defer { close(end) }
    _ = write(end, line + "\n", line.utf8.count + 1)
  }

  /// tools/test/wayland/layer-surface.py with `options`, reading its
  /// commands from the FIFO `commands` (made here); its lines go to its
  /// StartedProcess's stdout.
  func layerSurface(_ options: [String], commands: String) throws -> StartedProcess {
    if access(commands, F_OK) != 0 { #expect(mkfifo(commands, 0o600) == 0) }
    return try testClient("layer-surface.py", options, reading: commands)
  }

  /// tools/test/wayland/`script` with `arguments`, a client of the
  /// display (`displayEnvironment`; with `notOfTheDisplay`, in the test's
  /// own environment), its standard input the FIFO `fifo`, opened for
  /// reading and writing so that it never ends while the client waits for
  /// a line; its lines go to its StartedProcess's stdout.
  func testClient(
    _ script: String, _ arguments: [String], reading fifo: String, notOfTheDisplay: Bool = false
  ) throws -> StartedProcess {
    let path = packageRoot + "/tools/test/wayland/" + script
    return try StartedProcess(
      "/bin/sh", ["-c", "exec python3 \(path) \(arguments.joined(separator: " ")) 0<> \(fifo)"],
      environment: notOfTheDisplay ? nil : displayEnvironment)
  }

  /// Once the program shows alone (the transition done), a client's virtual
  /// pointer (tools/test/wayland/virtual-pointer.py) that clicks at (`u`, `v`) of
  /// the screen once "go" is said into the FIFO `go`; nil when the program
  /// never shows alone or the client cannot be started.
  func virtualPointerOnceAlone(
    clickingAt u: Double, _ v: Double, when go: String, holding: Bool = false, approaching: Bool = false
  ) -> StartedProcess? {
    guard waitForTheProgramAlone() else { return nil }
    return virtualPointer(clickingAt: u, v, when: go, holding: holding, approaching: approaching)
  }

  /// A client's virtual pointer (tools/test/wayland/virtual-pointer.py)
  /// that clicks at (`u`, `v`) of the screen once "go" is said into the
  /// FIFO `go`; nil when it cannot be started.
  /// With `holding`, the button stays down until "go" is said again; with
  /// `approaching`, the pointer comes to the point from a step beside it.
  func virtualPointer(
    clickingAt u: Double, _ v: Double, when go: String, holding: Bool = false, approaching: Bool = false
  ) -> StartedProcess? {
    let hold = holding ? ["--hold"] : approaching ? ["--approach"] : []
    return try? testClient("virtual-pointer.py", hold + ["\(u)", "\(v)"], reading: go)
  }

  /// A client's virtual keyboard (tools/test/wayland/virtual-keyboard.py)
  /// that presses KEY_A when "go" is said into the FIFO `go`, lets it go
  /// at the next, and so on `times` in all, then ends; nil when it cannot
  /// be started.
  func virtualKeyboard(when go: String, times: Int) -> StartedProcess? {
    try? testClient("virtual-keyboard.py", ["30", "\(times)"], reading: go)
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

  /// tools/test/wayland/hostile-buffer-client.c, built here with wayland-scanner's
  /// xdg-shell code: its path.
  func hostileBufferClient() throws -> String {
    let client = dir.path + "/hostile-buffer-client"
    try buildWaylandClient("tools/test/wayland/hostile-buffer-client.c", in: dir.path, to: client)
    return client
  }

  /// Frame `index` of the recording in `frames`.
  func recordedFrame(_ frames: String, _ index: Int) -> Screendump? {
    let name = "\(frames)/frame-" + String(format: "%05d", index)
    _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [name + ".png", name + ".ppm"], environment: [:])
    return Screendump(path: name + ".ppm")
  }

  /// How many frames the recording in `frames` holds.
  func recordedCount(_ frames: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).filter { $0.hasSuffix(".png") }.count
  }
}
