// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `make install-built` and `make uninstall` into a DESTDIR: the layout the
/// README gives, the example kiosk units kept out of the live unit folder,
/// and nothing left behind by uninstall but a config file that was changed.
@Suite struct InstallTests {
  let expected = [
    "etc/splashd/splashd.conf", "usr/bin/splashctl", "usr/bin/splashd",
    "usr/lib/dracut/modules.d/90splashd/module-setup.sh", "usr/lib/splashd/libsplashd-wayland-host.so",
    "usr/lib/splashd/libsplashd-wayland-host-gpu.so",
    "usr/lib/systemd/system/splashd-ask-password.path",
    "usr/lib/systemd/system/splashd-ask-password.service", "usr/lib/systemd/system/splashd-initrd.service",
    "usr/lib/systemd/system/splashd-shutdown.service", "usr/lib/systemd/system/splashd.service",
    "usr/share/bash-completion/completions/splashctl", "usr/share/bash-completion/completions/splashd",
    "usr/share/doc/splashd/examples/kiosk-revealed-by-splashctl.service",
    "usr/share/doc/splashd/examples/kiosk-with-splash.service", "usr/share/initramfs-tools/hooks/splashd",
    "usr/share/initramfs-tools/scripts/init-premount/splashd",
    "usr/share/initramfs-tools/scripts/panic/splashd", "usr/share/man/man1/splashctl.1",
    "usr/share/man/man5/splashd.conf.5", "usr/share/man/man8/splashd.8", "usr/share/splashd/splashd-demo.png",
    "usr/share/splashd/splashd.conf.sample",
  ]

  func files(under root: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: root)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
        found.append(path)
      }
    }
    return found.sorted()
  }

  func make(_ target: String, _ dir: TemporaryDirectory) throws -> Outcome {
    let build = URL(fileURLWithPath: splashdPath).deletingLastPathComponent().path
    return try run(
      "/usr/bin/make",
      [
        "-s", "-C", packageRoot, target, "BUILD_DIR=\(build)", "DESTDIR=\(dir.path)/root", "PREFIX=/usr",
        "DOCS_DIR=\(dir.path)/docs",
      ], timeout: 120)
  }

  @Test func installPutsTheLayoutAndUninstallTakesItAllBack() throws {
    let dir = try TemporaryDirectory()
    let installed = try make("install-built", dir)
    #expect(installed.status == 0, "\(installed.stderr)")
    // The device quirks of the libinput built for the compositor, where it looks for them.
    let quirksFolder = "usr/lib/splashd/libinput/"
    let built = packageRoot + "/.build/wlroots/current/share/libinput-quirks"
    let builtQuirks = ((try? FileManager.default.contentsOfDirectory(atPath: built)) ?? []).map { quirksFolder + $0 }
    #expect(files(under: dir.path + "/root") == (expected + builtQuirks).sorted())
    let uninstalled = try make("uninstall", dir)
    #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
    #expect(files(under: dir.path + "/root") == [])
  }

  @Test func uninstallKeepsAConfigFileThatWasChanged() throws {
    let dir = try TemporaryDirectory()
    #expect(try make("install-built", dir).status == 0)
    let config = dir.path + "/root/etc/splashd/splashd.conf"
    try "[splash]\nhold = 2\n".write(toFile: config, atomically: false, encoding: .utf8)
    let uninstalled = try make("uninstall", dir)
    #expect(uninstalled.status == 0, "\(uninstalled.stderr)")
    #expect(uninstalled.stdout.contains("keeping \(config) (changed)"), "\(uninstalled.stdout)")
    #expect(files(under: dir.path + "/root") == ["etc/splashd/splashd.conf"])
  }
}
