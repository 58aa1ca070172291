// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// splashd in a chroot without /proc, as an image build or update-initramfs
/// runs it: its arguments are its own even so. (Swift's CommandLine reads
/// /proc/self/cmdline on Linux; without it `splashd --list-files` saw no
/// arguments and ran a whole splash in initramfs-tools' hook; and the
/// bundled picture, looked for beside /proc/self/exe, was not found.)
@Suite struct ChrootTests {
  @Test func theArgumentsAreSeenWithoutProc() throws {
    guard getuid() == 0 else {
      Issue.record("chroot needs root (CI runs the tests as root)")
      return
    }
    let dir = try TemporaryDirectory()
    let root = dir.path + "/root"
    let fileManager = FileManager.default
    // splashd and every library it links, at their own paths; no /proc.
    let libraries = try run("/usr/bin/ldd", [splashdPath]).stdout.split(separator: "\n").compactMap { line in
      line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { $0.hasPrefix("/") }.map(String.init)
    }
    for file in [splashdPath] + libraries {
      let target = root + file
      try fileManager.createDirectory(
        atPath: URL(fileURLWithPath: target).deletingLastPathComponent().path, withIntermediateDirectories: true)
      try fileManager.copyItem(atPath: URL(fileURLWithPath: file).resolvingSymlinksInPath().path, toPath: target)
    }
    #expect(!fileManager.fileExists(atPath: root + "/proc/self"))
    let version = try run("/usr/sbin/chroot", [root, splashdPath, "--version"], timeout: 10)
    #expect(version.status == 0, "\(version.stderr)")
    #expect(version.stdout.hasPrefix("splashd "), "\(version.stdout) \(version.stderr)")
    try "[splash]\nimage = /nowhere.png\n".write(toFile: root + "/s.conf", atomically: false, encoding: .utf8)
    let listed = try run("/usr/sbin/chroot", [root, splashdPath, "--config", "/s.conf", "--list-files"], timeout: 10)
    #expect(listed.stdout.hasPrefix("config /s.conf\npicture /nowhere.png\n"), "\(listed.stdout) \(listed.stderr)")
    // Without a config, the bundled picture, found beside the binary without /proc/self/exe.
    let demo = packageRoot + "/Config/splashd-demo.png"
    try fileManager.createDirectory(atPath: root + packageRoot + "/Config", withIntermediateDirectories: true)
    try fileManager.copyItem(atPath: demo, toPath: root + demo)
    let bundled = try run("/usr/sbin/chroot", [root, splashdPath, "--list-files"], timeout: 10)
    #expect(bundled.stdout.hasPrefix("picture \(demo)\n"), "\(bundled.stdout) \(bundled.stderr)")
  }
}
