// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// A screendump in binary PPM (P6) form, as QEMU writes it.
struct Screendump {
  var width: Int
  var height: Int
  var bytes: [UInt8]
  var start: Int

  init?(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    bytes = [UInt8](data)
    // "P6\n<width> <height>\n<maxval>\n" then RGB triplets.
    var fields: [Int] = []
    var index = 2
    while fields.count < 3 && index < bytes.count {
      while index < bytes.count && (bytes[index] == 10 || bytes[index] == 32) { index += 1 }
      var number = 0
      while index < bytes.count && bytes[index] >= 48 && bytes[index] <= 57 {
        number = number * 10 + Int(bytes[index] - 48)
        index += 1
      }
      fields.append(number)
    }
    guard bytes.starts(with: [80, 54]), fields.count == 3 else { return nil }
    width = fields[0]
    height = fields[1]
    start = index + 1
  }

  func at(_ x: Int, _ y: Int) -> UInt32 {
    let i = start + (y * width + x) * 3
    return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
  }

  /// Where the QEMU tests leave their screendumps, as PNG, for people to look at.
  static let folder = packageRoot + "/.build/systest"

  /// Writes this screendump as `folder/NAME.png`.
  func keep(as name: String) {
    try? FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
    let png = makePNG(width: width, height: height) { x, y in
      let i = start + (y * width + x) * 3
      return (bytes[i], bytes[i + 1], bytes[i + 2])
    }
    writeFile(atPath: Self.folder + "/" + name + ".png", contents: png)
  }
}

/// Fails the calling test with what to install when the QEMU rig cannot run.
func requireRig(_ tools: [String] = []) throws {
  let kernels = ((try? FileManager.default.contentsOfDirectory(atPath: "/boot")) ?? []).filter {
    $0.hasPrefix("vmlinuz-")
  }
  let missing = (["/usr/bin/qemu-system-x86_64", "/bin/busybox"] + tools).filter {
    !FileManager.default.isExecutableFile(atPath: $0)
  }
  guard !kernels.isEmpty, missing.isEmpty else {
    throw TestFailure(
      "the QEMU rig needs qemu-system-x86, linux-image-amd64, busybox-static, debootstrap, e2fsprogs "
        + "(make test installs them); missing: \(kernels.isEmpty ? ["/boot/vmlinuz-*"] + missing : missing)")
  }
}

