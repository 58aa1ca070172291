// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

extension BootTests {
  /// What one boot of the initramfs image showed and logged.
  struct WatchedBoot {
    /// The screens the host saw, in order, with their time since QEMU started.
    var frames: [(time: Double, screen: Screendump)]
    var journal: String
    var console: String
    /// /sys/kernel/debug/dri/0/framebuffer while the root's splash held.
    var framebuffers: String
    /// The rig's work folder (screens, journal, console).
    var work: String

    /// Copies the work folder to .build/systest/NAME, for people to look at.
    func keepWork(as name: String) {
      let kept = Screendump.folder + "/" + name
      try? FileManager.default.removeItem(atPath: kept)
      try? FileManager.default.copyItem(atPath: work, toPath: kept)
    }

    /// The CLOCK_MONOTONIC time (≈ seconds since the kernel started) of
    /// the first `appeared` line: the first splash frame on the screen.
    var firstPixel: Double? {
      journal.split(separator: "\n").compactMap { line -> Double? in
        guard let range = line.firstRange(of: "splashd: appeared: first frame shown at monotonic ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
      }.min()
    }
  }

  /// The colours of the splash in this test: the leaves, the background
  /// the doors reveal, the kiosk program's, the shutdown picture's.
  static let leftLeaf: UInt32 = 0xFF0000
  static let rightLeaf: UInt32 = 0x00FF00
  static let revealed: UInt32 = 0x0000FF
  static let kiosk: UInt32 = 0x2080C0
  static let shutdown: UInt32 = 0xFF00FF

  /// Sampled on a 16 × 16 grid.
  func samples(_ screen: Screendump) -> [UInt32] {
    stride(from: 0, to: screen.height, by: screen.height / 16).flatMap { y in
      stride(from: 0, to: screen.width, by: screen.width / 16).map { screen.at($0, y) }
    }
  }

  /// The whole splash: both leaves where they belong.
  func isSplash(_ screen: Screendump) -> Bool {
    screen.at(10, screen.height / 2) == Self.leftLeaf
      && screen.at(screen.width - 10, screen.height / 2) == Self.rightLeaf
  }

