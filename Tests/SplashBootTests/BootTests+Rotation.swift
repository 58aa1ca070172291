// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The held splash turned by the hardware under QEMU: a uinput accelerometer
/// and a rotation switch.
extension BootTests {
  /// A fake accelerometer (uinput, INPUT_PROP_ACCELEROMETER) found by
  /// its property: the splash starts upright, and turns while it holds
  /// when the device reports being turned right-up.
  @Test func anAccelerometerTurnsTheHeldSplash() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    let (outcome, console) = try runScenario(
      "accelerometer-turns-splash", in: dir, environment: ["LEAVES": leaves], size: "800x480")
    let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    #expect(log.contains("splashd: rotation 0 from evdev /dev/input/event"), "\(log)")
    #expect(log.contains(" \"rig accelerometer\" (normal)"), "\(log)")
    #expect(log.contains("splashd: turned to 90 degrees (the accelerometer)"), "\(log)")
    let upright = try #require(Screendump(path: dir.path + "/upright.ppm"), "\(log)")
    upright.keep(as: "accelerometer-upright")
    expectClosedDoors(upright, turned: false, log)
    let turned = try #require(Screendump(path: dir.path + "/turned.ppm"), "\(log)")
    turned.keep(as: "accelerometer-turned")
    expectClosedDoors(turned, turned: true, log)
  }

  /// A rotation switch (uinput, EV_SW) mapped by `switch-map`: tablet
  /// mode on turns the splash 90° from the first frame; docking it while
  /// the splash holds turns it back upright.
  @Test func aRotationSwitchTurnsTheSplash() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    // The config, which names the switch's event device, is written in the guest.
    let (outcome, console) = try runScenario(
      "rotation-switch-turns-splash", in: dir, environment: ["LEAVES": leaves], size: "800x480")
    let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    #expect(log.contains("splashd: rotation 90 from switch /dev/input/event"), "\(log)")
    #expect(log.contains("splashd: turned to 0 degrees (the rotation switch)"), "\(log)")
    let tablet = try #require(Screendump(path: dir.path + "/tablet.ppm"), "\(log)")
    tablet.keep(as: "switch-tablet")
    expectClosedDoors(tablet, turned: true, log)
    let docked = try #require(Screendump(path: dir.path + "/docked.ppm"), "\(log)")
    docked.keep(as: "switch-docked")
    expectClosedDoors(docked, turned: false, log)
  }

}
