// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// A warm cache for the next boot even when the first folder could not be
/// written at the start (a root file system still read only): what went to
/// the later folder is moved to the first one at the end of the splash.
@Suite struct CacheKeptForTheNextBootTests {
  @Test func whatWentToTheLaterFolderIsMovedToTheFirstAtTheEnd() throws {
    let splash = try Harness()
    let first = splash.dir.path + "/var-cache"
    let later = splash.dir.path + "/run-cache"
    // The first folder cannot be written when the splash starts (a file
    // stands where it should be), and can be by the time it ends.
    splash.dir.file("var-cache", "not yet a folder")
    splash.clock.at(0.5) {
      try? FileManager.default.removeItem(atPath: first)
    }
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    let config = splash.dir.file("two.conf", "[splash]\ncache = \(first) \(later)\n")
    #expect(
      splash.run([
        "--config", config, "--display", "screen", "--duration", "0.05", "--until-reveal", "--timeout", "0",
        "--control", splash.controlPath,
      ]) == .exit(0))
    let moved = try FileManager.default.contentsOfDirectory(atPath: first).filter { $0.hasSuffix(".prepared") }
    #expect(moved.count == 1, "\(splash.lines)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: later).filter { $0.hasSuffix(".prepared") }.isEmpty)
    #expect(splash.lines.contains { $0.hasPrefix("splashd: cache: \(later)/") && $0.hasSuffix(" for the next boot") })
  }
}
