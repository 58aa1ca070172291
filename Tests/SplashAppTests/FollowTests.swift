// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Following a sensor while the splash holds (an orientation device
/// through a pipe here; the real ones are tested under QEMU).
@Suite struct FollowTests {
  @Test func aNewAngleTurnsTheHeldSplashButNotTheMovingDoors() throws {
    let splash = try Harness()
    let sensor = PipeAngles()
    splash.resolveRotation = { _, _ in
      ResolvedRotation(rotation: .none, source: "the test sensor", misses: [], followed: sensor)
    }
    splash.clock.at(1) { sensor.send(.quarter) }
    splash.clock.at(1.5) { sensor.send(.quarter) }  // no change: nothing to do
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    splash.clock.at(2.5) { sensor.send(.half) }  // the doors move: the angle stays
    let ending = splash.run(
      [
        "--display", "offscreen", "--size", "64x32", "--rotate", "auto", "--duration", "2", "--until-reveal",
        "--timeout", "0", "--control", splash.controlPath, "--", "/bin/true",
      ])
    #expect(splash.lines.contains("splashd: rotation 0 from the test sensor"))
    #expect(
      splash.lines.filter { $0.hasPrefix("splashd: turned to") } == ["splashd: turned to 90 degrees (the test sensor)"])
    #expect(splash.rotations == [.none, .quarter])
    guard case .handOff(_, let environment) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(environment["SPLASHD_ROTATION"] == "90")
  }

  @Test func aDeviceThatGoesAwayIsNoLongerFollowed() throws {
    let splash = try Harness()
    let sensor = PipeAngles()
    splash.resolveRotation = { _, _ in
      ResolvedRotation(rotation: .none, source: "the test sensor", misses: [], followed: sensor)
    }
    splash.clock.at(1) { sensor.unplug() }
    splash.clock.at(3) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(
        [
          "--display", "offscreen", "--size", "32x32", "--rotate", "auto", "--duration", "0.1", "--until-reveal",
          "--timeout", "0", "--control", splash.controlPath,
        ]) == .exit(0))
    #expect(splash.lines.contains("splashd: rotation: test sensor: it hung up; no longer following it"))
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
  }
}
