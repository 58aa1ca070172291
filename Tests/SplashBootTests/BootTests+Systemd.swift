// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// A whole Debian under QEMU with systemd as init: the package installed,
/// the kiosk units, the splash from splashd.service to the kiosk program.
extension BootTests {
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
    func put(_ path: String, _ text: String) {
      writeFile(atPath: tree + path, contents: Data(text.utf8))
      chmod(tree + path, 0o644)
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
    let packaged = try run(
      packageRoot + "/tools/release/make-deb.sh", [installedBuildDirectory, dir.path], timeout: 300)
    try #require(packaged.status == 0, "\(packaged.stderr)")
    let deb = packaged.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let unpacked = dir.path + "/unpacked"
    #expect(try run("/usr/bin/dpkg-deb", ["-x", deb, unpacked]).status == 0)
    let compile = try run(
      "/usr/bin/gcc",
      [
        "-O2", "-Wall", "-I/usr/include/libdrm", "-o", tree + "/usr/local/bin/kiosk-colour",
        packageRoot + "/tools/test/qemu/kiosk-colour.c", "-ldrm",
      ])
    #expect(compile.status == 0, "\(compile.stderr)")
    // The program the shipped kiosk unit starts, and the script whose steps the test's units run.
    try putScript("kiosk-app", into: tree, as: "/usr/bin/kiosk-app")
    try putScript("systemd-kiosk-boot", into: tree, as: "/usr/local/lib/rig/systemd-kiosk-boot.sh")
    let step = "/usr/local/lib/rig/systemd-kiosk-boot.sh"
    // The unit splashd runs in; with one unit, nothing else reveals the
    // splash: the test's first unit does, after its screendump.
    let splashUnit = oneUnit ? "kiosk-with-splash.service" : "splashd.service"
    let kioskUnit = oneUnit ? "kiosk-with-splash.service" : "kiosk-revealed-by-splashctl.service"
    // Two units of the test's own: a screendump while the splash holds (before
    // it is revealed), then one of the kiosk program's screen. Each of the
    // test's steps is bounded (TimeoutStartSec; a oneshot has none of its
    // own): a client that hangs is stopped, and the boot goes on to the
    // journal, which says what hung, instead of ending at the rig's timeout.
    put(
      "/etc/systemd/system/rig-held.service",
      """
      [Unit]
      Description=QEMU rig: screendump of the held splash
      After=\(splashUnit)
      Before=kiosk-revealed-by-splashctl.service
      [Service]
      Type=oneshot
      TimeoutStartSec=90
      Environment=REVEAL=\(oneUnit ? "yes" : "no")
      ExecStart=\(step) held

      """)
    // A boot script's calls: with splashd.service, a message through
    // psplash's FIFO, written as psplash-write writes it (non-blocking, the
    // text and its NUL); with the one unit, Debian's own plymouth client
    // (unpacked by tools/test/plymouth-client.sh, copied in as /usr/bin/plymouth).
    let clientRoot = packageRoot + "/.build/plymouth-client"
    let fetched = try run(
      packageRoot + "/tools/test/plymouth-client.sh", [clientRoot], environment: ProcessInfo.processInfo.environment,
      timeout: 300)
    try #require(fetched.status == 0, "tools/test/plymouth-client.sh: \(fetched.stderr)")
    try fileManager.createDirectory(atPath: tree + "/usr/lib/x86_64-linux-gnu", withIntermediateDirectories: true)
    for file in ["usr/bin/plymouth", "usr/lib/x86_64-linux-gnu/libply.so.5"] {
      // libply.so.5 is a link to the versioned file: the file itself goes in under its name.
      let source = URL(fileURLWithPath: clientRoot + "/" + file).resolvingSymlinksInPath().path
      try fileManager.copyItem(atPath: source, toPath: tree + "/" + file)
    }
    put(
      "/etc/systemd/system/rig-boot-script.service",
      """
      [Unit]
      Description=QEMU rig: a boot script's message and progress for the splash
      After=\(splashUnit)
      Before=rig-held.service
      [Service]
      Type=oneshot
      TimeoutStartSec=90
      Environment=CLIENT=\(oneUnit ? "plymouth" : "psplash")
      ExecStart=\(step) boot-script

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
      TimeoutStartSec=90
      ExecStart=\(step) early

      """)
    put(
      "/etc/systemd/system/rig-final.service",
      """
      [Unit]
      Description=QEMU rig: screendump of the kiosk program's screen, the journal, power off
      After=rig-held.service \(kioskUnit)
      [Service]
      Type=oneshot
      TimeoutStartSec=90
      Environment=SPLASH_UNIT=\(splashUnit) KIOSK_UNIT=\(kioskUnit)
      ExecStart=\(step) final

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
        "python3", packageRoot + "/tools/test/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
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
        && removal.enabledAfterRemove["splashd-ask-password.path"] == "masked"
        && !removal.enabledAfterRemove.values.contains("enabled"), "\(removal.enabledAfterRemove)")
    #expect(removal.afterPurge == [] && removal.unitLinksAfterPurge == [], "\(removal)")

    let work = dir.path + "/work"
    let booted = try run(
      "/usr/bin/env",
      ["python3", packageRoot + "/tools/test/qemu/rig.py", "--work", work, "--root", image, "--size", "800x480"],
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
