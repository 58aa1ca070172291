// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

extension BootTests {
  /// A LUKS root, as Debian's installer makes one: /etc/crypttab names it,
  /// update-initramfs puts cryptsetup-initramfs's cryptroot (and splashd's
  /// hook) in the initramfs, and cryptroot's askpass asks for the
  /// passphrase through `plymouth`, which is splashd there. The host types
  /// at QEMU's keyboard (QMP send-key) when the splash logs its prompt on
  /// the console: a wrong passphrase first, which cryptroot refuses (its
  /// error shown on the splash as a message) and asks again, then the right
  /// one. The prompt is drawn on the splash, the
  /// disk opens, the root's splash adopts the initramfs's, and the boot goes
  /// on under the splash to the kiosk program: nothing foreign on the
  /// screen from the first splash frame to the program's.
  @Test func aLUKSRootIsOpenedWithThePassphraseTypedOnTheSplash() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4", "/usr/bin/gcc", "/usr/sbin/cryptsetup"])
    let dir = try TemporaryDirectory()
    let tree = try kioskBootTree(in: dir)
    let passphrase = "kiosk disk 42"
    // The root is the LUKS volume on /dev/vda, opened in the initramfs as root_crypt.
    try putFile("/etc/crypttab", "root_crypt /dev/vda none luks,initramfs\n", into: tree)
    try putFile(
      "/etc/fstab",
      "/dev/mapper/root_crypt / ext4 defaults 0 1\nrig0 /run/rig 9p trans=virtio,version=9p2000.L,nofail 0 0\n",
      into: tree)
    // The image is made in a chroot, where cryptroot's hook cannot see the disk: it is told to come along.
    try putFile("/etc/cryptsetup-initramfs/conf-hook", "CRYPTSETUP=y\n", into: tree)
    let image = dir.path + "/luks-root.img"
    let boot = dir.path + "/boot"
    let made = try run(
      "/usr/bin/env",
      [
        "python3", packageRoot + "/tools/test/qemu/debian-root.py", "--cache", packageRoot + "/.build/qemu-rig",
        "--overlay", tree, "--out", image, "--boot", boot, "--libraries-of", tree + "/usr/bin/splashd",
        "--libraries-of", tree + "/usr/bin/splashctl", "--run", "useradd --create-home kiosk", "--luks", passphrase,
        "--with", "cryptsetup-initramfs",
      ], timeout: 1500)
    try #require(made.status == 0, "\(made.stdout) \(made.stderr)")
    let files = Set(
      ((try? String(contentsOfFile: boot + "/initrd.img.files", encoding: .utf8)) ?? "").split(separator: "\n").map(
        String.init))
    // cryptroot's crypttab, and the prompt's font (the hook carries it where a disk is opened).
    #expect(files.contains("cryptroot/crypttab"), "no cryptroot/crypttab in the initramfs")
    #expect(files.contains { $0.hasSuffix("DejaVuSans.ttf") }, "no font for the prompt in the initramfs")

    // The splash logs each prompt on the kernel's console (info: loglevel=7, devkmsg unlimited).
    let prompt = "splashd: ask: "
    let watched = try self.boot(
      image, kernelAndInitrd: boot, initrd: "initrd.img",
      words: "root=/dev/mapper/root_crypt loglevel=7 printk.devkmsg=on", work: dir.path + "/luks",
      rig: ["--type", "\(prompt)=wrong guess", "--type", "\(prompt)=\(passphrase)"])
    let note = watched.journal.split(separator: "\n").filter { $0.contains("splashd") }.joined(separator: "\n")
    let tail = String(watched.console.suffix(3000))
    let typed = ((try? String(contentsOfFile: watched.work + "/typed.txt", encoding: .utf8)) ?? "").split(
      separator: "\n")
    // cryptroot asked, refused the wrong passphrase (its error goes to the splash as a message, through
    // `plymouth message`), and asked again; the right one opened the disk.
    let asked = watched.console.components(separatedBy: "\(prompt)\"Please unlock disk root_crypt").count - 1
    if typed.count != 2 || asked != 2 { watched.keepWork(as: "luks") }
    #expect(typed.count == 2, "the prompt was not shown twice: \(typed); \(tail)")
    #expect(asked == 2, "cryptroot's prompt was asked \(asked) times; \(tail)")

    // The prompt on the splash: its leaves, with the prompt's light text over them.
    func lightPixels(_ screen: Screendump) -> Int {
      (0..<screen.height).reduce(0) { sum, y in
        sum
          + (0..<screen.width).filter { x in
            let pixel = screen.at(x, y)
            return pixel >> 16 > 0xC0 && (pixel >> 8) & 0xFF > 0xC0 && pixel & 0xFF > 0xC0
          }.count
      }
    }
    let asking = watched.frames.first { isSplash($0.screen) && lightPixels($0.screen) > 100 }
    asking?.screen.keep(as: "luks-prompt")
    #expect(asking != nil, "no frame showed the prompt on the splash; \(note)")

    // Opened: the boot went on under the splash to the kiosk program, with nothing foreign between.
    let first = try #require(
      watched.frames.firstIndex { isSplash($0.screen) }, "no splash on the screen; \(note) \(tail)")
    let kiosk = try #require(
      watched.frames[first...].firstIndex { samples($0.screen).allSatisfy { $0 == Self.kiosk } },
      "the kiosk program's colour never filled the screen; \(note) \(tail)")
    let allowed: Set<UInt32> = [Self.leftLeaf, Self.rightLeaf, Self.revealed, Self.kiosk]
    let foreign = watched.frames[first...kiosk].filter {
      !isSplash($0.screen) && !samples($0.screen).allSatisfy(allowed.contains)
    }
    if let frame = foreign.first {
      frame.screen.keep(as: "luks-foreign-frame")
      watched.keepWork(as: "luks")
      Issue.record("\(foreign.count) foreign frames, the first at \(frame.time) s; \(note)")
    }
    #expect(watched.journal.contains("splashd: adopt: took over from the splashd of pid"), "\(note)")
  }
}
