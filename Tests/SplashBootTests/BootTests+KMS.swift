// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The KMS back ends under QEMU: native KMS on bochs-drm and virtio-gpu,
/// every connected screen, a card that replaces the framebuffer, SDL's
/// KMSDRM, and auto's choice.
extension BootTests {
  /// The native KMS output (libdrm, dumb buffers, no GL) on QEMU's VGA
  /// (bochs-drm) and on virtio-gpu: the held splash, a frame
  /// mid-transition, and the last frame kept across the hand-off (the
  /// program's screendump is taken before it draws anything); no EGL or
  /// Mesa driver in the process. Neither driver has a vblank interrupt
  /// (their flips complete at once), so the flips are timed by splashd's
  /// timer at the mode's refresh, as it says; how far apart they came is
  /// printed.
  @Test(arguments: [("vga", 800, 600), ("virtio", 800, 600)])
  func nativeKMSShowsTheSplashFlipsOnVblankAndKeepsTheLastFrameForTheProgram(gpu: String, width: Int, height: Int)
    throws
  {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    // The exec mode, then the spawn mode (its program, native-kms-spawned.sh, reveals the splash).
    let (outcome, console) = try runScenario(
      "native-kms-hand-off", in: dir, environment: ["LEAVES": leaves], size: "\(width)x\(height)", gpu: gpu)
    let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    #expect((try? String(contentsOfFile: dir.path + "/exec-status", encoding: .utf8)) == "exit 4\n", "\(log)")
    #expect(
      log.contains("splashd: kms: /dev/dri/card0 Virtual-1 \(width)x\(height)@")
        && log.contains("XRGB8888, atomic modesetting, two dumb buffers page-flipped"), "\(log)")
    #expect(
      log.contains(
        "splashd: kms: /dev/dri/card0 has no vblank interrupt (its flips complete at once): flips are "
          + "timed by a "), "\(log)")
    #expect(log.contains("splashd: handing off to /bin/sh"), "\(log)")
    // Only what it draws with: no GL stack (EGL, GL, GBM, a Mesa driver),
    // no X11, Wayland or audio library, no shared SDL.
    let libraries = (try? String(contentsOfFile: dir.path + "/libraries", encoding: .utf8)) ?? ""
    let unused = libraries.split(separator: "\n").filter { isUnusedOnAPlainStart(String($0)) }
    #expect(!libraries.isEmpty && unused.isEmpty, "\(unused)")
    print("kms_\(gpu)_mapped_libraries: \(libraries.split(separator: "\n").count)")
    // The card stayed open in the program (not master), so its frame stayed on the screen.
    let fds = (try? String(contentsOfFile: dir.path + "/program-fds", encoding: .utf8)) ?? ""
    #expect(fds.contains("-> /dev/dri/card0"), "\(fds)")

    let held = try #require(Screendump(path: dir.path + "/held.ppm"), "no screendump of the held splash: \(log)")
    held.keep(as: "kms-\(gpu)-held")
    #expect(held.width == width && held.height == height)
    expectClosedDoors(held, turned: false, log)
    expectSnapshot(in: dir, equals: held, log)
    // Mid-transition: along every row, red, then the background, then
    // green; the leaves have moved apart from the middle column.
    let mid = try #require(Screendump(path: dir.path + "/mid.ppm"), "no screendump mid-transition: \(log)")
    mid.keep(as: "kms-\(gpu)-mid")
    expectOpeningDoors(mid, turned: false, log)
    let after = try #require(Screendump(path: dir.path + "/after.ppm"), "no screendump after the hand-off: \(log)")
    after.keep(as: "kms-\(gpu)-after")
    expectFilled(after, with: 0x0000FF, log)
    // Spawn mode: splashd passed on the program's status, and held the card (not master) while it ran.
    let spawnLog = (try? String(contentsOfFile: dir.path + "/spawn.log", encoding: .utf8)) ?? ""
    #expect((try? String(contentsOfFile: dir.path + "/status", encoding: .utf8)) == "5\n", "\(spawnLog)")
    #expect(spawnLog.contains("splashd: reveal: ") && spawnLog.contains("did-disappear"), "\(spawnLog)")
    let spawnFDs = (try? String(contentsOfFile: dir.path + "/spawn-fds", encoding: .utf8)) ?? ""
    #expect(spawnFDs.contains("-> /dev/dri/card0"), "\(spawnFDs)")
    let spawned = try #require(Screendump(path: dir.path + "/spawned.ppm"), "\(spawnLog)")
    spawned.keep(as: "kms-\(gpu)-spawned")
    expectFilled(spawned, with: 0x0000FF, spawnLog)
    // How far apart the flips came under TCG is a figure, not a check (a
    // loaded machine only delays them): their pacing is the timer's, above.
    let line = try #require(
      log.split(separator: "\n").first { $0.hasPrefix("splashd: kms: ") && $0.contains("frames") })
    let numbers = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
    try #require(numbers.count >= 4, "\(line)")
    let (skipped, interval, refresh) = (numbers[1], numbers[2], numbers[3])
    print("kms_\(gpu)_flip_interval_ms: \(interval) (median; the mode's refresh \(refresh))")
    print("kms_\(gpu)_skipped_vsyncs: \(Int(skipped)) (TCG)")
  }

  /// Two screens (QEMU's VGA and a virtio-gpu: two cards, one connector
  /// each), in one boot. A splash with both: both show it, each at its
  /// mode, the second turned by its `[screen Virtual-2]` section (the
  /// kernel numbers connectors of a type across cards; the second card's
  /// screen is card1-Virtual-2); status lists both. Then the second card
  /// goes away while a splash holds and comes back (its driver unbound from
  /// the device and bound again, as when a display driver is reloaded or an
  /// adapter unplugged and plugged in; QEMU has no hot-pluggable display):
  /// its screens are let go of, and the card that appears gets the splash.
  /// Read back from each device's screendump.
  @Test func everyConnectedScreenShowsTheSplashPluggedInLateToo() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    let (outcome, console) = try runScenario(
      "kms-two-cards-hotplug", in: dir, environment: ["LEAVES": leaves], size: "800x600", gpu: "vga+virtio")
    func read(_ name: String) -> String {
      (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
    }
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    // Both connected from the start, the second turned by its section.
    let log = read("splashd.log")
    #expect(
      log.contains(
        "splashd: kms: /dev/dri/card0 Virtual-1 800x600@75, XRGB8888, atomic modesetting, two dumb buffers "
          + "page-flipped; also card1-Virtual-2 800x600@"), "\(log)")
    let status = read("splash-status")
    #expect(status.contains(" screens=Virtual-1:800x600@75:0,card1-Virtual-2:800x600@"), "\(status)")
    #expect(status.hasSuffix(":90\n"), "\(status)")
    let first = try #require(Screendump(path: dir.path + "/first.ppm"), "\(log)")
    first.keep(as: "kms-two-cards-first")
    let second = try #require(Screendump(path: dir.path + "/second.ppm"), "\(log)")
    second.keep(as: "kms-two-cards-second")
    #expect(first.width == 800 && first.height == 600 && second.width == 800 && second.height == 600)
    expectClosedDoors(first, turned: false, log)
    expectClosedDoors(second, turned: true, log)
    #expect(log.contains("splashd: did-disappear: transition done"), "\(log)")

    // The second card went away, then a card came back: it got the splash.
    let hotplug = read("hotplug.log")
    #expect(
      hotplug.contains(
        "splashd: display: /dev/dri/card1 removed: the screens are now /dev/dri/card0 Virtual-1 800x600@75, "
          + "XRGB8888, atomic modesetting, two dumb buffers page-flipped\n"), "\(hotplug)")
    #expect(read("unplugged-status").contains(" screens=Virtual-1:800x600@75:0\n"), "\(read("unplugged-status"))")
    // The card comes back under a new number or the old one, lit on its "added" event (or, when its
    // connector was not probed yet then, on the "changed" that follows).
    let changes = hotplug.split(separator: "\n").filter { $0.contains(": the screens are now ") }
    #expect(changes.count == 2, "\(hotplug)")
    let added = try #require(changes.last, "\(hotplug)")
    #expect(added.contains("; also card") && added.contains("-Virtual-"), "\(added)")
    #expect(read("plugged-status").contains(",card"), "\(read("plugged-status"))")
    let unplugged = try #require(Screendump(path: dir.path + "/unplugged.ppm"), "\(hotplug)")
    unplugged.keep(as: "kms-hotplug-unplugged")
    #expect(unplugged.at(100, 300) != 0xFF0000 && unplugged.at(700, 300) != 0x00FF00, "the splash stayed")
    let plugged = try #require(Screendump(path: dir.path + "/plugged.ppm"), "\(hotplug)")
    plugged.keep(as: "kms-hotplug-plugged")
    expectClosedDoors(plugged, turned: false, hotplug)
    #expect(hotplug.contains("splashd: did-disappear: transition done"), "\(hotplug)")
  }

  /// Host mode through a screen unplugged and plugged in again (the second
  /// card's driver unbound and bound, as above), foot hosted on two cards
  /// and drawing nothing new meanwhile: the screen that stays and the one
  /// that comes back both show foot (its own colour where it has no text),
  /// not the background the screens' new scenes begin with, the second a
  /// mirror of the first (`screens = mirror`). Then `screens = extend`:
  /// one window across both, its text (foot's prompt) at the first
  /// screen's top left and none at the second's; and a touch panel on each
  /// screen (udev's WL_OUTPUT names it): each touch lands on the part of
  /// the window its screen shows (a second window that straddles both).
  /// Then `screens = NAME`, the second screen by its connector's name
  /// (without its `cardN-`): foot there alone, the first screen the
  /// background.
  @Test func hostModeShowsTheProgramOnTheScreensAfterOneIsUnpluggedAndPluggedIn() throws {
    try requireRig(["/usr/bin/foot", "/usr/bin/gcc", "/usr/bin/wayland-scanner", "/lib/systemd/systemd-udevd"])
    let dir = try TemporaryDirectory()
    try buildWaylandClient("tools/test/qemu/input-probe.c", in: dir.path, to: dir.path + "/input-probe")
    try buildRigTool("fake-pointer-and-touch", to: dir.path + "/fake-pointer-and-touch")
    let (outcome, console) = try runScenario(
      "host-mode-hotplug", in: dir, environment: ["LEAVES": doorLeaves(in: dir)], size: "800x600", gpu: "vga+virtio")
    func read(_ name: String) -> String { (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? "" }
    let log = read("splashd.log")
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000)) \(log)")
    let foot: UInt32 = 0x2080C0
    // Below foot's first line of text, across the screen.
    func showsFoot(_ screen: Screendump) -> Bool {
      [(40, 100), (400, 300), (760, 560)].allSatisfy { screen.at($0.0, $0.1) == foot }
    }
    for name in ["program", "unplugged", "plugged-first", "plugged-second"] {
      let screen = try #require(Screendump(path: dir.path + "/\(name).ppm"), "no screendump \(name): \(log)")
      screen.keep(as: "host-mode-hotplug-\(name)")
      #expect(showsFoot(screen), "\(name) does not show foot: \(String(format: "%06X", screen.at(400, 300))); \(log)")
    }
    #expect(read("unplugged-status").contains(" screens=Virtual-1:800x600@75:0 "), "\(read("unplugged-status"))")
    #expect(read("plugged-status").contains(",card"), "\(read("plugged-status"))")
    // The top left, where foot's prompt is: text on a mirror as on the first.
    func topLeft(_ screen: Screendump) -> [UInt32] { (0..<30).flatMap { y in (0..<120).map { screen.at($0, y) } } }
    let mirrored = try #require(Screendump(path: dir.path + "/plugged-second.ppm"))
    let original = try #require(Screendump(path: dir.path + "/plugged-first.ppm"))
    #expect(topLeft(original).contains { $0 != foot }, "no prompt on the first screen; \(log)")
    #expect(topLeft(mirrored) == topLeft(original), "the second screen is not a mirror of the first")

    let extended = read("extend.log")
    #expect(extended.contains("host mode: the program's window is 1600x600\n"), "\(extended)")
    let left = try #require(Screendump(path: dir.path + "/extend-first.ppm"), "\(extended)")
    left.keep(as: "host-mode-extend-first")
    let right = try #require(Screendump(path: dir.path + "/extend-second.ppm"), "\(extended)")
    right.keep(as: "host-mode-extend-second")
    #expect(showsFoot(left) && showsFoot(right), "\(extended)")
    #expect(topLeft(left).contains { $0 != foot }, "no prompt at the window's left; \(extended)")
    #expect(topLeft(right).allSatisfy { $0 == foot }, "the second screen shows the window's left too; \(extended)")

    // The left panel touched at 700,300 and the right one at 100,300 reach
    // the probe (at 640,180 of the window) at 60,120 and 260,120; without
    // the panels' screens the right touch would land at the window's
    // 100,300, on foot.
    let probe = read("touch-probe.log").split(separator: "\n")
    let downs = probe.filter { $0.hasPrefix("touch-down ") }
    #expect(downs == ["touch-down 60 120", "touch-down 260 120"], "\(probe) \(read("right-touch-udev")) \(extended)")

    let pinned = read("pinned.log") + " pinned to " + read("pinned-name")
    let background = try #require(Screendump(path: dir.path + "/pinned-first.ppm"), "\(pinned)")
    background.keep(as: "host-mode-pinned-first")
    let shown = try #require(Screendump(path: dir.path + "/pinned-second.ppm"), "\(pinned)")
    shown.keep(as: "host-mode-pinned-second")
    expectFilled(background, with: 0x0000FF, pinned)
    #expect(showsFoot(shown) && topLeft(shown).contains { $0 != foot }, "\(pinned)")
    #expect(read("pinned-name").hasPrefix("Virtual-") && !pinned.contains("no screen "), "\(pinned)")
  }

  /// The real display driver replacing the firmware's framebuffer while
  /// the splash holds (virtio-vga: vesafb until virtio-gpu loads): splashd
  /// moves to the new card, holds it as DRM master, and a program that then
  /// tries to take the screen (a compositor started too early, here one
  /// that fills it black) cannot blank it; after the reveal the transition
  /// plays there. QEMU keeps showing the old framebuffer's memory until
  /// someone sets a mode, so the same boot with the move switched off
  /// (`--display fbdev` stays where it is) must show the program's black.
  @Test(arguments: [true, false])
  func theSplashMovesToTheCardThatReplacesTheFirmwareFramebuffer(moves: Bool) throws {
    try requireRig(["/usr/bin/gcc"])
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    let compile = try run(
      "/usr/bin/gcc",
      [
        "-O2", "-Wall", "-I/usr/include/libdrm", "-o", dir.path + "/kiosk-colour",
        packageRoot + "/tools/test/qemu/kiosk-colour.c", "-ldrm",
      ])
    try #require(compile.status == 0, "\(compile.stderr)")
    let (outcome, console) = try runScenario(
      "driver-replaces-framebuffer", in: dir, environment: ["LEAVES": leaves, "MOVE": moves ? "yes" : "no"],
      size: "1024x768", gpu: "firmware")
    func read(_ name: String) -> String {
      (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
    }
    let log = read("splashd.log")
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    // It started on the firmware's framebuffer, which the driver replaced.
    #expect(
      read("fb-before").contains("VESA VGA") && read("fb-after").contains("virtio_gpudrmfb"), "\(console.suffix(800))"
    )
    #expect(log.contains("splashd: fbdev: /dev/fb0 1024x768, 16 bpp SDL_PIXELFORMAT_RGB565"), "\(log)")
    let name = moves ? "replaced-driver" : "replaced-driver-unfollowed"
    let compositor = try #require(Screendump(path: dir.path + "/compositor.ppm"), "\(log)")
    compositor.keep(as: name + "-compositor")
    let mid = try #require(Screendump(path: dir.path + "/mid.ppm"), "\(log)")
    mid.keep(as: name + "-mid")
    guard moves else {
      // Left on the old framebuffer, the splash is blanked by the first program that sets a mode.
      #expect(!log.contains("display: moved"), "\(log)")
      #expect(
        read("kiosk.log").contains("kiosk-colour: /dev/dri/card0 1024x768 filled with #000000"),
        "\(read("kiosk.log"))")
      #expect(compositor.at(100, 384) == 0x000000 && compositor.at(900, 384) == 0x000000, "\(log)")
      return
    }
    let moved = try #require(
      log.split(separator: "\n").first { $0.hasPrefix("splashd: display: moved from fbdev to kms (/dev/dri/card0 ") },
      "\(log)")
    #expect(moved.contains(": /dev/dri/card0 Virtual-1 1024x768@"), "\(moved)")
    #expect(read("splash-status").hasPrefix("phase=waiting rotation=0 display=kms"), "\(read("splash-status"))")
    // It holds the new card, and no longer the old framebuffer.
    let fds = read("fds")
    #expect(fds.contains("-> /dev/dri/card0") && !fds.contains("/dev/fb"), "\(fds)")
    // The program that came too early could not take the card and its black never showed.
    #expect(!read("kiosk.log").contains("/dev/dri/card0"), "\(read("kiosk.log"))")
    expectClosedDoors(compositor, turned: false, log)
    // The transition on the new card: red, the background, green along every row.
    expectOpeningDoors(mid, turned: false, log)
    #expect(log.contains("splashd: kms: ") && log.contains(" frames, "), "\(log)")
    let delay = moved.split(separator: " ").firstIndex(of: "ms").map { moved.split(separator: " ")[$0 - 1] }
    print("driver_replacement_move_ms: \(delay ?? "?") (from the card's uevent to the frame on it, TCG)")
  }

  /// KMS through SDL's KMSDRM driver and Mesa (software GL), on QEMU's
  /// VGA (bochs-drm) and on virtio-gpu: the held splash is on the screen
  /// while splashd holds it, and once it has handed off, the screen keeps
  /// the last frame (painted into the fbdev emulation that SDL gives the
  /// screen back to).
  @Test(arguments: [("vga", 1280, 800), ("virtio", 1024, 768)])
  func kmsShowsTheSplashAndLeavesTheLastFrameForTheProgram(gpu: String, width: Int, height: Int) throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    let (outcome, console) = try runScenario(
      "kmsdrm-hand-off", in: dir, environment: ["LEAVES": leaves], size: "\(width)x\(height)", gpu: gpu)
    let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    #expect((try? String(contentsOfFile: dir.path + "/status", encoding: .utf8)) == "4\n", "\(log)")
    #expect(log.contains("splashd: kmsdrm: /dev/dri/card0, \(width)x\(height)@"), "\(log)")
    #expect(log.contains("splashd: handing off to /bin/sh"), "\(log)")
    let held = try #require(Screendump(path: dir.path + "/held.ppm"), "no screendump of the held splash: \(log)")
    held.keep(as: "kmsdrm-\(gpu)-held")
    #expect(held.width == width && held.height == height)
    expectClosedDoors(held, turned: false, log)
    expectSnapshot(in: dir, equals: held, log)
    let after = try #require(Screendump(path: dir.path + "/after.ppm"), "no screendump after the hand-off: \(log)")
    after.keep(as: "kmsdrm-\(gpu)-after")
    expectFilled(after, with: 0x0000FF, log)
  }

  /// `--display auto` with no desktop: native KMS when the card is there;
  /// when another program holds DRM master, the card has no connected
  /// connector (forced off through sysfs), or the card cannot be opened
  /// (its device node removed), the next back end, with the reason in the
  /// log. And a KMS mode the connector lacks is refused, by either KMS
  /// back end.
  @Test func autoPicksKMSAndFallsBackToTheFramebuffer() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let (outcome, console) = try runScenario("display-auto-fallback", in: dir, size: "800x480")
    func read(_ name: String) -> String {
      (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
    }
    let first = read("first.log")
    let second = read("second.log")
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    #expect(read("status") == "0\n", "\(first) \(second)")
    #expect(first.contains("splashd: kms: /dev/dri/card0 Virtual-1 800x480@"), "\(first)")
    #expect(!first.contains("fbdev") && !first.contains("kmsdrm"), "\(first)")
    // A mode the connector lacks: named, with the modes it has, exit 1.
    let mode = read("mode.log")
    #expect(
      mode.contains("splashd: --display kms: --mode 1234x567: /dev/dri/card0 Virtual-1 has no such mode; it offers ")
        && mode.contains("800x480@75"), "\(mode)")
    #expect(mode.hasSuffix("exit 1\n"), "\(mode)")
    let sdlMode = read("sdl-mode.log")
    #expect(
      sdlMode.contains("splashd: --display kmsdrm: --mode 1234x567: the connector has no such mode; it offers ")
        && sdlMode.contains("800x480@75"), "\(sdlMode)")
    #expect(sdlMode.hasSuffix("exit 1\n"), "\(sdlMode)")
    // bochs-drm's connector has no panel orientation property: read through libdrm, said, and passed over.
    #expect(
      read("panel.log")
        == "splashd: rotation: panel: /dev/dri/card0 Virtual-1 has no panel orientation\n"
        + "splashd: rotation 0 from no orientation source answered\n", "\(read("panel.log"))")
    // DRM master taken: kms says why and auto moves on (SDL's KMSDRM cannot have the screen either).
    let busy = read("busy.log")
    #expect(
      busy.contains(
        "splashd: display kms: /dev/dri/card0: cannot become DRM master: another program (a compositor, a display "
          + "server) is DRM master; trying kmsdrm"), "\(busy)")
    #expect(busy.contains("splashd: fbdev: /dev/fb0 800x480"), "\(busy)")
    let unplugged = read("unplugged.log")
    #expect(
      unplugged.contains("splashd: display kms: /dev/dri/card0: no connected connector; trying kmsdrm"),
      "\(unplugged)")
    #expect(unplugged.contains("splashd: fbdev: /dev/fb0 800x480"), "\(unplugged)")
    // Asked for by name with no card to light: one line, exit 1.
    #expect(
      read("no-card.log") == "splashd: --display kms: no DRM card with a connected connector\nexit 1\n",
      "\(read("no-card.log"))")
    #expect(
      second.contains("splashd: display kms: /dev/dri/card0: no such file or directory; trying kmsdrm"), "\(second)")
    #expect(second.contains("splashd: display kmsdrm: "), "\(second)")
    #expect(second.contains("; trying fbdev"), "\(second)")
    #expect(second.contains("splashd: fbdev: /dev/fb0 800x480, 32 bpp"), "\(second)")
  }

}
