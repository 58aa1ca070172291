// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The Debian package tools/release/make-deb.sh makes of the release binaries (make
/// test builds them first): exactly the install layout, with the man pages
/// compressed, the config a conffile, Depends only on Debian libraries (the
/// Swift runtime and SDL are linked in), splashd.service enabled by its
/// postinst, and lintian without an error or a warning.
@Suite struct DebTests {
  let release = packageRoot + "/.build/release"

  @Test func thePackageHoldsTheLayoutAndLintianPassesIt() throws {
    guard FileManager.default.isExecutableFile(atPath: release + "/splashd") else {
      Issue.record("no release build in \(release): make build first (make test does)")
      return
    }
    let dir = try TemporaryDirectory()
    let made = try run(packageRoot + "/tools/release/make-deb.sh", [release, dir.path], timeout: 300)
    #expect(made.status == 0, "\(made.stderr)")
    let deb = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(deb.hasPrefix(dir.path + "/splashd_") && deb.hasSuffix(".deb"), "\(made.stdout)")
    let listing = try run("/usr/bin/dpkg-deb", ["-c", deb])
    let everyFile = listing.stdout.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("-") else { return nil }
      return line.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.dropFirst(2)) }
    }.sorted()
    // The device quirks of the libinput linked into the compositor, where it
    // looks for them: those of the build, when it links its own.
    let quirksFolder = "usr/lib/splashd/libinput/"
    let quirks = everyFile.filter { $0.hasPrefix(quirksFolder) }.map { String($0.dropFirst(quirksFolder.count)) }
    let built = packageRoot + "/.build/wlroots/current/share/libinput-quirks"
    let builtQuirks = ((try? FileManager.default.contentsOfDirectory(atPath: built)) ?? []).sorted()
    #expect(quirks == builtQuirks, "\(quirks)")
    let files = everyFile.filter { !$0.hasPrefix(quirksFolder) }
    #expect(
      files == [
        "etc/splashd/splashd.conf", "usr/bin/splashctl", "usr/bin/splashd",
        "usr/lib/dracut/modules.d/90splashd/module-setup.sh", "usr/lib/splashd/libsplashd-wayland-host-gpu.so",
        "usr/lib/splashd/libsplashd-wayland-host.so",
        "usr/lib/systemd/system/splashd-ask-password.path",
        "usr/lib/systemd/system/splashd-ask-password.service", "usr/lib/systemd/system/splashd-initrd.service",
        "usr/lib/systemd/system/splashd-shutdown.service", "usr/lib/systemd/system/splashd.service",
        "usr/share/bash-completion/completions/splashctl", "usr/share/bash-completion/completions/splashd",
        "usr/share/doc/splashd/changelog.gz", "usr/share/doc/splashd/copyright",
        "usr/share/doc/splashd/examples/kiosk-revealed-by-splashctl.service",
        "usr/share/doc/splashd/examples/kiosk-with-splash.service", "usr/share/initramfs-tools/hooks/splashd",
        "usr/share/initramfs-tools/scripts/init-premount/splashd",
        "usr/share/initramfs-tools/scripts/panic/splashd", "usr/share/lintian/overrides/splashd",
        "usr/share/man/man1/splashctl.1.gz",
        "usr/share/man/man5/splashd.conf.5.gz", "usr/share/man/man8/splashd.8.gz",
        "usr/share/splashd/splashd-demo.png", "usr/share/splashd/splashd.conf.sample",
      ], "\(listing.stdout)")
    let control = try run("/usr/bin/dpkg-deb", ["-f", deb]).stdout
    let depends = control.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? ""
    for library in ["libc6", "libdrm2", "libpng16-16", "libinih1"] {
      #expect(depends.contains(library), "\(depends)")
    }
    #expect(!depends.contains("sdl") && !depends.contains("swift"), "\(depends)")
    // Host mode's libraries are recommended, not required: a plain splash installs without them. wlroots is
    // linked into its compositor (tools/build/build-wlroots.sh), never a package.
    let recommends = control.split(separator: "\n").first { $0.hasPrefix("Recommends: ") } ?? ""
    for library in ["libwayland-server0", "libpixman-1-0", "libinput-bin"] {
      #expect(!depends.contains(library) && recommends.contains(library), "\(control)")
    }
    #expect(!control.contains("wlroots"), "\(control)")
    let info = try run("/usr/bin/dpkg-deb", ["-I", deb, "conffiles"])
    #expect(info.stdout == "/etc/splashd/splashd.conf\n")
    let postinst = try run("/usr/bin/dpkg-deb", ["-I", deb, "postinst"]).stdout
    #expect(postinst.contains("for unit in splashd.service splashd-shutdown.service splashd-ask-password.path"))
    #expect(postinst.contains("deb-systemd-helper enable \"$unit\""))
    // The cache is prepared at install, and never fails it.
    #expect(postinst.contains("splashd --prepare >/dev/null 2>&1 || true"))
    let triggers = try run("/usr/bin/dpkg-deb", ["-I", deb, "triggers"])
    #expect(triggers.stdout == "activate-noawait update-initramfs\n")
    let lintian = try run("/usr/bin/lintian", ["--tag-display-limit", "0", deb], timeout: 300)
    let complaints = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
    #expect(lintian.status == 0 && complaints.isEmpty, "\(lintian.stdout) \(lintian.stderr)")
  }
}
