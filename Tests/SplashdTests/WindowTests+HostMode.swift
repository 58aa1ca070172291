// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

extension DisplayTests.WindowTests {
  /// `--display window --host wayland -- foot` previews the doors opening
  /// onto the real program in a desktop window (Xvfb): foot between the
  /// parting leaves, then foot filling splashd's window.
  @Test func hostModePreviewsTheDoorsOpeningOntoTheProgramInAWindow() throws {
    let screen = try VirtualScreen()
    let dir = try TemporaryDirectory()
    let control = dir.path + "/control"
    let splash = try screen.launchSplashd(
      [
        "--left", dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0)), "--right",
        dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0)), "--background", "#0000FF",
        "--until-reveal", "--duration", "3", "--control", control, "--host", "wayland", "--", "foot",
        "--override=colors.background=2080c0",
      ], in: dir)
    func splashctl(_ arguments: [String]) -> Outcome? {
      try? run(splashctlPath, ["--control", control] + arguments, environment: screen.environment)
    }
    waitUntil { FileManager.default.fileExists(atPath: control) }
    #expect(waitUntil(20) { splashctl(["status"])?.stdout.contains(" program=shown") == true })
    _ = splashctl(["reveal"])
    // Foot's colour between the leaves, on the middle row.
    let parted = screen.splashdWindow { dump in
      let row = (0..<320).map { dump.at($0, 120) }
      return row.first == 0xFF0000 && row.last == 0x00FF00 && row.contains(0x2080C0) && !row.contains(0x0000FF)
    }
    #expect(parted != nil, "no window dump with foot between the doors; \(screen.failures)")
    let alone = screen.splashdWindow { dump in
      (0..<16).allSatisfy { i in dump.at(i * 20, 200) == 0x2080C0 }
    }
    #expect(alone != nil, "foot never filled splashd's window; \(screen.failures)")
    splash.send(SIGTERM)
    #expect(splash.wait(seconds: 30))
  }
}
