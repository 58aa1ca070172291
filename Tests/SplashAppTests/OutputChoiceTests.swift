// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Which back end shows the splash.
@Suite struct OutputChoiceTests {
  @Test func autoPassesOverABackEndThatFailsAndSaysWhy() throws {
    let splash = try Harness()
    splash.backEnds = [brokenBackEnd, OffscreenOutput.backEnd]
    #expect(splash.run(["--size", "32x32", "--duration", "0"]) == .exit(0))
    #expect(splash.lines.first == "splashd: display broken: /dev/broken: no such screen; trying offscreen")
    #expect(splash.session?.stage.display == "offscreen")
    #expect(splash.playback?.skippedVsyncs == 0 && (splash.playback?.frames.count ?? 0) > 1)
  }

  @Test func aBackEndAskedForByNameThatFailsIsARuntimeFailure() throws {
    let splash = try Harness()
    #expect(splash.run(["--display", "broken"]) == .exit(1))
    #expect(splash.lines == ["splashd: --display broken: /dev/broken: no such screen"])
  }

  @Test func anUnknownBackEndIsNamedWithItsLine() throws {
    let splash = try Harness()
    let config = splash.dir.file("d.conf", "[splash]\n\ndisplay = vulkan\n")
    #expect(splash.run(["--config", config, "--check"]) == .exit(2))
    let names = splash.backEnds.map(\.name).joined(separator: ", ")
    #expect(
      splash.lines == [
        "splashd: \(config):3: display: expected auto, \(names.replacingOccurrences(of: ", broken", with: " or broken")), got \"vulkan\""
      ])
  }

  /// A screen's mode decides its size; the last frame is kept for a program
  /// that follows (exec'd or spawned), and only then.
  @Test func aScreenKeepsItsModeAndItsLastFrameForTheProgram() throws {
    let splash = try Harness()
    _ = splash.run(["--display", "screen", "--size", "1920x1080", "--duration", "0", "--", "/bin/true"])
    #expect(splash.lines.contains("splashd: screen: --size 1920x1080 does not apply; the mode is 640x480"))
    #expect(splash.lines.contains("splashd: screen: 640x480 stub"))
    #expect(splash.screens.opened.first?.keptLastFrame == true)
    let alone = try Harness()
    #expect(alone.run(["--display", "screen", "--duration", "0"]) == .exit(0))
    #expect(alone.screens.opened.first?.keptLastFrame == false)
    // A spawned program follows too: it starts with the last frame (this once went back to the console).
    let spawned = try Harness()
    #expect(
      spawned.run(["--display", "screen", "--duration", "0", "--ready", "notify", "--timeout", "0", "--", "/bin/true"])
        == .exit(0))
    #expect(spawned.screens.opened.first?.keptLastFrame == true)
  }
}
