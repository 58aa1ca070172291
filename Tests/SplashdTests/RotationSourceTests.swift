// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `rotate = auto`: the angle from an IIO accelerometer (a fake sysfs tree
/// here) or the kernel command line (a fake /proc/cmdline).
@Suite struct RotationSourceTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  /// A fake IIO device directory with `files` (name → contents).
  func iio(_ name: String, _ files: [String: String]) throws -> String {
    let device = dir.path + "/" + name
    try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
    for (file, contents) in files {
      writeFile(atPath: device + "/" + file, contents: Data((contents + "\n").utf8))
    }
    return device
  }

  func check(_ config: String, _ extra: [String] = []) throws -> Outcome {
    let path = dir.file("rotation-\(UUID().uuidString).conf", config)
    return try splashd(["--config", path, "--check"] + extra, in: dir)
  }

  @Test func anAccelerometerTurnsTheSplash() throws {
    let device = try iio(
      "iio:device0",
      ["in_accel_x_raw": "-256", "in_accel_y_raw": "0", "in_accel_z_raw": "0", "in_accel_scale": "0.038320"])
    let outcome = try check("[splash]\nrotate = auto\n[orientation]\niio = \(device)\n")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("rotate = auto\n"))
    #expect(outcome.stdout.contains("; rotation 90 from iio \(device) (right-up)\n"))
    #expect(outcome.stdout.contains("; logical canvas 720x1280\n"))
    #expect(outcome.stderrLines.last == "splashd: rotation 90 from iio \(device) (right-up)")
  }

  @Test func perAxisScalesAndTheDevicesMountMatrix() throws {
    // The reference vector (8, 521, -67) with matrix "0, -1, 0; -1, 0, 0; 0, 0, 1": right-up.
    let device = try iio(
      "tablet",
      [
        "in_accel_x_raw": "8", "in_accel_y_raw": "521", "in_accel_z_raw": "-67", "in_accel_x_scale": "0.019163",
        "in_accel_y_scale": "0.019163", "in_accel_z_scale": "0.019163", "mount_matrix": "0, -1, 0; -1, 0, 0; 0, 0, 1",
      ])
    let outcome = try check("[splash]\nrotate = auto\n[orientation]\niio = \(device)\n")
    #expect(outcome.stdout.contains("; rotation 90 from iio \(device) (right-up)\n"), "\(outcome.stdout)")
    // A mount matrix in the config overrides the device's: identity reads the same raw values as left-up.
    let overridden = try check(
      "[splash]\nrotate = auto\n[orientation]\niio = \(device)\nmount-matrix = 1, 0, 0; 0, 1, 0; 0, 0, 1\n")
    #expect(overridden.stdout.contains("; rotation 180 from iio \(device) (bottom-up)\n"), "\(overridden.stdout)")
  }

  @Test func aFlatDeviceFallsThroughToTheKernelCommandLine() throws {
    let device = try iio(
      "flat", ["in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "256", "scale": "0.038320"])
    let cmdline = dir.file("cmdline", "root=/dev/mmcblk0p2 fbcon=rotate:2 quiet\n")
    let outcome = try check(
      "[splash]\nrotate = auto\n[orientation]\nsources = iio cmdline\niio = \(device)\ncmdline = \(cmdline)\n")
    #expect(outcome.stdout.contains("; rotation 180 from kernel command line \(cmdline)\n"))
    #expect(outcome.stderrLines.contains("splashd: rotation: iio: \(device) lies flat or on a diagonal"))
  }

  @Test func noAnswerMeansZeroAndTheLogSaysWhy() throws {
    let broken = try iio("broken", ["in_accel_x_raw": "-256", "in_accel_y_raw": "zero", "in_accel_z_raw": "0"])
    let cmdline = dir.file("plain-cmdline", "quiet splash\n")
    let outcome = try check(
      "[splash]\nrotate = auto\n[orientation]\nsources = cmdline, iio\niio = \(broken)\ncmdline = \(cmdline)\n")
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("; rotation 0 from no orientation source answered\n"))
    #expect(
      outcome.stderrLines == [
        "splashd: rotation: cmdline: no rotation in \(cmdline)",
        "splashd: rotation: iio: \(broken)/in_accel_y_raw: not a number: \"zero\"",
        "splashd: rotation 0 from no orientation source answered",
      ])
  }

  /// An evdev path that is no input device (or no file) is a miss named
  /// with its reason; the next source answers.
  @Test func aWrongEvdevDeviceFallsThrough() throws {
    let cmdline = dir.file("evdev-cmdline", "fbcon=rotate:1\n")
    for (device, reason) in [
      ("/dev/null", "not an evdev input device"), (cmdline, "not an evdev input device"),
      (dir.path + "/missing", "no such file or directory"),
    ] {
      let outcome = try check(
        "[splash]\nrotate = auto\n[orientation]\nsources = evdev cmdline\nevdev = \(device)\ncmdline = \(cmdline)\n")
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(
        outcome.stderrLines == [
          "splashd: rotation: evdev: \(device): \(reason)", "splashd: rotation 90 from kernel command line \(cmdline)",
        ])
    }
  }

  /// A panel card that is no DRM device is a miss named with its reason.
  @Test func aWrongPanelCardFallsThrough() throws {
    let cmdline = dir.file("panel-cmdline", "fbcon=rotate:2\n")
    let outcome = try check(
      "[splash]\nrotate = auto\n[orientation]\nsources = panel cmdline\npanel = /dev/null\ncmdline = \(cmdline)\n")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderrLines.first?.hasPrefix("splashd: rotation: panel: /dev/null: not a KMS device") == true)
    #expect(outcome.stderrLines.last == "splashd: rotation 180 from kernel command line \(cmdline)")
  }

  @Test func anExplicitAngleWinsAndTheProgramIsTold() throws {
    let device = try iio(
      "upright", ["in_accel_x_raw": "256", "in_accel_y_raw": "0", "in_accel_z_raw": "0", "in_accel_scale": "0.038320"])
    let config = "[splash]\nrotate = auto\n[orientation]\niio = \(device)\n"
    let explicit = try check(config, ["--rotate", "180"])
    #expect(explicit.stdout.contains("rotate = 180\n"))
    #expect(explicit.stderr.isEmpty)
    let path = dir.file("handoff.conf", config)
    let handedOff = try splashd(
      [
        "--config", path, "--display", "offscreen", "--size", "32x32", "--duration", "0", "--", "/bin/sh", "-c",
        "echo $SPLASHD_ROTATION",
      ],
      in: dir)
    #expect(handedOff.stdout == "270\n")  // left-up
  }

  @Test func badOrientationSettingsNameTheLine() throws {
    let sources = try check("[orientation]\nsources = gyro iio\n")
    #expect(sources.status == 2)
    #expect(
      sources.stderrLines.first?.contains(":2: sources: expected sources among evdev, switch, panel, iio, cmdline")
        == true,
      "\(sources.stderr)")
    let settle = try check("[orientation]\nsettle = 10\n")
    #expect(settle.stderrLines.first?.contains(":2: settle: expected a number of seconds from 0 to 5") == true)
    let map = try check("[orientation]\nswitch-map = SW_TABLET_MODE=45\n")
    #expect(map.stderrLines.first?.contains(":2: switch-map: expected NAME=ANGLE pairs separated by commas") == true)
    let follow = try check("[orientation]\nfollow = maybe\n")
    #expect(follow.stderrLines.first?.contains(":2: follow: expected yes or no") == true)
    let matrix = try check("[orientation]\n\nmount-matrix = 1, 0, 0; 0, 0, 0; 0, 0, 1\n")
    #expect(matrix.stderrLines.first?.contains(":3: mount-matrix: expected three rows of three numbers") == true)
    let rotate = try check("[splash]\nrotate = sideways\n")
    #expect(rotate.stderrLines.first?.contains(":2: rotate: expected 0, 90, 180, 270 or auto") == true)
  }
}
