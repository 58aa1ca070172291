// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

extension DisplayTests.BootPathTests {
  /// The one-unit kiosk with a Wayland program that must not run as root,
  /// as kiosk-with-splash.service says to write it: splashd --user kiosk --
  /// cage -- foot, with seatd for the seat, on QEMU's qxl card (the one
  /// wlroots 0.15's DRM back end runs on). The splash shows and opens its
  /// doors, then cage and foot run as the kiosk user and foot fills the
  /// screen; the unit stays active, never restarted.
  @Test func theOneUnitKioskRunsCageAndFootAsTheKioskUser() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4"])
    let dir = try TemporaryDirectory()
    let tree = dir.path + "/tree"
    let install = try run(
      "/usr/bin/make",
      [
        "-s", "-C", packageRoot, "install-built", "BUILD_DIR=\(installedBuildDirectory)", "DESTDIR=\(tree)",
        "PREFIX=/usr",
      ])
    try #require(install.status == 0, "\(install.stdout) \(install.stderr)")
    for (name, color) in [("left", (UInt8(255), UInt8(0), UInt8(0))), ("right", (0, 255, 0))] {
      writeFile(
        atPath: "\(tree)/usr/share/splashd/\(name).png", contents: makePNG(width: 160, height: 240) { _, _ in color })
    }
    try putFile(
      "/etc/splashd/splashd.conf",
      """
      [splash]
      left = /usr/share/splashd/left.png
      right = /usr/share/splashd/right.png
      background = #0000FF
      hold = 1
      duration = 0.5

      """, into: tree)
    // The example unit as shipped, with the line its comment gives for cage (foot in the kiosk's colour).
    let example = try String(
      contentsOfFile: tree + "/usr/share/doc/splashd/examples/kiosk-with-splash.service", encoding: .utf8)
    let cageLine = try #require(
      example.split(separator: "\n").first { $0.hasPrefix("#   ExecStart=") && $0.contains("cage") },
      "kiosk-with-splash.service gives no ExecStart= line for cage")
    let unit = example.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix("ExecStart=")
        ? cageLine.dropFirst("#   ".count) + " --override=colors.background=2080c0" : line
    }.joined(separator: "\n")
    try putFile("/etc/systemd/system/kiosk-with-splash.service", unit, into: tree)
    // What the example's comment says to add for a compositor, and wlroots' software renderer: qxl has no 3D.
    try putFile(
      "/etc/systemd/system/kiosk-with-splash.service.d/rig.conf",
      "[Unit]\nWants=seatd.service\nAfter=seatd.service\n[Service]\nEnvironment=WLR_RENDERER=pixman\n", into: tree)
    try putScript("cage-kiosk-boot", into: tree, as: "/usr/local/lib/rig/cage-kiosk-boot.sh")
    try putFile(
      "/etc/systemd/system/rig-final.service",
      """
      [Unit]
      Description=QEMU rig: screendump of the kiosk, who runs it, the journal, power off
      After=kiosk-with-splash.service
      [Service]
      Type=oneshot
      ExecStart=/usr/local/lib/rig/cage-kiosk-boot.sh final

      """, into: tree)
    let wants = tree + "/etc/systemd/system/multi-user.target.wants"
    try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
    for unit in ["kiosk-with-splash.service", "rig-final.service"] {
      try FileManager.default.createSymbolicLink(
        atPath: wants + "/" + unit, withDestinationPath: "/etc/systemd/system/" + unit)
    }
    let image = dir.path + "/root.img"
    // Debian's cage 0.1.4 exits at once without Xwayland ("Cannot create XWayland server"): apt installs it
    // with cage (Recommends); debootstrap takes only what cage depends on.
    let made = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
        "--overlay", tree, "--out", image, "--libraries-of", tree + "/usr/bin/splashd", "--with", "cage", "--with",
        "xwayland", "--with", "foot", "--with", "seatd", "--run", "useradd --create-home --groups video kiosk",
      ], timeout: 1500)
    try #require(made.status == 0, "\(made.stdout) \(made.stderr)")

    let work = dir.path + "/work"
    let booted = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/qemu/rig.py", "--work", work, "--root", image, "--gpu", "qxl", "--size",
        "800x480", "--watch-screen", "0.2", "--timeout", "300",
      ], environment: ProcessInfo.processInfo.environment, timeout: 400)
    let console = (try? String(contentsOfFile: work + "/console.log", encoding: .utf8)) ?? ""
    let journal = (try? String(contentsOfFile: work + "/journal.txt", encoding: .utf8)) ?? ""
    let note = journal.split(separator: "\n").filter { $0.contains("splashd") || $0.contains("cage") }.joined(
      separator: "\n")
    try #require(booted.status == 0, "\(booted.stdout) \(console.suffix(3000))")

    // The splash showed on qxl before the program.
    let listing = (try? String(contentsOfFile: work + "/watch.txt", encoding: .utf8)) ?? ""
    let screens = listing.split(separator: "\n").compactMap { line in
      line.split(separator: " ").first.flatMap { Screendump(path: "\(work)/watch/\($0).ppm") }
    }
    let splash = screens.first { isSplash($0) }
    splash?.keep(as: "cage-kiosk-splash")
    #expect(splash != nil, "no splash on qxl's screen; \(note)")
    // cage and foot run as the kiosk user, foot full screen in its colour (its prompt and cursor aside).
    let final = try #require(Screendump(path: work + "/final.ppm"), "no screendump of the kiosk; \(note)")
    final.keep(as: "cage-kiosk-final")
    let kioskColoured = samples(final).filter { $0 == Self.kiosk }.count
    if kioskColoured < samples(final).count * 9 / 10 {
      let kept = Screendump.folder + "/cage-kiosk"
      try? FileManager.default.removeItem(atPath: kept)
      try? FileManager.default.copyItem(atPath: work, toPath: kept)
    }
    #expect(kioskColoured >= samples(final).count * 9 / 10, "\(kioskColoured) samples of foot's colour; \(note)")
    let who = (try? String(contentsOfFile: work + "/kiosk-who", encoding: .utf8)) ?? ""
    let users = Set(who.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) })
    #expect(users == [["kiosk", "cage"], ["kiosk", "foot"]], "\(who); \(note)")
    #expect((try? String(contentsOfFile: work + "/kiosk-state", encoding: .utf8)) == "active\n", "\(note)")
    #expect((try? String(contentsOfFile: work + "/kiosk-restarts", encoding: .utf8)) == "0\n", "\(note)")
    #expect(journal.contains("splashd: handing off to /usr/bin/cage"), "\(note)")
  }
}