/// The kiosk path on a real Linux kernel under QEMU (tools/qemu/rig.py):
/// bochs-drm's /dev/fb0, screens read back with QMP screendump.
extension DisplayTests {
  @Suite(.serialized) struct BootPathTests {
    /// A virtual screen of one page, and one the kernel was asked to make
    /// two pages tall: splashd paints the shown page either way. The splash
    /// is turned 90°, so the leaves part vertically on the physical screen.
    @Test(arguments: ["", "drm_kms_helper.drm_fbdev_overalloc=200"])
    func theFramebufferShowsTheSplashAndKeepsItsLastFrameForTheProgram(kernelParameters: String) throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let leaves = doorLeaves(in: dir)
      // In the guest, /run/rig is this directory; the host's / is the guest's /.
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          echo "kernel: $(cat /proc/cmdline) fb0: $(cat /sys/class/graphics/fb0/virtual_size)"
          \(splashdPath) --config /dev/null --display fbdev --rotate 90 \(leaves) --until-file /run/rig/go --timeout 120 --duration 4 \\
            --easing linear --control /run/splashd.control \\
            -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; exit 4' \\
            2>/run/rig/splashd.log &
          \(awaitFirstFrame())
          echo RIG-SCREENDUMP held
          while [ ! -e /run/rig/held.done ]; do sleep 0.1; done
          \(splashctlPath) --control /run/splashd.control snapshot /run/rig/held-snapshot.png
          touch /run/rig/go
          i=0; while ! grep -q will-disappear /run/rig/splashd.log && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
          sleep 1
          echo RIG-SCREENDUMP mid
          while [ ! -e /run/rig/mid.done ]; do sleep 0.1; done
          wait $pid
          """, size: "800x480", kernelParameters: kernelParameters)
      let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      // The program splashd handed off to (same PID) ended the run with its status.
      #expect((try? String(contentsOfFile: dir.path + "/status", encoding: .utf8)) == "4\n", "\(log)")
      #expect(log.contains("splashd: fbdev: /dev/fb0 800x480, 32 bpp SDL_PIXELFORMAT_RGB888"), "\(log)")
      #expect(console.contains(kernelParameters.isEmpty ? "fb0: 800,480" : "fb0: 800,960"), "\(console.suffix(600))")
      #expect(log.contains("splashd: handing off to /bin/sh"), "\(log)")
      let name = kernelParameters.isEmpty ? "fbdev" : "fbdev-two-pages"

      // The doors, closed and turned 90° clockwise: the left leaf on top,
      // the right one below, the seam along the middle row.
      let held = try #require(Screendump(path: dir.path + "/held.ppm"), "no screendump of the held splash: \(log)")
      held.keep(as: name + "-held")
      #expect(held.width == 800 && held.height == 480)
      expectClosedDoors(held, turned: true, log)
      expectSnapshot(in: dir, equals: held, log)
      // Mid-transition: down every column, red, then the background, then
      // green; the leaves have moved apart from the middle row.
      let mid = try #require(Screendump(path: dir.path + "/mid.ppm"), "no screendump mid-transition: \(log)")
      mid.keep(as: name + "-mid")
      expectOpeningDoors(mid, turned: true, log)
      // After the transition and the hand-off, the last frame stays: the background.
      let after = try #require(Screendump(path: dir.path + "/after.ppm"), "no screendump after the hand-off: \(log)")
      after.keep(as: name + "-after")
      expectFilled(after, with: 0x0000FF, log)
    }

    /// A framebuffer driver that pans (vfb, a framebuffer in memory, with
    /// a virtual screen two pages tall): each frame is painted on the hidden
    /// page and panned to; at the end the last frame is on the first page
    /// and the screen back there. Read back from the device's own memory.
    @Test func aFramebufferThatPansFlipsPagesAndEndsOnTheFirst() throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let leaves = doorLeaves(in: dir)
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          python3 \(packageRoot)/tools/qemu/guest/fb-pages.py double /dev/fb1
          \(splashdPath) --config /dev/null --display fbdev --device /dev/fb1 \(leaves) --until-file /run/rig/go --timeout 100 --duration 0.3 \\
            2>/run/rig/splashd.log &
          \(awaitFirstFrame())
          python3 \(packageRoot)/tools/qemu/guest/fb-pages.py dump /dev/fb1 /run/rig/held.ppm
          touch /run/rig/go
          wait $pid
          python3 \(packageRoot)/tools/qemu/guest/fb-pages.py dump /dev/fb1 /run/rig/after.ppm
          """, size: "800x480",
        kernelParameters: "vfb.vfb_enable=1 vfb.videomemorysize=4000000 vfb.mode_option=800x600-32")
      let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      #expect(
        log.contains("splashd: fbdev: /dev/fb1 800x600, 32 bpp SDL_PIXELFORMAT_ABGR8888, two pages flipped by panning"),
        "\(log)")
      #expect(!log.contains("cannot pan"), "\(log)")
      func row(_ name: String) -> String? {
        try? String(contentsOfFile: dir.path + "/\(name).ppm.row", encoding: .utf8)
      }
      // Held: the first frame was painted on the second page and panned to;
      // the first page is as it was (black).
      #expect(row("held") == "600\n", "\(log)")
      let held = try #require(Screendump(path: dir.path + "/held.ppm"), "\(log)")
      held.keep(as: "vfb-held")
      #expect(held.width == 800 && held.height == 1200)
      for y in [0, 300, 599] { #expect(held.at(0, y) == 0 && held.at(799, y) == 0, "page 0, row \(y)") }
      for y in [600, 900, 1199] {
        #expect(held.at(0, y) == 0xFF0000 && held.at(399, y) == 0xFF0000, "page 1, row \(y)")
        #expect(held.at(400, y) == 0x00FF00 && held.at(799, y) == 0x00FF00, "page 1, row \(y)")
      }
      // After: the screen is back on the first page, which holds the last
      // frame (the second page holds the one before, whichever that was).
      #expect(row("after") == "0\n", "\(log)")
      let after = try #require(Screendump(path: dir.path + "/after.ppm"), "\(log)")
      after.keep(as: "vfb-after")
      expectFilled(after, with: 0x0000FF, samples: 12, height: 600, log)
    }

    /// Guest shell lines for after splashd was started in the background
    /// with its log in /run/rig/splashd.log: keep its PID as $pid and wait
    /// until it logs its first frame, it ends, or `seconds` pass.
    func awaitFirstFrame(seconds: Int = 90) -> String {
      """
      pid=$!
      i=0; while ! grep -q appeared /run/rig/splashd.log 2>/dev/null && kill -0 $pid && [ $i -lt \(seconds * 10) ]; do
        sleep 0.1; i=$((i+1))
      done
      """
    }

    /// `splashctl snapshot` of the held splash, taken in the guest into
    /// held-snapshot.png, is pixel for pixel the QMP screendump `held`.
    func expectSnapshot(in dir: TemporaryDirectory, equals held: Screendump, _ log: String) {
      let ppm = dir.path + "/held-snapshot.ppm"
      _ = try? run(packageRoot + "/tools/png-to-ppm.py", [dir.path + "/held-snapshot.png", ppm], environment: [:])
      guard let snapshot = Screendump(path: ppm) else {
        Issue.record("no snapshot of the held splash: \(log)")
        return
      }
      #expect(snapshot.width == held.width && snapshot.height == held.height)
      var differing = 0
      for y in 0..<min(snapshot.height, held.height) {
        for x in 0..<min(snapshot.width, held.width) where snapshot.at(x, y) != held.at(x, y) { differing += 1 }
      }
      #expect(differing == 0, "\(differing) pixels of the snapshot differ from the screendump")
    }

    /// The red (left) and green (right) door leaves of the guest splashes,
    /// as splashd arguments.
    func doorLeaves(in dir: TemporaryDirectory) -> String {
      _ = dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0))
      _ = dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0))
      return "--left /run/rig/red.png --right /run/rig/green.png --background '#0000FF'"
    }

    /// Expects the closed doors on `screen`: the leaves side by side, or,
    /// turned 90° clockwise, the left leaf on top of the right.
    func expectClosedDoors(_ screen: Screendump, turned: Bool, _ note: String) {
      let (w, h) = (screen.width, screen.height)
      for across in turned ? [0, w - 1] : [0, h / 2, h - 1] {
        func at(_ along: Int) -> UInt32 { turned ? screen.at(across, along) : screen.at(along, across) }
        let half = (turned ? h : w) / 2
        let end = (turned ? h : w) - 1
        #expect(at(0) == 0xFF0000 && at(half - 1) == 0xFF0000, "\(turned ? "column" : "row") \(across); \(note)")
        #expect(at(half) == 0x00FF00 && at(end) == 0x00FF00, "\(turned ? "column" : "row") \(across); \(note)")
      }
    }

    /// Expects the doors opening on `screen`: along 8 lines across the
    /// leaves' motion (rows, or columns when turned 90°), red, then the
    /// background, then green, the leaves apart from the middle.
    func expectOpeningDoors(_ screen: Screendump, turned: Bool, _ note: String) {
      let (along, across) = turned ? (screen.height, screen.width) : (screen.width, screen.height)
      for line in stride(from: 0, to: across, by: across / 8) {
        let colors = (0..<along).map { turned ? screen.at(line, $0) : screen.at($0, line) }
        let redEnd = colors.firstIndex { $0 != 0xFF0000 } ?? along
        let blueEnd = colors[redEnd...].firstIndex { $0 != 0x0000FF } ?? along
        #expect(
          redEnd < along / 2 && blueEnd > along / 2 && colors[blueEnd...].allSatisfy { $0 == 0x00FF00 },
          "\(turned ? "column" : "row") \(line): \(redEnd), \(blueEnd); \(note)")
      }
    }

    /// Expects `screen` (its first `height` rows, all by default) to be
    /// `color` all over, sampled on a grid of `samples` × `samples` points.
    func expectFilled(
      _ screen: Screendump, with color: UInt32, samples: Int = 10, height: Int? = nil, _ note: String
    ) {
      let height = height ?? screen.height
      for y in stride(from: 0, to: height, by: height / samples) {
        for x in stride(from: 0, to: screen.width, by: screen.width / samples) {
          #expect(screen.at(x, y) == color, "(\(x), \(y)); \(note)")
        }
      }
    }

    /// A guest script for a device that turns a held splash: starts the
    /// fake `device` (tools/qemu/guest) and waits for it, runs `setup`, then
    /// splashd on the framebuffer with `arguments`, held until revealed;
    /// screendump `first` once it appeared, then touches /run/rig/`act`
    /// (the device changes), screendump `second` once splashd turned.
    func turningScript(
      device: String, ready: String, setup: String = "", arguments: String, first: String, act: String, second: String
    ) -> String {
      """
      #!/bin/sh
      python3 \(packageRoot)/tools/qemu/guest/\(device) /run/rig &
      i=0; while [ ! -e /run/rig/\(ready) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      \(setup)
      \(splashdPath) \(arguments) --display fbdev --until-file /run/rig/go --timeout 100 --duration 0.3 \\
        2>/run/rig/splashd.log &
      \(awaitFirstFrame())
      echo RIG-SCREENDUMP \(first)
      while [ ! -e /run/rig/\(first).done ]; do sleep 0.1; done
      touch /run/rig/\(act)
      i=0; while ! grep -q "turned to" /run/rig/splashd.log && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
      echo RIG-SCREENDUMP \(second)
      while [ ! -e /run/rig/\(second).done ]; do sleep 0.1; done
      touch /run/rig/go /run/rig/done
      wait $pid
      """
    }

    /// A fake accelerometer (uinput, INPUT_PROP_ACCELEROMETER) found by
    /// its property: the splash starts upright, and turns while it holds
    /// when the device reports being turned right-up.
    @Test func anAccelerometerTurnsTheHeldSplash() throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let leaves = doorLeaves(in: dir)
      let (outcome, console) = try runInRig(
        dir,
        script: turningScript(
          device: "fake-accelerometer.py", ready: "accel-ready",
          arguments: "--config /dev/null --rotate auto \(leaves)",
          first: "upright", act: "tilt", second: "turned"), size: "800x480")
      let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      #expect(log.contains("splashd: rotation 0 from evdev /dev/input/event"), "\(log)")
      #expect(log.contains(" \"rig accelerometer\" (normal)"), "\(log)")
      #expect(log.contains("splashd: turned to 90 degrees (the accelerometer)"), "\(log)")
      let upright = try #require(Screendump(path: dir.path + "/upright.ppm"), "\(log)")
      upright.keep(as: "accelerometer-upright")
      expectClosedDoors(upright, turned: false, log)
      let turned = try #require(Screendump(path: dir.path + "/turned.ppm"), "\(log)")
      turned.keep(as: "accelerometer-turned")
      expectClosedDoors(turned, turned: true, log)
    }

    /// A rotation switch (uinput, EV_SW) mapped by `switch-map`: tablet
    /// mode on turns the splash 90° from the first frame; docking it while
    /// the splash holds turns it back upright.
    @Test func aRotationSwitchTurnsTheSplash() throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let leaves = doorLeaves(in: dir)
      // The config names the switch's event device, found by its name.
      let setup = """
        for d in /sys/class/input/event*; do [ "$(cat $d/device/name)" = "rig switch" ] && device=/dev/input/${d##*/}; done
        printf '[splash]\\nrotate = auto\\n[orientation]\\nsources = switch cmdline\\nswitch = %s\\n' $device > /run/rig/splash.conf
        echo 'switch-map = SW_TABLET_MODE=90, SW_DOCK=0' >> /run/rig/splash.conf
        """
      let (outcome, console) = try runInRig(
        dir,
        script: turningScript(
          device: "fake-switch.py", ready: "switch-ready", setup: setup,
          arguments: "--config /run/rig/splash.conf \(leaves)", first: "tablet", act: "flip", second: "docked"),
        size: "800x480")
      let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      #expect(log.contains("splashd: rotation 90 from switch /dev/input/event"), "\(log)")
      #expect(log.contains("splashd: turned to 0 degrees (the rotation switch)"), "\(log)")
      let tablet = try #require(Screendump(path: dir.path + "/tablet.ppm"), "\(log)")
      tablet.keep(as: "switch-tablet")
      expectClosedDoors(tablet, turned: true, log)
      let docked = try #require(Screendump(path: dir.path + "/docked.ppm"), "\(log)")
      docked.keep(as: "switch-docked")
      expectClosedDoors(docked, turned: false, log)
    }

    /// Runs `script` (written to the rig's work directory, which is `dir`
    /// and the guest's /run/rig) under the QEMU rig; returns the rig's
    /// outcome and the guest's serial console.
    func runInRig(
      _ dir: TemporaryDirectory, script: String, size: String, kernelParameters: String = "", gpu: String = "vga"
    ) throws -> (Outcome, String) {
      chmod(dir.file("run.sh", script), 0o755)
      let outcome = try run(
        "/usr/bin/env",
        [
          "python3", packageRoot + "/tools/qemu/rig.py", "--work", dir.path, "--size", size, "--timeout", "240",
          "--append", kernelParameters, "--gpu", gpu, "--", "/run/rig/run.sh",
        ],
        environment: ProcessInfo.processInfo.environment, timeout: 300)
      return (outcome, (try? String(contentsOfFile: dir.path + "/console.log", encoding: .utf8)) ?? "")
    }

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
      // The spawned program: READY=1 to splashd (an abstract socket name starts with @), then, once the
      // transition is done, a screendump and what its parent holds open.
      _ = dir.file(
        "spawned.sh",
        """
        python3 -c 'import os, socket
        name = os.environ["NOTIFY_SOCKET"]
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.connect("\\0" + name[1:] if name.startswith("@") else name)
        s.send(b"READY=1")'
        i=0; while ! grep -q did-disappear /run/rig/spawn.log && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        echo RIG-SCREENDUMP spawned
        while [ ! -e /run/rig/spawned.done ]; do sleep 0.1; done
        ls -l /proc/$PPID/fd > /run/rig/spawn-fds
        exit 5

        """)
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          \(splashdPath) --config /dev/null --display kms --device /dev/dri/card0 \(leaves) --until-file /run/rig/go \\
            --timeout 200 --duration 3 --easing linear --control /run/splashd.control \\
            -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; \\
              ls -l /proc/$$/fd > /run/rig/program-fds; exit 4' \\
            2>/run/rig/splashd.log &
          \(awaitFirstFrame(seconds: 120))
          grep -E '[.]so' /proc/$pid/maps | awk '{print $6}' | sort -u > /run/rig/libraries
          echo RIG-SCREENDUMP held
          while [ ! -e /run/rig/held.done ]; do sleep 0.1; done
          \(splashctlPath) --control /run/splashd.control snapshot /run/rig/held-snapshot.png
          touch /run/rig/go
          i=0; while ! grep -q will-disappear /run/rig/splashd.log && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
          sleep 1
          echo RIG-SCREENDUMP mid
          while [ ! -e /run/rig/mid.done ]; do sleep 0.1; done
          wait $pid
          echo "exit $?" > /run/rig/exec-status
          # Spawn mode: the program starts first and reveals the splash with READY=1; splashd, its
          # parent, keeps the card open after the transition, so the last frame stays.
          \(splashdPath) --config /dev/null --display kms --device /dev/dri/card0 \(leaves) --duration 0.3 \\
            --ready notify -- /bin/sh /run/rig/spawned.sh 2>/run/rig/spawn.log
          """, size: "\(width)x\(height)", gpu: gpu)
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
      _ = dir.file("screens.conf", "[screen Virtual-2]\nrotate = 90\n")
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          \(splashdPath) --config /run/rig/screens.conf \(leaves) --until-file /run/rig/go --timeout 100 \\
            --duration 0.3 --control /run/splashd.control 2>/run/rig/splashd.log &
          \(awaitFirstFrame(seconds: 120))
          \(splashctlPath) --control /run/splashd.control status > /run/rig/splash-status 2>&1
          echo RIG-SCREENDUMP first video0
          while [ ! -e /run/rig/first.done ]; do sleep 0.1; done
          echo RIG-SCREENDUMP second video1
          while [ ! -e /run/rig/second.done ]; do sleep 0.1; done
          touch /run/rig/go
          wait $pid
          rm /run/rig/go
          gpu=$(basename $(ls -d /sys/class/drm/card1/device/virtio*))
          \(splashdPath) --config /dev/null \(leaves) --until-file /run/rig/go --timeout 100 \\
            --duration 0.3 --control /run/splashd.control 2>/run/rig/hotplug.log &
          pid=$!
          i=0; while ! grep -q appeared /run/rig/hotplug.log && kill -0 $pid && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
          echo $gpu > /sys/bus/virtio/drivers/virtio_gpu/unbind
          i=0; while ! grep -q "removed: the screens are now" /run/rig/hotplug.log && [ $i -lt 300 ]; do
            sleep 0.1; i=$((i+1))
          done
          \(splashctlPath) --control /run/splashd.control status > /run/rig/unplugged-status 2>&1
          echo RIG-SCREENDUMP unplugged video1
          while [ ! -e /run/rig/unplugged.done ]; do sleep 0.1; done
          echo $gpu > /sys/bus/virtio/drivers/virtio_gpu/bind
          i=0; while [ "$(grep -c "the screens are now" /run/rig/hotplug.log)" -lt 2 ] && [ $i -lt 300 ]; do
            sleep 0.1; i=$((i+1))
          done
          \(splashctlPath) --control /run/splashd.control status > /run/rig/plugged-status 2>&1
          echo RIG-SCREENDUMP plugged video1
          while [ ! -e /run/rig/plugged.done ]; do sleep 0.1; done
          touch /run/rig/go
          wait $pid
          """, size: "800x600", gpu: "vga+virtio")
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
          packageRoot + "/tools/qemu/kiosk-colour.c", "-ldrm",
        ])
      try #require(compile.status == 0, "\(compile.stderr)")
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          cat /proc/fb > /run/rig/fb-before
          \(splashdPath) --config /dev/null \(moves ? "" : "--display fbdev") \(leaves) --until-file /run/rig/go \\
            --timeout 150 --duration 3 --easing linear --control /run/splashd.control 2>/run/rig/splashd.log &
          \(awaitFirstFrame(seconds: 90))
          modprobe virtio-gpu
          i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
          i=0; while ! grep -q "display: moved" /run/rig/splashd.log && [ $i -lt \(moves ? 300 : 30) ]; do
            sleep 0.1; i=$((i+1))
          done
          cat /proc/fb > /run/rig/fb-after
          \(splashctlPath) --control /run/splashd.control status > /run/rig/splash-status 2>&1
          ls -l /proc/$pid/fd > /run/rig/fds
          /run/rig/kiosk-colour 000000 /run/rig/kiosk.drawn > /run/rig/kiosk.log 2>&1 &
          kiosk=$!
          i=0; while [ ! -e /run/rig/kiosk.drawn ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
          echo RIG-SCREENDUMP compositor
          while [ ! -e /run/rig/compositor.done ]; do sleep 0.1; done
          kill $kiosk
          touch /run/rig/go
          i=0; while ! grep -q will-disappear /run/rig/splashd.log && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
          sleep 1
          echo RIG-SCREENDUMP mid
          while [ ! -e /run/rig/mid.done ]; do sleep 0.1; done
          wait $pid
          """, size: "1024x768", gpu: "firmware")
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

    /// The figures of the display back ends, in one boot, interleaved: from
    /// exec (the process's start time) to the first frame on the screen
    /// (its `appeared` time, once the frame is shown), the peak RSS and the
    /// shared libraries mapped while the splash holds; medians of 5 for kms
    /// and fbdev, 3 for kmsdrm (SDL loads Mesa over the rig's 9p root, tens
    /// of seconds each under TCG). Printed, not asserted, beyond each run
    /// having shown its splash.
    @Test func theBackEndsFiguresInOneBoot() throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let leaves = doorLeaves(in: dir)
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          ticks=$(getconf CLK_TCK)
          measure() {
            rm -f /run/rig/go
            \(splashdPath) --config /dev/null --display $1 \(leaves) --until-file /run/rig/go --timeout 200 \\
              --duration 0 2>/run/rig/one.log &
            pid=$!
            i=0; while ! grep -q appeared /run/rig/one.log && kill -0 $pid && [ $i -lt 1800 ]; do sleep 0.1; i=$((i+1)); done
            start=$(cut -d' ' -f22 /proc/$pid/stat)
            peak=$(grep VmHWM /proc/$pid/status | tr -s ' ' | cut -d' ' -f2)
            libraries=$(grep -E '[.]so' /proc/$pid/maps | awk '{print $6}' | sort -u | wc -l)
            shown=$(sed -n 's/.*first frame shown at monotonic \\([0-9.]*\\) s.*/\\1/p' /run/rig/one.log)
            echo "$1 $start $ticks $shown $peak $libraries" >> /run/rig/figures
            touch /run/rig/go
            wait $pid
          }
          for round in 1 2 3 4 5; do
            measure kms; measure fbdev
            [ $round -le 3 ] && measure kmsdrm
          done
          """, size: "800x480")
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      let rows = ((try? String(contentsOfFile: dir.path + "/figures", encoding: .utf8)) ?? "").split(separator: "\n")
        .map { $0.split(separator: " ").map(String.init) }
      func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
      for backEnd in ["kms", "fbdev", "kmsdrm"] {
        let runs = rows.filter { $0.count == 6 && $0[0] == backEnd }
        let firstFrames = runs.compactMap { row -> Double? in
          guard let start = Double(row[1]), let ticks = Double(row[2]), let shown = Double(row[3]) else { return nil }
          return (shown - start / ticks) * 1000
        }
        #expect(firstFrames.count == (backEnd == "kmsdrm" ? 3 : 5), "\(backEnd): \(runs)")
        guard !firstFrames.isEmpty else { continue }
        print(
          "boot_\(backEnd)_exec_to_first_frame_ms: \(Int(median(firstFrames).rounded())) (median of \(firstFrames.count))"
        )
        print("boot_\(backEnd)_peak_rss_mib: \(formatted(median(runs.compactMap { Double($0[4]) }) / 1024))")
        print("boot_\(backEnd)_mapped_libraries: \(Int(median(runs.compactMap { Double($0[5]) })))")
      }
    }

    /// splashd against psplash, Yocto's splash (built from its source with
    /// the same picture: tools/qemu/build-psplash.sh), in one boot, with the
    /// programs, their libraries and the picture in a tmpfs: from exec to
    /// the first pixel and to the complete picture on the buffer the CRTC
    /// scans out (tools/qemu/scanout-watch.c, sampled every millisecond), on
    /// fbdev and on KMS (psplash `--drm`, splashd's native `kms`), splashd
    /// cold (no cache) and warm (its cache filled by `--prepare`);
    /// interleaved, medians of 5, printed with their ratios and peak RSS.
    /// The release binary is measured when it is built (make test builds it
    /// first). Asserted: every run showed its picture, and the warm ones
    /// drew from the cache. psplash's source is not part of this project:
    /// where it is not on the machine (`SPLASHD_PSPLASH_SOURCE`, or the
    /// team's ../shared/tools/peers) splashd's figures are printed alone and
    /// the comparison says it was not made.
    @Test func splashdAgainstPsplashInOneBoot() throws {
      try requireRig()
      let dir = try TemporaryDirectory()
      let binary = installedBuildDirectory + "/splashd"
      // A photograph-like 1280x800 picture, deflated by splashd's own PNG
      // writer (the first frame of a recording, before the doors open).
      let raw = dir.file(
        "raw.png",
        makePNG(width: 1280, height: 800) { x, y in
          let noise = (x &* 7919 &+ y &* 104_729) % 17
          return (UInt8((x * 255 / 1280 + noise) % 256), UInt8((y * 255 / 800 + noise) % 256), UInt8(64 + noise * 3))
        })
      let recorded = try run(
        binary,
        [
          "--config", dir.testConfig, "--record", dir.path + "/rec", "--size", "1280x800", "--image", raw,
          "--hold", "1", "--duration", "0", "--fps", "1", "--cache", "none",
        ])
      #expect(recorded.status == 0, "\(recorded.stderr)")
      try FileManager.default.moveItem(atPath: dir.path + "/rec/frame-00000.png", toPath: dir.path + "/photo.png")
      let watcher = try run(
        "/usr/bin/gcc",
        [
          "-O2", "-Wall", "-I/usr/include/libdrm", "-o", dir.path + "/scanout-watch",
          packageRoot + "/tools/qemu/scanout-watch.c", "-ldrm",
        ])
      #expect(watcher.status == 0, "\(watcher.stderr)")
      let sources = [
        ProcessInfo.processInfo.environment["SPLASHD_PSPLASH_SOURCE"],
        packageRoot + "/../shared/tools/peers/psplash-266b480.tar.gz",
      ].compactMap { $0 }
      var peer = false
      if let source = sources.first(where: { FileManager.default.fileExists(atPath: $0) }) {
        let built = try run(
          packageRoot + "/tools/qemu/build-psplash.sh", [source, dir.path + "/photo.png", dir.path + "/peer"],
          timeout: 600)
        #expect(built.status == 0, "\(built.stderr)")
        peer = built.status == 0
      } else {
        print("psplash_comparison: not made: psplash's source is not on this machine (looked for \(sources))")
      }
      let psplash = peer ? dir.path + "/peer/psplash" : ""
      let splashd = "$T/splashd --config /dev/null --image $T/photo.png"
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          T=/run/t
          mkdir -p $T/lib $T/cache
          cp /run/rig/scanout-watch /run/rig/photo.png \(psplash) $T/
          cp \(binary) $T/splashd
          for b in $T/scanout-watch $T/splashd \(peer ? "$T/psplash" : ""); do
            ldd $b | awk '/=>/ {print $3}' | while read l; do cp -n "$l" $T/lib/ 2>/dev/null; done
          done
          export LD_LIBRARY_PATH=$T/lib PSPLASH_FIFO_DIR=/run
          for display in fbdev kms; do
            \(splashd) --display $display --prepare --cache $T/cache >> /run/rig/prepared 2>> /run/rig/prepare.log
          done
          watch() { label=$1; shift; $T/scanout-watch $label 500 8000 -- "$@" >> /run/rig/sw.log 2>> /run/rig/$label.log; }
          for round in 1 2 3 4 5; do
            \(peer ? "watch psplash-fbdev $T/psplash -n" : "")
            watch splashd-fbdev-cold \(splashd) --display fbdev --hold 20 --duration 0 --cache none
            watch splashd-fbdev-warm \(splashd) --display fbdev --hold 20 --duration 0 --cache $T/cache
            \(peer ? "watch psplash-kms $T/psplash -n --drm" : "")
            watch splashd-kms-cold \(splashd) --display kms --hold 20 --duration 0 --cache none
            watch splashd-kms-warm \(splashd) --display kms --hold 20 --duration 0 --cache $T/cache
          done
          """, size: "1280x800")
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      func read(_ name: String) -> String {
        (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
      }
      // One cache file for each display, made without drawing.
      #expect(
        read("prepared").split(separator: "\n").filter { $0.hasPrefix("prepared: /run/t/cache/") }.count == 2,
        "\(read("prepared")) \(read("prepare.log"))")
      var runs: [String: [[String: Double]]] = [:]
      for line in read("sw.log").split(separator: "\n") where line.hasPrefix("SW label=") {
        var fields: [String: Double] = [:]
        var label = ""
        for pair in line.split(separator: " ").dropFirst() {
          let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
          guard parts.count == 2 else { continue }
          if parts[0] == "label" { label = parts[1] } else { fields[parts[0]] = Double(parts[1]) }
        }
        runs[label, default: []].append(fields)
      }
      func median(_ label: String, _ field: String) -> Double? {
        let values = (runs[label] ?? []).compactMap { $0[field] }.filter { $0 >= 0 }.sorted()
        return values.isEmpty ? nil : values[values.count / 2]
      }
      let labels =
        (peer ? ["psplash-fbdev", "psplash-kms"] : []) + [
          "splashd-fbdev-cold", "splashd-fbdev-warm", "splashd-kms-cold", "splashd-kms-warm",
        ]
      for label in labels {
        // Every run showed a picture on the scan-out: its first pixel was seen.
        let shown = (runs[label] ?? []).filter { ($0["scan_first_ms"] ?? -1) > 0 }
        #expect(shown.count == 5, "\(label): \(runs[label] ?? []) \(read(label + ".log").suffix(1500))")
      }
      for display in ["fbdev", "kms"] {
        let warm = read("splashd-\(display)-warm.log")
        #expect(
          warm.components(separatedBy: "cache: prepared pictures from /run/t/cache/").count - 1 == 5,
          "\(warm.suffix(2000))")
        #expect(!read("splashd-\(display)-cold.log").contains("cache: prepared"))
      }
      print(
        "psplash_comparison: \(installedBuildDirectory.hasSuffix("/release") ? "release" : "debug") splashd, 1280x800 photo, tmpfs, TCG"
      )
      for display in ["fbdev", "kms"] {
        let peerComplete = median("psplash-\(display)", "last_ms")
        if let first = median("psplash-\(display)", "scan_first_ms"), let complete = peerComplete {
          print("boot_psplash_\(display)_first_pixel_ms: \(Int(first.rounded()))")
          print("boot_psplash_\(display)_complete_ms: \(Int(complete.rounded()))")
        }
        for cache in ["cold", "warm"] {
          let label = "splashd-\(display)-\(cache)"
          guard let first = median(label, "scan_first_ms"), let complete = median(label, "last_ms") else { continue }
          let name = "boot_splashd_\(display)_\(cache)"
          print("\(name)_first_pixel_ms: \(Int(first.rounded()))")
          print("\(name)_complete_ms: \(Int(complete.rounded()))")
          if let peerComplete {
            print("\(name)_vs_psplash_complete: \(formatted(complete / peerComplete))")
          }
          if let peak = median(label, "vmhwm_kb") { print("\(name)_peak_rss_mib: \(formatted(peak / 1024))") }
          // splashd's own part: from its first instruction to the frame presented (its `appeared` line).
          let own = read(label + ".log").split(separator: "\n").compactMap { line -> Double? in
            guard let range = line.range(of: " ms after start") else { return nil }
            return Double(line[..<range.lowerBound].split(separator: " ").last ?? "")
          }.sorted()
          if !own.isEmpty { print("\(name)_main_to_frame_ms: \(Int(own[own.count / 2].rounded()))") }
        }
      }
      // The target for fbdev: 12 MiB and the prepared picture (4 bytes a pixel).
      print("boot_splashd_peak_rss_target_mib: \(formatted(12 + Double(1280 * 800 * 4) / 1_048_576))")
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
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          \(splashdPath) --config /dev/null --display kmsdrm --device /dev/dri/card0 \(leaves) --transition crossfade --until-file /run/rig/go \\
            --timeout 200 --duration 0.3 --control /run/splashd.control \\
            -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; exit 4' \\
            2>/run/rig/splashd.log &
          \(awaitFirstFrame(seconds: 180))
          echo RIG-SCREENDUMP held
          while [ ! -e /run/rig/held.done ]; do sleep 0.1; done
          \(splashctlPath) --control /run/splashd.control snapshot /run/rig/held-snapshot.png
          touch /run/rig/go
          wait $pid
          """, size: "\(width)x\(height)", gpu: gpu)
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
      let (outcome, console) = try runInRig(
        dir,
        script: """
          #!/bin/sh
          \(splashdPath) --config /dev/null --duration 0 2>/run/rig/first.log
          \(splashdPath) --config /dev/null --duration 0 --display kms --mode 1234x567 2>/run/rig/mode.log
          echo "exit $?" >> /run/rig/mode.log
          \(splashdPath) --config /dev/null --duration 0 --display kmsdrm --mode 1234x567 2>/run/rig/sdl-mode.log
          echo "exit $?" >> /run/rig/sdl-mode.log
          printf '[orientation]\\nsources = panel\\n' > /run/rig/panel.conf
          \(splashdPath) --config /run/rig/panel.conf --rotate auto --check 2>/run/rig/panel.log >/dev/null
          # A splash that holds the card: the next one cannot be DRM master.
          \(splashdPath) --config /dev/null --display kms --until-file /run/rig/go --timeout 100 2>/run/rig/holder.log &
          pid=$!
          i=0; while ! grep -q appeared /run/rig/holder.log && kill -0 $pid && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
          \(splashdPath) --config /dev/null --duration 0 2>/run/rig/busy.log
          touch /run/rig/go; wait $pid
          # The connector unplugged (forced off): the card has nothing to light.
          echo off > /sys/class/drm/card0-Virtual-1/status
          \(splashdPath) --config /dev/null --duration 0 --device /dev/dri/card0 2>/run/rig/unplugged.log
          \(splashdPath) --config /dev/null --duration 0 --display kms 2>/run/rig/no-card.log
          echo "exit $?" >> /run/rig/no-card.log
          echo detect > /sys/class/drm/card0-Virtual-1/status
          rm /dev/dri/card0
          \(splashdPath) --config /dev/null --duration 0 2>/run/rig/second.log
          """, size: "800x480")
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

    /// A whole boot: Debian with systemd, splashd's package installed by
    /// `dpkg -i` (after its removal and purge were tried in the image), and
    /// a kiosk program that fills the screen with its own colour, in both
    /// shipped patterns: splashd.service (enabled by the package) revealed
    /// by kiosk-revealed-by-splashctl.service, and kiosk-with-splash.service,
    /// where splashd becomes the kiosk program (same PID).
    @Test(arguments: [false, true])
    func aSystemdBootShowsTheSplashThenTheKioskProgramGetsTheScreen(oneUnit: Bool) throws {
      try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4", "/usr/bin/gcc"])
      let dir = try TemporaryDirectory()
      let tree = dir.path + "/tree"
      let fileManager = FileManager.default
      for folder in [
        "etc/splashd", "usr/bin", "usr/share/splashd", "usr/local/bin", "etc/systemd/system/sysinit.target.wants",
        "etc/systemd/system/multi-user.target.wants",
      ] {
        try fileManager.createDirectory(atPath: tree + "/" + folder, withIntermediateDirectories: true)
      }
      func put(_ path: String, _ text: String, mode: Int = 0o644) {
        writeFile(atPath: tree + path, contents: Data(text.utf8))
        chmod(tree + path, mode_t(mode))
      }
      writeFile(
        atPath: tree + "/usr/share/splashd/left.png", contents: makePNG(width: 160, height: 240) { _, _ in (255, 0, 0) }
      )
      writeFile(
        atPath: tree + "/usr/share/splashd/right.png",
        contents: makePNG(width: 160, height: 240) { _, _ in (0, 255, 0) })
      // Written first, so the package's install keeps it (as dpkg keeps any config an admin wrote).
      put(
        "/etc/splashd/splashd.conf",
        """
        [splash]
        left = /usr/share/splashd/left.png
        right = /usr/share/splashd/right.png
        background = #0000FF
        duration = 0.3
        [handoff]
        until-reveal = yes
        timeout = 120
        compat = psplash plymouth
        [progress]
        source = \(oneUnit ? "client" : "systemd")
        rect = 0, 0.9, 1, 0.04
        color = #FFFFFF
        track = #000000

        """)
      // The package, installed in the image by dpkg -i (debian-root.py --deb); its files unpacked here
      // for the example units and the libraries the binaries need.
      let packaged = try run(packageRoot + "/tools/make-deb.sh", [installedBuildDirectory, dir.path], timeout: 300)
      try #require(packaged.status == 0, "\(packaged.stderr)")
      let deb = packaged.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      let unpacked = dir.path + "/unpacked"
      #expect(try run("/usr/bin/dpkg-deb", ["-x", deb, unpacked]).status == 0)
      let compile = try run(
        "/usr/bin/gcc",
        [
          "-O2", "-Wall", "-I/usr/include/libdrm", "-o", tree + "/usr/local/bin/kiosk-colour",
          packageRoot + "/tools/qemu/kiosk-colour.c", "-ldrm",
        ])
      #expect(compile.status == 0, "\(compile.stderr)")
      // The program the shipped kiosk unit starts.
      put(
        "/usr/bin/kiosk-app",
        """
        #!/bin/sh
        echo "$(id -un) ${XDG_SESSION_TYPE:-no-session}" > /dev/shm/kiosk-app.who
        exec /usr/local/bin/kiosk-colour 2080c0 /dev/shm/kiosk-app.drawn

        """, mode: 0o755)
      // The unit splashd runs in; with one unit, nothing else reveals the
      // splash: the test's first unit does, after its screendump.
      let splashUnit = oneUnit ? "kiosk-with-splash.service" : "splashd.service"
      let kioskUnit = oneUnit ? "kiosk-with-splash.service" : "kiosk-revealed-by-splashctl.service"
      // Two units of the test's own: a screendump while the splash holds (before
      // it is revealed), then one of the kiosk program's screen.
      put(
        "/etc/systemd/system/rig-held.service",
        """
        [Unit]
        Description=QEMU rig: screendump of the held splash
        After=\(splashUnit)
        Before=kiosk-revealed-by-splashctl.service
        [Service]
        Type=oneshot
        ExecStart=/bin/sh -c 'splashctl status > /run/rig/held-status; echo RIG-SCREENDUMP held > /dev/ttyS0; \\
          while [ ! -e /run/rig/held.done ]; do sleep 0.1; done\(oneUnit ? "; splashctl reveal" : "")'

        """)
      // A boot script's calls: with splashd.service, a message through
      // psplash's FIFO, written as psplash-write writes it (non-blocking, the
      // text and its NUL); with the one unit, Debian's own plymouth client
      // (unpacked by tools/plymouth-client.sh, copied in as /usr/bin/plymouth).
      let clientRoot = packageRoot + "/.build/plymouth-client"
      let fetched = try run(
        packageRoot + "/tools/plymouth-client.sh", [clientRoot], environment: ProcessInfo.processInfo.environment,
        timeout: 300)
      try #require(fetched.status == 0, "tools/plymouth-client.sh: \(fetched.stderr)")
      try fileManager.createDirectory(atPath: tree + "/usr/lib/x86_64-linux-gnu", withIntermediateDirectories: true)
      for file in ["usr/bin/plymouth", "usr/lib/x86_64-linux-gnu/libply.so.5"] {
        // libply.so.5 is a link to the versioned file: the file itself goes in under its name.
        let source = URL(fileURLWithPath: clientRoot + "/" + file).resolvingSymlinksInPath().path
        try fileManager.copyItem(atPath: source, toPath: tree + "/" + file)
      }
      let bootScript =
        oneUnit
        ? "plymouth display-message --text=\"From plymouth\" && plymouth system-update --progress=40"
        : "printf \"MSG From psplash-write\\\\000\" | dd of=/run/psplash_fifo oflag=nonblock status=none"
      put(
        "/etc/systemd/system/rig-boot-script.service",
        """
        [Unit]
        Description=QEMU rig: a boot script's message and progress for the splash
        After=\(splashUnit)
        Before=rig-held.service
        [Service]
        Type=oneshot
        ExecStart=/bin/sh -c '\(bootScript)'

        """)
      // With splashd.service, a screendump early in the boot too: the bar
      // that follows systemd's jobs has further to go then.
      put(
        "/etc/systemd/system/rig-early.service",
        """
        [Unit]
        Description=QEMU rig: screendump of the splash early in the boot
        DefaultDependencies=no
        After=splashd.service
        Before=sysinit.target
        [Service]
        Type=oneshot
        ExecStart=/bin/sh -c 'echo RIG-SCREENDUMP early > /dev/ttyS0; while [ ! -e /run/rig/early.done ]; do sleep 0.1; done'

        """)
      put(
        "/etc/systemd/system/rig-final.service",
        """
        [Unit]
        Description=QEMU rig: screendump of the kiosk program's screen, the journal, power off
        After=rig-held.service \(kioskUnit)
        [Service]
        Type=oneshot
        ExecStart=/bin/sh -c '\\
          i=0; while [ ! -e /dev/shm/kiosk-app.drawn ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; \\
          echo RIG-SCREENDUMP final > /dev/ttyS0; \\
          while [ ! -e /run/rig/final.done ]; do sleep 0.1; done; \\
          journalctl -b -o short-monotonic > /run/rig/journal.txt; \\
          journalctl -b -u \(splashUnit) -o cat > /run/rig/splashd-journal.txt; \\
          journalctl -b -u \(kioskUnit) -o json --output-fields=_PID,MESSAGE > /run/rig/kiosk-journal.json; \\
          systemctl is-active \(kioskUnit) > /run/rig/kiosk-state; \
          cp /dev/shm/kiosk-app.who /run/rig/kiosk-who; \\
          echo RIG-STATUS 0 > /dev/ttyS0; systemctl poweroff --force --force'

        """)
      // The kiosk units are examples: installed as documentation, put in
      // place by the admin (here, as they ship).
      for example in ["kiosk-with-splash.service", "kiosk-revealed-by-splashctl.service"] {
        try fileManager.copyItem(
          atPath: "\(unpacked)/usr/share/doc/splashd/examples/\(example)",
          toPath: "\(tree)/etc/systemd/system/\(example)")
      }
      #expect(!fileManager.fileExists(atPath: "\(unpacked)/usr/lib/systemd/system/kiosk-with-splash.service"))
      let enabled =
        oneUnit
        ? [("multi-user.target.wants", "/etc/systemd/system/kiosk-with-splash.service")]
        : [
          // splashd.service: enabled by the package's postinst.
          ("sysinit.target.wants", "/etc/systemd/system/rig-early.service"),
          ("multi-user.target.wants", "/etc/systemd/system/kiosk-revealed-by-splashctl.service"),
        ]
      for (target, unit) in enabled + [
        ("multi-user.target.wants", "/etc/systemd/system/rig-held.service"),
        ("multi-user.target.wants", "/etc/systemd/system/rig-boot-script.service"),
        ("multi-user.target.wants", "/etc/systemd/system/rig-final.service"),
      ] {
        try fileManager.createSymbolicLink(
          atPath: "\(tree)/etc/systemd/system/\(target)/\(URL(fileURLWithPath: unit).lastPathComponent)",
          withDestinationPath: unit)
      }
      let image = dir.path + "/root.img"
      let report = dir.path + "/deb-report.json"
      // With one unit, splashd runs as the kiosk unit: the package's splashd.service is disabled.
      let made = try run(
        "/usr/bin/env",
        [
          "python3", packageRoot + "/tools/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
          "--overlay", tree, "--out", image, "--libraries-of", unpacked + "/usr/bin/splashd", "--libraries-of",
          unpacked + "/usr/bin/splashctl", "--deb", deb, "--deb-report", report,
          "--run", "useradd --create-home kiosk",
        ] + (oneUnit ? ["--run", "systemctl disable splashd.service"] : []), timeout: 900)
      try #require(made.status == 0, "\(made.stdout) \(made.stderr)")
      // Before it went in for good, the package was removed and purged in the image: removal leaves the
      // config file alone and its units masked, the purge nothing at all.
      struct DebReport: Decodable {
        var files: [String]
        var afterRemove: [String]
        var enabledAfterRemove: [String: String]
        var afterPurge: [String]
        var unitLinksAfterPurge: [String]
      }
      let removal = try JSONDecoder().decode(DebReport.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
      #expect(removal.files.contains("/usr/bin/splashd") && removal.files.contains("/etc/splashd/splashd.conf"))
      #expect(removal.afterRemove == ["/etc/splashd/splashd.conf"], "\(removal.afterRemove)")
      // The units the postinst enabled are masked; none is enabled (splashd-initrd.service never was).
      #expect(
        removal.enabledAfterRemove["splashd.service"] == "masked"
          && removal.enabledAfterRemove["splashd-shutdown.service"] == "masked"
          && !removal.enabledAfterRemove.values.contains("enabled"), "\(removal.enabledAfterRemove)")
      #expect(removal.afterPurge == [] && removal.unitLinksAfterPurge == [], "\(removal)")

      let work = dir.path + "/work"
      let booted = try run(
        "/usr/bin/env",
        ["python3", packageRoot + "/tools/qemu/rig.py", "--work", work, "--root", image, "--size", "800x480"],
        environment: ProcessInfo.processInfo.environment, timeout: 300)
      let console = (try? String(contentsOfFile: work + "/console.log", encoding: .utf8)) ?? ""
      let journal = (try? String(contentsOfFile: work + "/splashd-journal.txt", encoding: .utf8)) ?? ""
      try #require(booted.status == 0, "\(booted.stdout) \(console.suffix(3000))")

      // The splash came up from the real unit and held for the gate.
      let status = (try? String(contentsOfFile: work + "/held-status", encoding: .utf8)) ?? ""
      // auto: the native KMS output, first of the back ends that apply.
      #expect(status.hasPrefix("phase=waiting rotation=0 display=kms"), "\(status)")
      let held = try #require(Screendump(path: work + "/held.ppm"), "\(journal)")
      held.keep(as: oneUnit ? "systemd-one-unit-held" : "systemd-held")
      for y in [0, 240, 479] {
        #expect(held.at(0, y) == 0xFF0000 && held.at(399, y) == 0xFF0000, "row \(y); \(journal)")
        #expect(held.at(400, y) == 0x00FF00 && held.at(799, y) == 0x00FF00, "row \(y)")
      }
      // The message psplash-write or plymouth sent: anti-aliased white text around row 394 (0.82 of
      // 480), so pixels there that are neither leaf's colour, some of them white.
      let text = (380..<410).flatMap { y in (0..<800).map { held.at($0, y) } }.filter {
        $0 != 0xFF0000 && $0 != 0x00FF00
      }
      #expect(
        text.count > 100 && text.contains(0xFFFFFF), "\(text.count) text pixels where the message goes; \(journal)")
      // The progress bar along rows 432 to 451: white as far as it is filled, black after.
      func filled(_ dump: Screendump) -> Int { (0..<800).filter { dump.at($0, 440) == 0xFFFFFF }.count }
      let heldFill = filled(held)
      #expect((0..<800).allSatisfy { [0xFFFFFF, 0x000000].contains(held.at($0, 440)) }, "\(journal)")
      if oneUnit {
        // plymouth system-update --progress=40: 320 of 800 columns.
        #expect(heldFill == 320, "\(heldFill) columns; \(journal)")
      } else {
        // source = systemd: the bar grew with the jobs between the two screendumps.
        let early = try #require(Screendump(path: work + "/early.ppm"), "\(journal)")
        early.keep(as: "systemd-early")
        #expect(filled(early) < heldFill, "early \(filled(early)), held \(heldFill) columns; \(journal)")
        #expect(heldFill > 400, "\(heldFill) columns; \(journal)")
        #expect(!journal.contains("progress: source systemd:"), "\(journal)")
      }
      // The kiosk program, started once the splash was gone, owns the screen.
      let final = try #require(Screendump(path: work + "/final.ppm"), "\(journal)")
      final.keep(as: oneUnit ? "systemd-one-unit-kiosk" : "systemd-kiosk")
      expectFilled(final, with: 0x2080C0, journal)
      #expect((try? String(contentsOfFile: work + "/kiosk-state", encoding: .utf8)) == "active\n")
      // The two-unit example runs the program as its user in a logind session on its VT (PAMName=login);
      // with one unit, splashd becomes the program, as root.
      let who = (try? String(contentsOfFile: work + "/kiosk-who", encoding: .utf8)) ?? ""
      #expect(who == (oneUnit ? "root no-session\n" : "kiosk tty\n"), "\(who)")

      // The journal has each lifecycle event once, in order, at its priority
      // (splashd's <6> prefixes were read by journald, not printed), and
      // systemd saw the unit start (READY=1) only after the first frame.
      let lines = journal.split(separator: "\n").map(String.init)
      func index(_ prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix(prefix) } }
      let appeared = index("splashd: appeared: first frame shown")
      let started = index("Started \(splashUnit)")
      let willDisappear = index("splashd: will-disappear: transition doors starts")
      let didDisappear = index("splashd: did-disappear: transition done")
      #expect(appeared != nil && started != nil && willDisappear != nil && didDisappear != nil, "\(journal)")
      if let appeared, let started, let willDisappear, let didDisappear {
        #expect(appeared < started && started < willDisappear && willDisappear < didDisappear, "\(journal)")
      }
      #expect(lines.contains("splashd: reveal: splashctl reveal"), "\(journal)")
      #expect(!journal.contains("<6>") && !journal.contains("<4>"), "\(journal)")
      if oneUnit {
        // splashd became the kiosk program: the same process logged both.
        let kiosk = (try? String(contentsOfFile: work + "/kiosk-journal.json", encoding: .utf8)) ?? ""
        func pid(of needle: String) -> String? {
          kiosk.split(separator: "\n").first { $0.contains(needle) }.flatMap { line in
            line.firstRange(of: "\"_PID\":\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
          }
        }
        let splashPID = pid(of: "splashd: appeared")
        #expect(splashPID != nil && splashPID == pid(of: "kiosk-colour: /dev/dri/card0 800x480"), "\(kiosk)")
        #expect(lines.contains("splashd: handing off to /usr/bin/kiosk-app"), "\(journal)")
      } else {
        #expect(lines.contains("splashd.service: Deactivated successfully."), "\(journal)")
      }
    }
  }
}
