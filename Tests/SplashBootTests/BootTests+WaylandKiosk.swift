// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

extension BootTests {
  /// What one boot of a Wayland kiosk (kiosk-with-splash.service running
  /// foot as the kiosk user) showed and left.
  struct WaylandKioskBoot {
    var work: String
    /// The screens the host saw, in order, with their time since QEMU started.
    var frames: [(time: Double, screen: Screendump)]
    /// The screen once foot had run a few seconds.
    var final: Screendump?
    var journal: String
    /// Who ran cage and foot: sorted "USER COMMAND" pairs.
    var who: Set<[Substring]>
    var unitState: String
    var restarts: String
    /// Whether a command typed on the guest's keyboard (QEMU's PS/2
    /// keyboard, through the kernel's evdev) once foot ran reached foot's
    /// shell, which ran it.
    var typedIntoTheProgram: Bool
    /// In host mode, the screen's power (wayland-kiosk-boot.sh's
    /// screen-power lines): `splashctl screen off`'s answer, the CRTC's
    /// `active=` while off, `off_ticks=SPLASHD FOOT TICKS_A_SECOND` in 5 s
    /// off, `woke=yes` once a key woke it and reached nothing, `active=`
    /// again, `screen status`'s answer, `on_ms=` for `screen on`.
    var screenPower: [String]
    /// The console's keyboard mode (tty1's: keyboard-mode's word) while the
    /// compositor ran, then, in host mode, once splashd had crashed.
    var consoleKeyboard: [String]
    /// In host mode, a fake backlight's brightness (7 before) while the
    /// screen was off, then once splashd had crashed: "off=0 crashed=7".
    var crashBacklight: String
    /// In host mode, what input-probe (a second window, 320x240 centred
    /// over foot) was told by its seat while a fake pointer went to 300,150
    /// and clicked, then a finger touched 500,300 (its lines), and the
    /// screen after each.
    var inputProbe: [Substring]
    var pointed: Screendump?
    var touched: Screendump?
    /// In host mode, once foot was killed and started again: the screen
    /// once it was revealed, and splashctl's status then.
    var restarted: Screendump?
    var restartStatus: String
    /// splashctl's status once foot kept failing (the diagnostic screen).
    var diagnosticStatus: String
    /// In host mode, once the accelerometer turned the screen: foot's
    /// terminal columns before and after, and the screen.
    var turnedColumns: [Int]
    var turned: Screendump?
    /// The compositor's (the unit's main process) peak RSS in MiB, the CPU
    /// seconds it took in 10 s with foot idle, and its RSS then.
    var compositor: CompositorUsage?
    /// With the browser step: the page cog showed, and whether a touch in
    /// its middle turned it yellow (what the guest's screencopy said: "yes",
    /// or "no: " and the colour it saw); then the same animating client
    /// under host mode and under cage, in turn.
    var browser: Screendump?
    var browserTouch: String
    var animations: [Animation]

    /// The journal's lines about splashd, cage and the program, for failure notes.
    var note: String {
      journal.split(separator: "\n").filter { $0.contains("splashd") || $0.contains("cage") }.joined(separator: "\n")
    }
  }

  /// One run of frame-counter, the animating client: the frames it drew
  /// (one a frame callback) in `seconds`, by the output's refresh, under
  /// `compositor` ("host" or "cage").
  struct Animation {
    var compositor: String
    var frames: Int
    var seconds: Double
    var refreshMHz: Int

    var refreshes: Double { seconds * Double(refreshMHz) / 1000 }
    /// The refreshes that showed no new frame of it (the animation stutters).
    var missedRefreshes: Double { max(0, refreshes - Double(frames)) }
    /// The frames it was let draw beyond the refreshes: drawn, never on the
    /// screen (the compositor called for them faster than the display shows).
    var unshownFrames: Double { max(0, Double(frames) - refreshes) }
  }