  /// The overlay of the initramfs boots, in `dir`/tree: splashd installed
  /// (make install-built) with its units, a config of red and green leaves
  /// over blue held until the kiosk's unit reveals it, the display's driver
  /// named for the initramfs, an ext4 root on /dev/vda with the work folder
  /// at /run/rig, the shipped kiosk unit with the test's program, a unit
  /// that keeps the card's framebuffers while the root's splash holds, and
  /// one that saves the journal and reboots once the program has drawn.
  func kioskBootTree(in dir: TemporaryDirectory) throws -> String {
    let tree = dir.path + "/tree"
    let fileManager = FileManager.default
    func put(_ path: String, _ text: String) throws { try putFile(path, text, into: tree) }
    func link(_ unit: String, into target: String) throws {
      let folder = "\(tree)/etc/systemd/system/\(target)"
      try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try fileManager.createSymbolicLink(
        atPath: folder + "/" + URL(fileURLWithPath: unit).lastPathComponent, withDestinationPath: unit)
    }
    try installSplashd(
      into: tree, pictures: [("left", (255, 0, 0)), ("right", (0, 255, 0)), ("shutdown", (255, 0, 255))])
    try put(
      "/etc/splashd/splashd.conf",
      """
      [splash]
      left = /usr/share/splashd/left.png
      right = /usr/share/splashd/right.png
      image-shutdown = /usr/share/splashd/shutdown.png
      background = #0000FF
      duration = 0.6
      [handoff]
      until-reveal = yes
      keep-last-frame = yes
      timeout = 120

      """)
    // The image is made on this machine, which has no display: the knob names the guest's driver.
    try put("/etc/splashd/initramfs.conf", "SPLASHD_DISPLAY_MODULES=\"bochs\"\n")
    // A small initramfs: the root's drivers alone (MODULES=list), so the display's come from the hook.
    try put("/etc/initramfs-tools/conf.d/rig", "MODULES=list\n")
    try put("/etc/initramfs-tools/modules", "virtio_pci\nvirtio_blk\ncrc32c_generic\next4\n")
    try put(
      "/etc/fstab",
      "/dev/vda / ext4 defaults 0 1\nrig0 /run/rig 9p trans=virtio,version=9p2000.L,nofail 0 0\n")
    try put("/etc/modules-load.d/rig.conf", "9pnet_virtio\n9p\n")
    try fileManager.createDirectory(atPath: tree + "/usr/local/bin", withIntermediateDirectories: true)
    let compile = try run(
      "/usr/bin/gcc",
      [
        "-O2", "-Wall", "-I/usr/include/libdrm", "-o", tree + "/usr/local/bin/kiosk-colour",
        packageRoot + "/tools/test/qemu/kiosk-colour.c", "-ldrm",
      ])
    try #require(compile.status == 0, "\(compile.stderr)")
    // The program the shipped kiosk unit starts, and the script whose steps the test's units run.
    try putScript("kiosk-app", into: tree, as: "/usr/bin/kiosk-app")
    try putScript("initramfs-kiosk-boot", into: tree, as: "/usr/local/lib/rig/initramfs-kiosk-boot.sh")
    let step = "/usr/local/lib/rig/initramfs-kiosk-boot.sh"
    try fileManager.createDirectory(atPath: tree + "/etc/systemd/system", withIntermediateDirectories: true)
    try fileManager.copyItem(
      atPath: tree + "/usr/share/doc/splashd/examples/kiosk-revealed-by-splashctl.service",
      toPath: tree + "/etc/systemd/system/kiosk-revealed-by-splashctl.service")
    // Once the kiosk program has drawn: the journal out, then a reboot.
    try put(
      "/etc/systemd/system/rig-final.service",
      """
      [Unit]
      Description=QEMU rig: the journal out, then a reboot
      After=kiosk-revealed-by-splashctl.service
      RequiresMountsFor=/run/rig
      [Service]
      Type=oneshot
      ExecStart=\(step) final

      """)
    // While the root's splash holds: the card's framebuffers (debugfs), for what the handover left behind.
    try put(
      "/etc/systemd/system/rig-framebuffers.service",
      """
      [Unit]
      Description=QEMU rig: the card's framebuffers while the splash holds
      After=splashd.service
      Before=kiosk-revealed-by-splashctl.service
      RequiresMountsFor=/run/rig /sys/kernel/debug
      [Service]
      Type=oneshot
      ExecStart=\(step) framebuffers

      """)
    try link("/etc/systemd/system/rig-framebuffers.service", into: "multi-user.target.wants")
    try link("/usr/lib/systemd/system/splashd.service", into: "sysinit.target.wants")
    try link("/etc/systemd/system/kiosk-revealed-by-splashctl.service", into: "multi-user.target.wants")
    try link("/etc/systemd/system/rig-final.service", into: "multi-user.target.wants")
    try link("/usr/lib/systemd/system/splashd-shutdown.service", into: "reboot.target.wants")
    return tree
  }

