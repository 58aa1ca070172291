// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// A program that fails at once and is restarted by systemd, again and
/// again: only its first start gets the splash.
@Suite struct RestartLoopTests {
  func isHandOff(_ ending: Ending) -> Bool {
    if case .handOff = ending { return true }
    return false
  }

  @Test func aStartSoonAfterTheLastHandOffHandsOffAtOnce() throws {
    let splash = try Harness()
    splash.handOffRecord = splash.dir.path + "/run/last-hand-off"
    let arguments = ["--display", "screen", "--duration", "0.1", "--", "/bin/true"]
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 1)
    // Started again (a moment later on this clock): straight to the program, said once.
    splash.clock.advance(by: 2)
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 1)
    let said = splash.lines.filter { $0.hasPrefix("splashd: restart: ") }
    #expect(
      said.count == 1
        && said.first?.hasSuffix("; handing off at once, without the splash (--restart-window 30)") == true, "\(said)")
    // Past the window, or another program, or the window off: the splash plays.
    splash.clock.advance(by: 31)
    #expect(isHandOff(splash.run(arguments)))
    #expect(splash.screens.opened.count == 2)
    #expect(isHandOff(splash.run(arguments.dropLast() + ["/bin/echo"])))
    #expect(splash.screens.opened.count == 3)
    #expect(isHandOff(splash.run(["--restart-window", "0"] + arguments)))
    #expect(splash.screens.opened.count == 4)
  }

  @Test func outsideSystemdEveryStartPlays() throws {
    let splash = try Harness()
    let arguments = ["--display", "screen", "--duration", "0.1", "--", "/bin/true"]
    for _ in 0..<2 { _ = splash.run(arguments) }
    #expect(splash.screens.opened.count == 2)
  }
}
