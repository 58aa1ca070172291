// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// The kernel command line's nosplash still runs the program the config
/// file names (`exec`), not only one given after `--`.
@Suite struct NoSplashTests {
  @Test func nosplashRunsTheConfigsProgram() throws {
    let splash = try Harness()
    let cmdline = splash.dir.file("cmdline", "ro quiet nosplash\n")
    let config = splash.dir.file(
      "exec.conf",
      "[splash]\ncache = \(splash.dir.cache)\n[handoff]\nexec = /bin/true\n[orientation]\ncmdline = \(cmdline)\n")
    let ending = splash.run(["--config", config, "--display", "screen", "--boot", "root"])
    #expect(
      ending
        == .handOff(
          HandOff(program: ["/bin/true"], environment: splash.environment)!, environment: ["SPLASHD_ROTATION": "0"]))
    #expect(splash.screens.opened.isEmpty)
  }
}