  /// Boots a Debian image (the base with `packages` too) whose
  /// kiosk-with-splash.service runs `execStart` as shipped otherwise, with
  /// `dropIn` as its drop-in, on QEMU's `gpu`, the screen watched; the
  /// splash shows red and green leaves over blue, and foot (or the page of
  /// the browser step, or gles-counter) draws in the kiosk's colour. The
  /// guest's script runs `step` once the kiosk unit has started
  /// (wayland-kiosk-boot.sh); the rig gives the whole boot `timeout`
  /// seconds.
  func bootWaylandKiosk(
    in dir: TemporaryDirectory, execStart: (_ example: String) throws -> String, dropIn: String,
    packages: [String], gpu: String, step: String = "final", timeout: Double = 300
  ) throws -> WaylandKioskBoot {
    let tree = dir.path + "/tree"
    try installSplashd(into: tree)
    try putFile(
      "/etc/splashd/splashd.conf",
      """
      [splash]
      left = /usr/share/splashd/left.png
      right = /usr/share/splashd/right.png
      background = #0000FF
      hold = 1
      duration = 1.5
      rotate = auto

      [handoff]
      restart-limit = 2

      """, into: tree)
    let example = try String(
      contentsOfFile: tree + "/usr/share/doc/splashd/examples/kiosk-with-splash.service", encoding: .utf8)
    let line = try execStart(example)
    let unit = example.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasPrefix("ExecStart=") ? Substring(line) : $0
    }.joined(separator: "\n")
    try putFile("/etc/systemd/system/kiosk-with-splash.service", unit, into: tree)
    try putFile("/etc/systemd/system/kiosk-with-splash.service.d/rig.conf", dropIn, into: tree)
    try putScript("wayland-kiosk-boot", into: tree, as: "/usr/local/lib/rig/wayland-kiosk-boot.sh")
    try FileManager.default.createDirectory(atPath: tree + "/usr/local/bin", withIntermediateDirectories: true)
    // The browser step's page: the kiosk's colour, yellow once touched.
    try putFile(
      "/usr/local/share/rig/touch.html",
      """
      <!doctype html>
      <html style='height:100%'><body style='margin:0;height:100%;background:#2080c0'>
      <script>addEventListener('touchstart', () => { document.body.style.background = '#ffff00' })</script>
      </body></html>

      """, into: tree)
    // The GPU step's page for cog: the kiosk's colour, a white square
    // moving at each frame (WPE renders and commits every frame).
    try putFile(
      "/usr/local/share/rig/moving.html",
      """
      <!doctype html>
      <html style='height:100%'><body style='margin:0;height:100%;background:#2080c0'>
      <div id='square' style='position:absolute;top:0;width:32px;height:32px;background:#fff'></div>
      <script>
      let x = 0
      const step = () => { x = (x + 8) % 768; square.style.left = x + 'px'; requestAnimationFrame(step) }
      requestAnimationFrame(step)
      </script>
      </body></html>

      """, into: tree)
    for tool in ["keyboard-mode", "fake-pointer-and-touch", "fake-accelerometer"] {
      try buildRigTool(tool, to: tree + "/usr/local/bin/" + tool)
    }
    for client in ["input-probe", "frame-counter"] {
      try buildWaylandClient("tools/test/qemu/\(client).c", in: dir.path, to: tree + "/usr/local/bin/" + client)
    }
    try buildWaylandClient(
      "tools/test/qemu/gles-counter.c", in: dir.path, to: tree + "/usr/local/bin/gles-counter",
      protocols: ["unstable/linux-dmabuf/linux-dmabuf-unstable-v1.xml"],
      libraries: ["-lwayland-egl", "-lEGL", "-lGLESv2"])
    try buildWaylandClient(
      "tools/test/qemu/dmabuf-fuzz.c", in: dir.path, to: tree + "/usr/local/bin/dmabuf-fuzz",
      protocols: ["unstable/linux-dmabuf/linux-dmabuf-unstable-v1.xml"], libraries: ["-lgbm"])
    // An accelerometer, reporting upright, there before splashd starts (the
    // angle it follows: rotate = auto); the script tilts it.
    try putFile(
      "/etc/systemd/system/rig-accelerometer.service",
      """
      [Unit]
      Description=QEMU rig: a fake accelerometer (uinput), upright until /run/accel/tilt
      Before=kiosk-with-splash.service
      [Service]
      ExecStartPre=/bin/mkdir -p /run/accel
      ExecStart=/usr/local/bin/fake-accelerometer /run/accel
      ExecStartPost=/bin/sh -c 'while [ ! -e /run/accel/accel-ready ]; do sleep 0.05; done'

      """, into: tree)
    try putFile(
      "/etc/systemd/system/rig-final.service",
      """
      [Unit]
      Description=QEMU rig: screendump of the kiosk, who runs it, the journal, power off
      After=kiosk-with-splash.service
      [Service]
      Type=oneshot
      ExecStart=/usr/local/lib/rig/wayland-kiosk-boot.sh \(step)

      """, into: tree)
    let wants = tree + "/etc/systemd/system/multi-user.target.wants"
    try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
    for unit in ["kiosk-with-splash.service", "rig-final.service", "rig-accelerometer.service"] {
      try FileManager.default.createSymbolicLink(
        atPath: wants + "/" + unit, withDestinationPath: "/etc/systemd/system/" + unit)
    }
    let image = dir.path + "/root.img"
    let made = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/test/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
        "--overlay", tree, "--out", image, "--libraries-of", tree + "/usr/bin/splashd",
        // video for cage's seat (seatd); render for the GPU's render node,
        // which a program (or cage) rendering on it opens itself.
        "--run", "useradd --create-home --groups video,render kiosk",
      ] + packages.flatMap { ["--with", $0] }, timeout: 1500)
    try #require(made.status == 0, "\(made.stdout) \(made.stderr)")

    let work = dir.path + "/work"
    let booted = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/test/qemu/rig.py", "--work", work, "--root", image, "--gpu", gpu, "--size",
        "800x480", "--watch-screen", "0.1", "--timeout", String(Int(timeout)), "--type",
        "RIG-KIOSK-KEYS=touch /home/kiosk/typed", "--type", "RIG-KIOSK-WAKE=xtouch /home/kiosk/woke",
      ], environment: ProcessInfo.processInfo.environment, timeout: timeout + 100)
    let console = (try? String(contentsOfFile: work + "/console.log", encoding: .utf8)) ?? ""
    if booted.status != 0 {
      // What the guest left, for people to look at (the test's folder goes).
      let kept = Screendump.folder + "/\(gpu)-\(step)-boot-work"
      try? FileManager.default.removeItem(atPath: kept)
      try? FileManager.default.createDirectory(atPath: Screendump.folder, withIntermediateDirectories: true)
      // QEMU's sockets cannot be copied (nor used once it has gone).
      for socket in ["qmp.sock", "vnc.sock"] { try? FileManager.default.removeItem(atPath: work + "/" + socket) }
      try? FileManager.default.copyItem(atPath: work, toPath: kept)
    }
    try #require(booted.status == 0, "\(booted.stdout) \(console.suffix(3000))")
    func text(_ name: String) -> String { (try? String(contentsOfFile: work + "/" + name, encoding: .utf8)) ?? "" }
    let frames = text("watch.txt").split(separator: "\n").compactMap { line -> (Double, Screendump)? in
      let fields = line.split(separator: " ")
      guard fields.count == 2, let time = Double(fields[1]),
        let screen = Screendump(path: "\(work)/watch/\(fields[0]).ppm")
      else { return nil }
      return (time, screen)
    }
    return WaylandKioskBoot(
      work: work, frames: frames, final: Screendump(path: work + "/final.ppm"), journal: text("journal.txt"),
      who: Set(text("kiosk-who").split(separator: "\n").map { $0.split(separator: " ") }),
      unitState: text("kiosk-state"),
      restarts: text("kiosk-restarts"), typedIntoTheProgram: text("kiosk-typed") == "yes\n",
      screenPower: text("screen-power").split(separator: "\n").map(String.init),
      consoleKeyboard: text("console-keyboard").split(separator: "\n").map(String.init),
      crashBacklight: text("crash-backlight"),
      inputProbe: text("input-probe.log").split(separator: "\n"), pointed: Screendump(path: work + "/pointer.ppm"),
      touched: Screendump(path: work + "/touched.ppm"), restarted: Screendump(path: work + "/restarted.ppm"),
      restartStatus: text("restart-status"),
      diagnosticStatus: text("diagnostic-status"),
      turnedColumns: text("turned-columns").split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }, turned: Screendump(path: work + "/turned.ppm"),
      compositor: usage(text("compositor-usage")), browser: Screendump(path: work + "/browser.ppm"),
      browserTouch: text("browser-touched"),
      animations: ["host", "cage"].flatMap { compositor in
        (1...3).compactMap { animation(text("frames-\(compositor)-\($0)"), under: compositor) }
      })
  }

  /// frame-counter's line: "frames N seconds S refresh_mhz R".
  private func animation(_ line: String, under compositor: String) -> Animation? {
    let words = line.split(whereSeparator: \.isWhitespace)
    guard words.count == 6, words[0] == "frames", let frames = Int(words[1]), let seconds = Double(words[3]),
      let refresh = Int(words[5])
    else { return nil }
    return Animation(compositor: compositor, frames: frames, seconds: seconds, refreshMHz: refresh)
  }

  /// The compositor's memory and CPU with foot idle.
  struct CompositorUsage {
    var peakMiB: Double
    var idleCPUPer10s: Double
    var idleMiB: Double
    /// The idle RSS's parts (/proc/PID/status): anonymous memory (heaps,
    /// stacks, its own buffers), files (code, fonts), shared memory (the
    /// program's buffers it has read, mapped from the program's pools).
    var idleAnonMiB: Double
    var idleFileMiB: Double
    var idleSharedMiB: Double
  }

  /// "PEAK_KIB TICKS_IN_5_S TICKS_A_SECOND RSS_KIB ANON_KIB FILE_KIB SHMEM_KIB".
  private func usage(_ line: String) -> CompositorUsage? {
    let fields = line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard fields.count == 7, fields[2] > 0 else { return nil }
    return CompositorUsage(
      peakMiB: fields[0] / 1024, idleCPUPer10s: fields[1] / fields[2] * 2, idleMiB: fields[3] / 1024,
      idleAnonMiB: fields[4] / 1024, idleFileMiB: fields[5] / 1024, idleSharedMiB: fields[6] / 1024)
  }

  /// What the Wayland kiosks' image has besides the base (one image base for
  /// both: cage brings Debian's wlroots and with it the libraries host mode's
  /// compositor, its own wlroots linked in, needs). Debian's cage
  /// 0.1.4 exits at once without Xwayland ("Cannot create XWayland
  /// server"): apt installs it with cage (Recommends); debootstrap takes only
  /// what cage depends on. cog (WPE WebKit) draws with EGL, which needs
  /// Mesa's software driver (libgl1-mesa-dri: its Depends stop short of
  /// one), its dconf wants a session bus (dbus-user-session: debootstrap
  /// picks no alternative), and without shared-mime-info WebKit shows a
  /// local page's HTML as text (it tells a file's type by its name from
  /// that database); grim reads the screen by screencopy in the browser step.
  /// The GPU step's client (gles-counter) and host mode's GPU compositor
  /// load EGL, GLESv2, GBM and wayland-egl: named, though cage and cog
  /// bring them already (one base for every kiosk boot). Its X11 GL
  /// program is glxgears (mesa-utils), on Xwayland's glamor.
  static let waylandKioskPackages = [
    "cage", "xwayland", "foot", "seatd", "cog", "libgl1-mesa-dri", "dbus-user-session", "shared-mime-info", "grim",
    "libegl-mesa0", "libgles2", "libgbm1", "libwayland-egl1", "mesa-utils",
  ]

  /// The ExecStart= line kiosk-with-splash.service's comment gives for a
  /// pattern (the one holding `text`), foot in the kiosk's colour.
  func exampleLine(_ example: String, containing text: String) throws -> String {
    let line = try #require(
      example.split(separator: "\n").first { $0.hasPrefix("#   ExecStart=") && $0.contains(text) },
      "kiosk-with-splash.service gives no ExecStart= line with \(text)")
    return line.dropFirst("#   ".count) + " --override=colors.background=2080c0"
  }

  /// The example unit's host-mode line with `program` (and its arguments)
  /// in the place of foot and the option given it.
  func hostModeLine(_ example: String, running program: String) throws -> String {
    let line = try exampleLine(example, containing: "--host wayland")
    let foot = try #require(line.range(of: "/usr/bin/foot"), "\(line)")
    return line[..<foot.lowerBound] + program
  }

  /// Prints the compositor's figures (foot idle; the same image, screen size
  /// and program for cage and host mode): `NAME_compositor_peak_rss_mib`,
  /// `NAME_compositor_idle_cpu_s_per_10s`, `NAME_compositor_idle_rss_mib` and its
  /// `_anon`, `_file` and `_shmem` parts; and how the splash's transition
  /// went (`NAME_transition_frames`, `NAME_transition_skipped_vsyncs`: the
  /// vsyncs that passed without a new frame, from splashd's own line).
  func printUsage(_ boot: WaylandKioskBoot, as name: String) {
    guard let usage = boot.compositor else {
      Issue.record("no figures of the compositor; \(boot.note)")
      return
    }
    print("\(name)_compositor_peak_rss_mib: \(String(format: "%.1f", usage.peakMiB))")
    print("\(name)_compositor_idle_cpu_s_per_10s: \(String(format: "%.2f", usage.idleCPUPer10s))")
    print("\(name)_compositor_idle_rss_mib: \(String(format: "%.1f", usage.idleMiB))")
    print("\(name)_compositor_idle_rss_anon_mib: \(String(format: "%.1f", usage.idleAnonMiB))")
    print("\(name)_compositor_idle_rss_file_mib: \(String(format: "%.1f", usage.idleFileMiB))")
    print("\(name)_compositor_idle_rss_shmem_mib: \(String(format: "%.1f", usage.idleSharedMiB))")
    printTransition(in: boot.journal, as: name, boot.note)
  }

  /// Prints how the splash's transition went, from splashd's own line in
  /// `log` ("splashd: kms: 73 frames, 0 skipped; vsyncs …"):
  /// `NAME_transition_frames` and `NAME_transition_skipped_vsyncs` (the
  /// vsyncs that passed without a new frame); records an issue without it.
  func printTransition(in log: String, as name: String, _ note: String) {
    let played = log.split(separator: "\n").lazy.compactMap {
      $0.firstMatch(of: /splashd: [a-z]+: ([0-9]+) frames, ([0-9]+) skipped/)
    }.first.map { (Int($0.1) ?? 0, Int($0.2) ?? 0) }
    guard let (frames, skipped) = played else {
      Issue.record("splashd said nothing of its transition (\(name)); \(note)")
      return
    }
    print("\(name)_transition_frames: \(frames)")
    print("\(name)_transition_skipped_vsyncs: \(skipped)")
  }

  /// Whether the program (foot, say) fills `screen` in the kiosk's colour
  /// (a prompt and cursor aside).
  func fillsInTheKiosksColour(_ screen: Screendump) -> Bool {
    samples(screen).filter { $0 == Self.kiosk }.count >= samples(screen).count * 9 / 10
  }

  /// The one-unit kiosk with a Wayland program that must not run as root,
  /// as kiosk-with-splash.service says to write it: splashd --user kiosk --
  /// cage -- foot, with seatd for the seat, on QEMU's qxl card (the one
  /// wlroots 0.15's DRM back end runs on). The splash shows and opens its
  /// doors, then cage and foot run as the kiosk user and foot fills the
  /// screen; the unit stays active, never restarted.
  @Test func theOneUnitKioskRunsCageAndFootAsTheKioskUser() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4"])
    let dir = try TemporaryDirectory()
    let boot = try bootWaylandKiosk(
      in: dir,
      // The line the example's comment gives for cage.
      execStart: { try exampleLine($0, containing: "/usr/bin/cage") },
      // What the example's comment says to add for a compositor, and wlroots' software renderer: qxl has no 3D.
      dropIn: "[Unit]\nWants=seatd.service\nAfter=seatd.service\n[Service]\nEnvironment=WLR_RENDERER=pixman\n",
      packages: Self.waylandKioskPackages, gpu: "qxl")
    let splash = boot.frames.first { isSplash($0.screen) }
    splash?.screen.keep(as: "cage-kiosk-splash")
    #expect(splash != nil, "no splash on qxl's screen; \(boot.note)")
    let final = try #require(boot.final, "no screendump of the kiosk; \(boot.note)")
    final.keep(as: "cage-kiosk-final")
    #expect(fillsInTheKiosksColour(final), "foot does not fill the screen; \(boot.note)")
    #expect(boot.who == [["kiosk", "cage"], ["kiosk", "foot"]], "\(boot.who); \(boot.note)")
    #expect(boot.unitState == "active\n" && boot.restarts == "0\n", "\(boot.note)")
    #expect(boot.journal.contains("splashd: handing off to /usr/bin/cage"), "\(boot.note)")
    printUsage(boot, as: "cage")
  }

  /// Checks that the watched screens, from the splash's first frame to the
  /// program (in the kiosk's colour) alone on the screen, show only the
  /// leaves, the program between them as the doors open, then the program:
  /// never the background, black or the console. `drawnFirst`: colours the
  /// program itself may draw before its own (a browser's blank document).
  /// Keeps the opening frame and the program's as `NAME-doors-opening` and
  /// `NAME-program`.
  func expectTheDoorsOpenOntoTheProgram(
    _ boot: WaylandKioskBoot, drawnFirst: Set<UInt32> = [], keptAs name: String
  ) throws {
    let first = try #require(boot.frames.firstIndex { isSplash($0.screen) }, "no splash; \(boot.note)")
    // Below foot's first line of text: the points sampled on a screen, and their colours.
    func points(_ screen: Screendump) -> [(x: Int, y: Int)] {
      stride(from: 40, to: screen.height, by: screen.height / 16).flatMap { y in
        stride(from: 0, to: screen.width, by: screen.width / 16).map { (x: $0, y: y) }
      }
    }
    func below(_ screen: Screendump) -> [UInt32] { points(screen).map { screen.at($0.x, $0.y) } }
    let full = try #require(
      boot.frames[first...].firstIndex { below($0.screen).allSatisfy { $0 == Self.kiosk } },
      "the program never had the screen to itself; \(boot.note)")
    // Between them, every sample is a leaf's colour or the program's, or
    // the one column a leaf's edge blends at a fraction of a pixel (the
    // doors' first frames move less than one): foreign is a sample with a
    // foreign pixel on each side (black, the console, the background).
    let allowed = drawnFirst.union([Self.leftLeaf, Self.rightLeaf, Self.kiosk])
    func isForeign(_ screen: Screendump) -> Bool {
      points(screen).contains { point in
        [point.x - 1, point.x, point.x + 1].allSatisfy {
          !allowed.contains(screen.at(min(max($0, 0), screen.width - 1), point.y))
        }
      }
    }
    let foreign = boot.frames[first...full].filter { isForeign($0.screen) }
    if let frame = foreign.first {
      frame.screen.keep(as: name + "-foreign-frame")
      Issue.record("\(foreign.count) foreign frames, the first at \(frame.time) s; \(boot.note)")
    }
    // The doors part over the program: a leaf's colour at both edges, the program's between.
    let opening = boot.frames[first...full].first { frame in
      let row = (0..<frame.screen.width).map { frame.screen.at($0, 300) }
      return row.first == Self.leftLeaf && row.last == Self.rightLeaf && row.contains(Self.kiosk)
    }
    opening?.screen.keep(as: name + "-doors-opening")
    #expect(opening != nil, "no frame showed the program between the opening doors; \(boot.note)")
    boot.frames[full].screen.keep(as: name + "-program")
  }

  /// Host mode on a real kernel: the one-unit kiosk with splashd as foot's
  /// compositor (--host wayland --user kiosk -- foot), on QEMU's VGA (bochs:
  /// a card wlroots' DRM back end refuses; splashd composes) and on qxl (the
  /// card cage runs on). From the first splash frame to foot's full screen,
  /// the screen shows only the leaves, foot between them as the doors open,
  /// then foot: never the background, black or the console. On VGA,
  /// systemd's watchdog then restarts a splashd stopped by SIGSTOP, and foot
  /// is back. foot killed each time it comes back, the diagnostic screen
  /// then shows (status: program=failed). Prints when the program's first
  /// frame came and when the doors began to open (`host_mode_…` on VGA,
  /// `host_mode_qxl_…` on qxl).
  @Test(arguments: ["vga", "qxl"])
  func hostModeOpensTheDoorsOntoTheProgramOnARealKernel(gpu: String) throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4"])
    let dir = try TemporaryDirectory()
    let boot = try bootWaylandKiosk(
      in: dir,
      // The line the example's comment gives for host mode.
      // Not restarted once the script crashes it: a new splashd would turn the console's keyboard off again.
      // On VGA, restarted by systemd's watchdog only (a splashd the script stops).
      // Its control socket for the script's splashctl: /run/splashd/control.
      execStart: { try exampleLine($0, containing: "--host wayland") },
      dropIn: "[Service]\nRuntimeDirectory=splashd\n"
        + (gpu == "vga" ? "Restart=on-watchdog\nWatchdogSec=10s\n" : "Restart=no\n"),
      packages: Self.waylandKioskPackages, gpu: gpu)
    let name = gpu == "vga" ? "host_mode" : "host_mode_\(gpu)"
    // libinput read the device quirks installed with the compositor (it
    // cannot read Debian 12's, which are an older version's).
    #expect(!boot.journal.contains("Failed to load the device quirks"), "\(boot.note)")
    try expectTheDoorsOpenOntoTheProgram(boot, keptAs: "host-mode-\(gpu)-boot")
    #expect(boot.who == [["kiosk", "foot"]], "\(boot.who); \(boot.note)")
    #expect(boot.unitState == "active\n" && boot.restarts == "0\n", "\(boot.note)")
    #expect(boot.typedIntoTheProgram, "the keyboard did not type into foot; \(boot.note)")
    expectTheScreenWentOffAndAKeyWokeIt(boot, as: name)
    // The console's keyboard was off while splashd had the keyboards, and its
    // crash put it back (systemd's console setup leaves it in unicode mode).
    #expect(boot.consoleKeyboard == ["off", "unicode"], "\(boot.consoleKeyboard); \(boot.note)")
    // A crash while the screen was off put the backlight's brightness back.
    #expect(boot.crashBacklight == "off=0 crashed=7\n", "\(boot.crashBacklight); \(boot.note)")
    // The fake pointer's point and the finger's reached the probe's window
    // where they are on it (it lies at 240,120), and its click; its cursor
    // showed where the pointer was, and went at the touch.
    for line in ["pointer-enter 60 30", "button 272 pressed", "button 272 released", "touch-down 260 180", "touch-up"] {
      #expect(boot.inputProbe.contains(Substring(line)), "no \(line): \(boot.inputProbe); \(boot.note)")
    }
    let magenta: UInt32 = 0xFF00FF
    let yellow: UInt32 = 0xFFFF00
    let pointed = try #require(boot.pointed, "no screendump with the pointer; \(boot.note)")
    pointed.keep(as: "host-mode-\(gpu)-boot-pointer")
    #expect(
      (300..<308).allSatisfy { x in (150..<158).allSatisfy { pointed.at(x, $0) == magenta } }
        && pointed.at(310, 160) == yellow, "the cursor is not at the pointer; \(boot.note)")
    let touched = try #require(boot.touched, "no screendump after the touch; \(boot.note)")
    #expect(touched.at(303, 153) == yellow, "the cursor still shows after a touch; \(boot.note)")
    // foot killed: the splash came back whole (its leaves) and foot was
    // started again under it and revealed (the example's --restart
    // on-failure). From the first frame with the probe's window (it stays
    // through the crash) to foot's return, no frame shows the background or
    // black.
    // (Frames of another size, the console's at the end, count as foreign.)
    func pixel(_ screen: Screendump, _ x: Int, _ y: Int) -> UInt32? {
      x < screen.width && y < screen.height ? screen.at(x, y) : nil
    }
    let withProbe = Array(boot.frames.drop { pixel($0.screen, 400, 240) != yellow })
    let back = withProbe.firstIndex { $0.screen.width == 800 && isSplash($0.screen) }
    let again = back.flatMap { back in withProbe[back...].firstIndex { pixel($0.screen, 10, 240) == Self.kiosk } }
    if let back { withProbe[back].screen.keep(as: "host-mode-\(gpu)-boot-splash-back") }
    #expect(back != nil, "the splash did not come back after foot's crash; \(boot.note)")
    #expect(again != nil, "foot did not show again after its crash; \(boot.note)")
    let gaps = withProbe[..<(again ?? withProbe.endIndex)].filter {
      $0.screen.width != 800 || $0.screen.height != 480 || [Self.revealed, 0].contains($0.screen.at(10, 240))
    }
    gaps.first?.screen.keep(as: "host-mode-\(gpu)-boot-crash-gap")
    #expect(gaps.isEmpty, "\(gaps.count) frames of background or black, the first at \(gaps.first?.time ?? 0) s")
    #expect(boot.restartStatus.contains(" restarts=1"), "\(boot.restartStatus); \(boot.note)")
    let restarted = try #require(boot.restarted, "no screendump of the restarted foot; \(boot.note)")
    restarted.keep(as: "host-mode-\(gpu)-boot-restarted")
    let edges = [restarted.at(10, 240), restarted.at(790, 240), restarted.at(400, 60), restarted.at(400, 420)]
    #expect(edges.allSatisfy { $0 == Self.kiosk }, "foot does not fill the screen again; \(boot.note)")
    // foot killed each time it came back: after restart-limit (2) restarts
    // the diagnostic screen, and status says how foot ended.
    #expect(
      boot.diagnosticStatus.contains(" program=failed restarts=2 ended=signal:9 "),
      "\(boot.diagnosticStatus); \(boot.note)")
    // The screen's watch then showed its panel (dark, an eighth of the
    // screen or more, turned with it), kept for people to look at. (A
    // program that ended as the doors finished opening onto it once left
    // the splash away, in two boots of five, before
    // KioskSupervisor.showsTheProgram.)
    func panelShare(_ screen: Screendump) -> Double {
      let seen = samples(screen)
      return Double(seen.filter { $0 & 0xC0_C0C0 == 0 }.count) / Double(max(seen.count, 1))
    }
    let diagnostic = boot.frames.last {
      $0.screen.width == 800 && $0.screen.height == 480 && (0.125..<0.95).contains(panelShare($0.screen))
    }
    diagnostic?.screen.keep(as: "host-mode-\(gpu)-boot-diagnostic")
    #expect(diagnostic != nil, "no frame of the diagnostic screen on the watch; \(boot.note)")
    // The accelerometer turned the screen 90 degrees while foot ran: foot was
    // told its portrait size (fewer columns), and a touch on the panel at
    // 500,100 landed where the turned content shows: 20,20 of the probe's
    // window (without the turn: 220,47).
    boot.turned?.keep(as: "host-mode-\(gpu)-boot-turned")
    let columns = boot.turnedColumns
    #expect(columns.count == 2 && columns[1] < columns[0], "foot's columns \(columns); \(boot.note)")
    let touches = boot.inputProbe.filter { $0.hasPrefix("touch-down ") }
    #expect(touches.count == 2 && touches.last == "touch-down 20 20", "\(touches); \(boot.note)")
    // splashd's figures in the journal, fields of their own (the last entry
    // once foot was shown): the display, the program's one start, its path.
    let figures = Dictionary(
      ((try? String(contentsOfFile: boot.work + "/journal-figures", encoding: .utf8)) ?? "").split(separator: "\n")
        .compactMap { line -> (String, String)? in
          line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        },
      uniquingKeysWith: { $1 })
    #expect(
      figures["SPLASHD_DISPLAY"] == "kms" && figures["SPLASHD_PROGRAM_STARTS"] == "1"
        && figures["SPLASHD_SCANOUT"] == "software" && figures["SPLASHD_PROGRAM_FAILURES"] == "0",
      "\(figures); \(boot.note)")
    #expect(figures["SPLASHD_REVEAL_SECONDS"].flatMap { Double($0) }.map { $0 > 0 } == true, "\(figures)")
    if gpu == "vga" { try expectTheWatchdogRestartedAStoppedSplashd(boot) }
    printUsage(boot, as: name)
    // When, on the guest's clock (the journal's monotonic stamps).
    func stamp(_ text: String) -> Double? {
      boot.journal.split(separator: "\n").first { $0.contains(text) }.flatMap {
        Double($0.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces))
      }
    }
    let appeared = stamp("splashd: appeared:")
    let programFrame = stamp("splashd: host mode: the program's first frame")
    let doors = stamp("splashd: will-disappear:")
    #expect(appeared != nil && programFrame != nil && doors != nil, "\(boot.note)")
    if let appeared, let programFrame, let doors {
      print("\(name)_program_first_frame_after_splash_s: \(String(format: "%.2f", programFrame - appeared))")
      print("\(name)_program_first_frame_to_doors_s: \(String(format: "%.2f", doors - programFrame))")
    }
  }

  /// systemd's watchdog on a real kernel (the unit's WatchdogSec=10s,
  /// Restart=on-watchdog): splashd stopped by SIGSTOP sent no WATCHDOG=1,
  /// systemd ended it and started the unit again once (another main
  /// process), and the new splashd revealed foot again: its status says so,
  /// and the screen is foot's.
  func expectTheWatchdogRestartedAStoppedSplashd(_ boot: WaylandKioskBoot) throws {
    let lines = ((try? String(contentsOfFile: boot.work + "/watchdog", encoding: .utf8)) ?? "")
      .split(separator: "\n")
    let pids = lines.first { $0.hasPrefix("pids=") }?.dropFirst(5).split(separator: " ") ?? []
    #expect(pids.count == 2 && pids[0] != pids[1] && pids[1] != "0", "\(lines); \(boot.note)")
    #expect(lines.contains("restarts=1"), "\(lines); \(boot.note)")
    #expect(
      lines.contains { $0.hasPrefix("phase=done ") && $0.contains(" program=shown") }, "\(lines); \(boot.note)")
    let screen = try #require(Screendump(path: boot.work + "/watchdog.ppm"), "no screendump; \(boot.note)")
    screen.keep(as: "host-mode-vga-boot-after-watchdog")
    #expect(fillsInTheKiosksColour(screen), "foot is not back on the screen; \(boot.note)")
  }

  /// `splashctl screen off` on a real kernel: the CRTC inactive (the
  /// kernel's own state), then a key on the guest's keyboard woke it (active
  /// again) and reached nothing: foot's shell ran what followed it. Prints
  /// splashd's and foot's CPU while off (`NAME_screen_off_splashd_cpu_s_per_10s`,
  /// `…_program_…`) and how long `splashctl screen on` took (`NAME_screen_on_ms`).
  func expectTheScreenWentOffAndAKeyWokeIt(_ boot: WaylandKioskBoot, as name: String) {
    let lines = boot.screenPower
    #expect(lines.first == "screen=off off_by=splashctl", "\(lines); \(boot.note)")
    let states = lines.filter { $0.hasPrefix("active=") }
    #expect(states == ["active=0", "active=1"], "the CRTC's state: \(lines); \(boot.note)")
    #expect(lines.contains("woke=yes"), "the key that woke the screen reached foot: \(lines); \(boot.note)")
    #expect(lines.contains("screen=on"), "\(lines); \(boot.note)")
    let ticks = lines.first { $0.hasPrefix("off_ticks=") }?.dropFirst("off_ticks=".count).split(separator: " ")
      .compactMap { Double($0) }
    if let ticks, ticks.count == 3, ticks[2] > 0 {
      print("\(name)_screen_off_splashd_cpu_s_per_10s: \(String(format: "%.2f", ticks[0] / ticks[2] * 2))")
      print("\(name)_screen_off_program_cpu_s_per_10s: \(String(format: "%.2f", ticks[1] / ticks[2] * 2))")
    } else {
      Issue.record("no CPU figures with the screen off: \(lines)")
    }
    if let on = lines.first(where: { $0.hasPrefix("on_ms=") }) { print("\(name)_screen_on_ms: \(on.dropFirst(6))") }
  }

  /// cog, WPE WebKit's kiosk browser, as the hosted kiosk program on QEMU's
  /// qxl (the example unit's host-mode line with cog and a local page in the
  /// kiosk's colour in place of foot): the doors open onto cog's own frames
  /// (WebKit's blank document, then the page; never black: its first
  /// buffer has nothing in it), cog runs as the kiosk user, and a touch on
  /// the touch screen reaches the
  /// page (its touchstart turns it yellow). Then, in the same boot, the same
  /// animating client (frame-counter) under host mode and under Debian's
  /// cage 0.1.4, three runs each in turn; prints the medians, a second, of
  /// the frames the client was called to draw, of the refreshes that showed
  /// none of them and of the frames beyond the refreshes, drawn and never
  /// shown (`kiosk_animation_host_mode_frames_per_s`,
  /// `…_missed_refreshes_per_s`, `…_unshown_frames_per_s`; the same for
  /// `cage`).
  @Test func hostModeRevealsCogWhoseTouchReachesThePageThenAnimatesBesideCage() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4"])
    let dir = try TemporaryDirectory()
    let boot = try bootWaylandKiosk(
      in: dir,
      execStart: { example in
        try hostModeLine(example, running: "/usr/bin/cog --platform=wl file:///usr/local/share/rig/touch.html")
      },
      dropIn: "[Service]\nRestart=no\nRuntimeDirectory=splashd\n",
      packages: Self.waylandKioskPackages, gpu: "qxl", step: "browser")
    #expect(boot.who == [["kiosk", "cog"]], "\(boot.who); \(boot.note)")
    let page = try #require(boot.browser, "no screendump of cog's page; \(boot.note)")
    page.keep(as: "host-mode-cog-boot-page")
    #expect(fillsInTheKiosksColour(page), "cog's page does not fill the screen: \(page.at(400, 240)); \(boot.note)")
    #expect(boot.browserTouch == "yes\n", "the touch did not reach cog's page: \(boot.browserTouch); \(boot.note)")
    let touched = try #require(boot.touched, "no screendump after the touch; \(boot.note)")
    touched.keep(as: "host-mode-cog-boot-touched")
    #expect(touched.at(400, 240) == 0xFFFF00, "the page is not yellow after the touch; \(boot.note)")
    // The figures: each compositor's three runs, by their medians.
    func median(_ values: [Double]) -> Double? {
      values.isEmpty ? nil : values.sorted()[values.count / 2]
    }
    for (compositor, name) in [("host", "host_mode"), ("cage", "cage")] {
      let runs = boot.animations.filter { $0.compositor == compositor && $0.seconds > 0 }
      #expect(runs.count == 3, "\(runs.count) runs of frame-counter under \(compositor); \(boot.note)")
      let figures: [(String, (Animation) -> Double)] = [
        ("frames", { Double($0.frames) }), ("missed_refreshes", \.missedRefreshes), ("unshown_frames", \.unshownFrames),
      ]
      for (figure, value) in figures {
        guard let perSecond = median(runs.map { value($0) / $0.seconds }) else { continue }
        print("kiosk_animation_\(name)_\(figure)_per_s: \(String(format: "%.1f", perSecond))")
      }
    }
    // WebKit paints its blank document (white) before the page, under TCG
    // for a few frames as the doors part: cog's own pixels.
    try expectTheDoorsOpenOntoTheProgram(boot, drawnFirst: [0xFFFFFF], keptAs: "host-mode-cog-boot")
  }
}