  /// Boots `image` with the kernel and `initrd` in `folder` (and more
  /// kernel parameters, `words`), the rig's work in `work`, the screen
  /// watched: what it showed and logged.
  func boot(
    _ image: String, kernelAndInitrd folder: String, initrd: String, words: String, work: String, rig: [String] = []
  ) throws -> WatchedBoot {
    let booted = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/test/qemu/rig.py", "--work", work, "--root", image, "--kernel",
        folder + "/vmlinuz",
        "--initrd", folder + "/" + initrd, "--size", "800x480", "--watch-screen", "0.1", "--append", words,
      ] + rig, environment: ProcessInfo.processInfo.environment, timeout: 400)
    let console = (try? String(contentsOfFile: work + "/console.log", encoding: .utf8)) ?? ""
    try #require(booted.status == 0, "\(booted.stdout) \(console.suffix(3000))")
    let listing = (try? String(contentsOfFile: work + "/watch.txt", encoding: .utf8)) ?? ""
    let frames = listing.split(separator: "\n").compactMap { line -> (Double, Screendump)? in
      let fields = line.split(separator: " ")
      guard fields.count == 2, let time = Double(fields[1]),
        let screen = Screendump(path: "\(work)/watch/\(fields[0]).ppm")
      else { return nil }
      return (time, screen)
    }
    let journal = (try? String(contentsOfFile: work + "/journal.txt", encoding: .utf8)) ?? ""
    let framebuffers = (try? String(contentsOfFile: work + "/framebuffers.txt", encoding: .utf8)) ?? ""
    return WatchedBoot(frames: frames, journal: journal, console: console, framebuffers: framebuffers, work: work)
  }

  /// Writes `text` as `path` (an absolute path in the image) under `tree`.
  func putFile(_ path: String, _ text: String, into tree: String) throws {
    try FileManager.default.createDirectory(
      atPath: tree + URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
    writeFile(atPath: tree + path, contents: Data(text.utf8))
    chmod(tree + path, 0o644)
  }

  /// Debian's kernel and the initramfs update-initramfs made inside the
  /// image (with splashd's initramfs-tools hook), an ext4 root that
  /// initramfs mounts, systemd, splashd.service and the kiosk unit; every
  /// boot ends in a reboot. One boot starts the splash in the initramfs,
  /// one only from the root's unit (splashd.initramfs=0), one says
  /// nosplash, one boots dracut's initramfs (90splashd's unit in a systemd
  /// initramfs). The host keeps every new screen (~10 a second): from the
  /// first splash frame to the kiosk program's there is nothing but the
  /// splash, its doors and the kiosk's colour (no console, no black frame),
  /// the root's splashd adopts the initramfs's, and the reboot shows the
  /// shutdown picture. Prints the first pixel's time after the kernel's
  /// start both ways, and what the hook adds to the initramfs.
  @Test func theInitramfsShowsTheSplashUntilTheKioskProgramAndTheRebootItsOwn() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4", "/usr/bin/gcc"])
    let dir = try TemporaryDirectory()
    let tree = try kioskBootTree(in: dir)
    let fileManager = FileManager.default

    let image = dir.path + "/root.img"
    let boot = dir.path + "/boot"
    let made = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/test/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
        "--overlay", tree, "--out", image, "--boot", boot, "--libraries-of", tree + "/usr/bin/splashd",
        "--libraries-of", tree + "/usr/bin/splashctl", "--run", "useradd --create-home kiosk",
      ], timeout: 1500)
    /// What update-initramfs or dracut printed making the image `name`.
    func log(_ name: String) -> String { (try? String(contentsOfFile: "\(boot)/\(name).log", encoding: .utf8)) ?? "" }
    try #require(made.status == 0, "\(made.stdout) \(made.stderr)")
    // Neither tool said anything about splashd: every file the hook and the module asked for was there.
    for name in ["initrd.img", "initrd-without-config.img", "initrd-dracut.img"] {
      #expect(!log(name).contains("splashd:"), "\(name): \(log(name))")
    }
    /// Prints the size of image `name` (`figure`_mib) and what splashd's `part` adds to it (`figure`_growth_mib).
    func printGrowth(_ figure: String, _ name: String, without: String, part: String) {
      func mebibytes(_ name: String) -> Double {
        Double((try? fileManager.attributesOfItem(atPath: "\(boot)/\(name)")[.size] as? Int) ?? 0) / 1_048_576
      }
      let (with, without) = (mebibytes(name), mebibytes(without))
      print(
        "\(figure)_mib: \(String(format: "%.2f", with)) (without splashd's \(part): \(String(format: "%.2f", without)))"
      )
      print("\(figure)_growth_mib: \(String(format: "%.2f", with - without))")
      #expect(with > without)
    }
    printGrowth("initramfs", "initrd.img", without: "initrd-without-splashd.img", part: "hook")
    // What went in: splashd, its config, the pictures it names, the display's driver; without a config,
    // the bundled picture; without the hook, none of it.
    func paths(_ name: String) -> Set<String> {
      Set(
        ((try? String(contentsOfFile: "\(boot)/\(name).files", encoding: .utf8)) ?? "").split(separator: "\n").map(
          String.init))
    }
    let carried = [
      "usr/bin/splashd", "etc/splashd/splashd.conf", "usr/share/splashd/left.png", "usr/share/splashd/right.png",
      "usr/share/splashd/shutdown.png",
    ]
    let full = paths("initrd.img")
    for path in carried + ["scripts/init-premount/splashd"] {
      #expect(full.contains(path), "\(path) is not in the initramfs")
    }
    #expect(full.contains { $0.hasSuffix("/bochs.ko") })
    // Plymouth's client, where Plymouth is not: splashd under that name.
    #expect(full.contains("bin/plymouth") || full.contains("usr/bin/plymouth"), "no plymouth in the initramfs")
    let configless = paths("initrd-without-config.img")
    #expect(configless.contains("usr/bin/splashd") && configless.contains("usr/share/splashd/splashd-demo.png"))
    #expect(!configless.contains("etc/splashd/splashd.conf") && !configless.contains("usr/share/splashd/left.png"))
    #expect(!paths("initrd-without-splashd.img").contains("usr/bin/splashd"))
    // A config splashd refuses: the initramfs is made all the same, without splashd, and one line says why.
    for (name, prefix) in [
      ("initrd-broken-config.img", "W: splashd: "), ("initrd-dracut-broken-config.img", "dracut: splashd: "),
    ] {
      #expect(!paths(name).contains("usr/bin/splashd"), "\(name)")
      let said = log(name).split(separator: "\n").filter { $0.contains("splashd:") }
      #expect(
        said.count == 1 && said[0].hasPrefix("\(prefix)/etc/splashd/splashd.conf:2: no-such-key: unknown setting")
          && said[0].hasSuffix("; the initramfs starts no splash"), "\(name): \(log(name))")
    }

    // dracut's: splashd, its config and pictures, its unit wanted by sysinit.target, the display's driver, and
    // the password agent that asks the splash (with systemd's agent program it runs).
    let dracut = paths("initrd-dracut.img")
    for path in carried + [
      "usr/lib/systemd/system/splashd-initrd.service", "etc/systemd/system/sysinit.target.wants/splashd-initrd.service",
      "usr/lib/systemd/system/splashd-ask-password.path", "usr/lib/systemd/system/splashd-ask-password.service",
      "etc/systemd/system/sysinit.target.wants/splashd-ask-password.path", "usr/bin/systemd-tty-ask-password-agent",
    ] {
      #expect(dracut.contains(path), "\(path) is not in dracut's initramfs")
    }
    #expect(dracut.contains { $0.hasSuffix("/bochs.ko") })
    #expect(!paths("initrd-dracut-without-splashd.img").contains("usr/bin/splashd"))
    printGrowth("dracut_initramfs", "initrd-dracut.img", without: "initrd-dracut-without-splashd.img", part: "module")

    func bootOnce(_ words: String, _ name: String, initrd: String = "initrd.img", rig: [String] = []) throws
      -> WatchedBoot
    { try self.boot(image, kernelAndInitrd: boot, initrd: initrd, words: words, work: dir.path + "/" + name, rig: rig) }

    /// What every boot must show: from the first splash frame to the kiosk
    /// program's colour nothing foreign, then the shutdown picture, the
    /// root's splash's two buffers alone, and the adoption logged (or the
    /// command line's no). Returns the first pixel's time.
    func check(_ boot: WatchedBoot, _ label: String, adopted: Bool, keepFirst: Bool) throws -> Double {
      let note = boot.journal.split(separator: "\n").filter { $0.contains("splashd") }.joined(separator: "\n")
      let first = try #require(
        boot.frames.firstIndex { isSplash($0.screen) }, "\(label): no splash on the screen; \(note)")
      let kiosk = try #require(
        boot.frames[first...].firstIndex { samples($0.screen).allSatisfy { $0 == Self.kiosk } },
        "\(label): the kiosk program's colour never filled the screen; \(note)")
      // Between them: the splash, its doors parting over the background, the kiosk's colour.
      let allowed: Set<UInt32> = [Self.leftLeaf, Self.rightLeaf, Self.revealed, Self.kiosk]
      let foreign = boot.frames[first...kiosk].enumerated().filter { _, frame in
        !samples(frame.screen).allSatisfy(allowed.contains)
      }
      if let (index, frame) = foreign.first {
        frame.screen.keep(as: "\(label)-foreign-frame")
        boot.keepWork(as: label)
        Issue.record("\(label): frame \(first + index) at \(frame.time) s of \(foreign.count) foreign ones; \(note)")
      }
      // The reboot: the shutdown picture once the kiosk program let go.
      let shutdown = boot.frames[kiosk...].last { samples($0.screen).allSatisfy { $0 == Self.shutdown } }
      #expect(shutdown != nil, "\(label): no shutdown picture before the reset; \(note)")
      // The root's splash's two buffers, and nothing left of the initramfs's.
      let splashBuffers = boot.framebuffers.split(separator: "\n").filter { $0.contains("allocated by = splashd") }
      #expect(splashBuffers.count == 2, "\(label): \(boot.framebuffers)")
      if adopted {
        #expect(boot.journal.contains("splashd: adopt: took over from the splashd of pid"), "\(label): \(note)")
        #expect(boot.journal.contains("splashd: handover: the display went to splashd (pid"), "\(label): \(note)")
      } else {
        #expect(
          boot.journal.contains("the kernel command line says splashd.initramfs=0: no splash"), "\(label): \(note)")
        #expect(!boot.journal.contains("splashd: adopt:"), "\(label): \(note)")
      }
      if keepFirst {
        boot.frames[first].screen.keep(as: "\(label)-first-splash")
        shutdown?.screen.keep(as: "\(label)-shutdown")
      }
      return try #require(boot.firstPixel, "\(label): \(note)")
    }

    // One boot each way (three each took four more boots of CI's time; the
    // margin is about 2x: 9.8-11.4 s against 19.2-26.8 s in three each).
    let initramfsPixel = try check(bootOnce("", "initramfs"), "initramfs", adopted: true, keepFirst: true)
    let rootPixel = try check(
      bootOnce("splashd.initramfs=0", "root"), "root-unit", adopted: false, keepFirst: true)
    // dracut's systemd initramfs: splashd-initrd.service's splashd lives through the switch and is adopted.
    let dracutBoot = try bootOnce("", "dracut", initrd: "initrd-dracut.img")
    let dracutPixel = try check(dracutBoot, "dracut", adopted: true, keepFirst: true)
    print("first_pixel_after_kernel_start_dracut_s: \(String(format: "%.2f", dracutPixel))")
    print("first_pixel_after_kernel_start_initramfs_s: \(String(format: "%.2f", initramfsPixel))")
    print("first_pixel_after_kernel_start_root_unit_s: \(String(format: "%.2f", rootPixel))")
    print("first_pixel_initramfs_vs_root_unit: \(String(format: "%.2f", initramfsPixel / rootPixel))")
    #expect(initramfsPixel < rootPixel, "\(initramfsPixel) \(rootPixel)")

    // nosplash: neither splashd shows anything, and the boot reaches the kiosk program.
    let quiet = try bootOnce("nosplash", "nosplash")
    #expect(quiet.firstPixel == nil, "\(quiet.journal)")
    #expect(!quiet.frames.contains { isSplash($0.screen) })
    #expect(quiet.frames.contains { samples($0.screen).allSatisfy { $0 == Self.kiosk } }, "\(quiet.journal)")
    #expect(quiet.journal.contains("the kernel command line says nosplash: no splash"), "\(quiet.journal)")

    // The initramfs gives up (no root named): before its rescue shell, scripts/panic/splashd has the splash
    // step aside, so that the reason and the shell are on the console, not behind the picture.
    let rescue = try bootOnce("root=", "panic", rig: ["--rescue-shell", "--until", "(initramfs)"])
    let tail = String(rescue.console.suffix(2000))
    #expect(rescue.console.contains("No root device specified"), "\(tail)")
    #expect(rescue.frames.contains { isSplash($0.screen) }, "the splash never showed; \(tail)")
    let last = try #require(rescue.frames.last, "\(tail)")
    if isSplash(last.screen) {
      last.screen.keep(as: "panic-splash-left-on")
      Issue.record("the splash still covers the rescue shell; \(tail)")
    }
  }
}
