// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The QEMU boots, one at a time (each keeps both cores busy with TCG):
/// the framebuffer here, each other concern in a `BootTests+NAME.swift`.
@Suite(.serialized) struct BootTests {
  /// A virtual screen of one page, and one the kernel was asked to make
  /// two pages tall: splashd paints the shown page either way. The splash
  /// is turned 90°, so the leaves part vertically on the physical screen.
  @Test(arguments: ["", "drm_kms_helper.drm_fbdev_overalloc=200"])
  func theFramebufferShowsTheSplashAndKeepsItsLastFrameForTheProgram(kernelParameters: String) throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    // In the guest, /run/rig is this directory; the host's / is the guest's /.
    let (outcome, console) = try runScenario(
      "fbdev-hand-off", in: dir, environment: ["LEAVES": leaves], size: "800x480",
      kernelParameters: kernelParameters)
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
    // splashctl screen off powered the framebuffer down (FBIOBLANK: the DRM
    // driver's CRTC inactive, as the kernel has it), screen on brought it back.
    let power = (try? String(contentsOfFile: dir.path + "/screen-power", encoding: .utf8)) ?? ""
    #expect(power == "screen=off off_by=splashctl\nactive=0\nscreen=on\nactive=1\n", "\(power) \(log)")
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
    let (outcome, console) = try runScenario(
      "fbdev-page-flips", in: dir, environment: ["LEAVES": leaves], size: "800x480",
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

}
