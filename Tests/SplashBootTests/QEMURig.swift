// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

// What the QEMU boot tests share: running a scenario in the rig, and what
// they expect of the screens it reads back.

/// `splashctl snapshot` of the held splash, taken in the guest into
/// held-snapshot.png, is pixel for pixel the QMP screendump `held`.
func expectSnapshot(in dir: TemporaryDirectory, equals held: Screendump, _ log: String) {
  let ppm = dir.path + "/held-snapshot.ppm"
  _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [dir.path + "/held-snapshot.png", ppm], environment: [:])
  guard let snapshot = Screendump(path: ppm) else {
    Issue.record("no snapshot of the held splash: \(log)")
    return
  }
  #expect(snapshot.width == held.width && snapshot.height == held.height)
  var differing = 0
  for y in 0..<min(snapshot.height, held.height) {
    for x in 0..<min(snapshot.width, held.width) where snapshot.at(x, y) != held.at(x, y) { differing += 1 }
  }
  #expect(differing == 0, "\(differing) pixels of the snapshot differ from the screendump")
}

/// The red (left) and green (right) door leaves of the guest splashes,
/// written into `dir`, and the splashd arguments that show them (a
/// scenario's LEAVES, which its shell splits on spaces).
func doorLeaves(in dir: TemporaryDirectory) -> String {
  _ = dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0))
  _ = dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0))
  return "--left /run/rig/red.png --right /run/rig/green.png --background #0000FF"
}

/// Expects the closed doors on `screen`: the leaves side by side, or,
/// turned 90° clockwise, the left leaf on top of the right.
func expectClosedDoors(_ screen: Screendump, turned: Bool, _ note: String) {
  let (w, h) = (screen.width, screen.height)
  for across in turned ? [0, w - 1] : [0, h / 2, h - 1] {
    func at(_ along: Int) -> UInt32 { turned ? screen.at(across, along) : screen.at(along, across) }
    let half = (turned ? h : w) / 2
    let end = (turned ? h : w) - 1
    #expect(at(0) == 0xFF0000 && at(half - 1) == 0xFF0000, "\(turned ? "column" : "row") \(across); \(note)")
    #expect(at(half) == 0x00FF00 && at(end) == 0x00FF00, "\(turned ? "column" : "row") \(across); \(note)")
  }
}

/// Expects the doors opening on `screen`: along 8 lines across the
/// leaves' motion (rows, or columns when turned 90°), red, then the
/// background, then green, the leaves apart from the middle.
func expectOpeningDoors(_ screen: Screendump, turned: Bool, _ note: String) {
  let (along, across) = turned ? (screen.height, screen.width) : (screen.width, screen.height)
  for line in stride(from: 0, to: across, by: across / 8) {
    let colors = (0..<along).map { turned ? screen.at(line, $0) : screen.at($0, line) }
    let redEnd = colors.firstIndex { $0 != 0xFF0000 } ?? along
    let blueEnd = colors[redEnd...].firstIndex { $0 != 0x0000FF } ?? along
    #expect(
      redEnd < along / 2 && blueEnd > along / 2 && colors[blueEnd...].allSatisfy { $0 == 0x00FF00 },
      "\(turned ? "column" : "row") \(line): \(redEnd), \(blueEnd); \(note)")
  }
}

/// Expects `screen` (its first `height` rows, all by default) to be
/// `color` all over, sampled on a grid of `samples` × `samples` points.
func expectFilled(
  _ screen: Screendump, with color: UInt32, samples: Int = 10, height: Int? = nil, _ note: String
) {
  let height = height ?? screen.height
  for y in stride(from: 0, to: height, by: height / samples) {
    for x in stride(from: 0, to: screen.width, by: screen.width / samples) {
      #expect(screen.at(x, y) == color, "(\(x), \(y)); \(note)")
    }
  }
}

/// The guest sides of the QEMU boots, one shell script a scenario, and
/// what they share (lib.sh). The rig's guest mounts the host's / read-only,
/// so they are at the same path there.
let scenarioFolder = packageRoot + "/tools/test/qemu/scenarios"

/// Runs the scenario `name` (scenarioFolder/NAME.sh) under the QEMU rig,
/// with the rig's work directory, `dir`, as the guest's /run/rig and
/// `environment` as its variables (SPLASHD and SPLASHCTL, this build's
/// binaries, unless it gives them); returns the rig's outcome and the
/// guest's serial console.
func runScenario(
  _ name: String, in dir: TemporaryDirectory, environment: [String: String] = [:], size: String,
  kernelParameters: String = "", gpu: String = "vga"
) throws -> (Outcome, String) {
  let variables = ["SPLASHD": splashdPath, "SPLASHCTL": splashctlPath].merging(environment) { $1 }
  let outcome = try run(
    "/usr/bin/env",
    [
      "python3", packageRoot + "/tools/test/qemu/rig.py", "--work", dir.path, "--size", size, "--timeout", "240",
      "--append", kernelParameters, "--gpu", gpu,
    ] + variables.sorted { $0.key < $1.key }.flatMap { ["--env", "\($0.key)=\($0.value)"] } + [
      "--", scenarioFolder + "/" + name + ".sh",
    ],
    environment: ProcessInfo.processInfo.environment, timeout: 300)
  return (outcome, (try? String(contentsOfFile: dir.path + "/console.log", encoding: .utf8)) ?? "")
}

/// Copies scenarioFolder/`name`.sh into the image tree `tree` as `path`,
/// executable: for the boots of an image of their own (not the host's /).
func putScript(_ name: String, into tree: String, as path: String) throws {
  let folder = URL(fileURLWithPath: tree + path).deletingLastPathComponent().path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  try FileManager.default.copyItem(atPath: scenarioFolder + "/" + name + ".sh", toPath: tree + path)
  chmod(tree + path, 0o755)
}

/// splashd installed into the image tree `tree` as `make install-built`
/// puts it (PREFIX=/usr), from the build the boot tests install, with
/// `pictures` (name and colour) as 160x240 PNGs in /usr/share/splashd: by
/// default the red left and green right leaves the boots' configs name.
func installSplashd(
  into tree: String, pictures: [(String, (UInt8, UInt8, UInt8))] = [("left", (255, 0, 0)), ("right", (0, 255, 0))]
) throws {
  let install = try run(
    "/usr/bin/make",
    [
      "-s", "-C", packageRoot, "install-built", "BUILD_DIR=\(installedBuildDirectory)", "DESTDIR=\(tree)",
      "PREFIX=/usr",
    ])
  try #require(install.status == 0, "\(install.stdout) \(install.stderr)")
  for (name, color) in pictures {
    writeFile(
      atPath: "\(tree)/usr/share/splashd/\(name).png", contents: makePNG(width: 160, height: 240) { _, _ in color })
  }
}

/// Fails the calling test with what to install when the QEMU rig cannot run.
func requireRig(_ tools: [String] = []) throws {
  let kernels = ((try? FileManager.default.contentsOfDirectory(atPath: "/boot")) ?? []).filter {
    $0.hasPrefix("vmlinuz-")
  }
  let missing = (["/usr/bin/qemu-system-x86_64", "/bin/busybox"] + tools).filter {
    !FileManager.default.isExecutableFile(atPath: $0)
  }
  guard !kernels.isEmpty, missing.isEmpty else {
    throw TestFailure(
      "the QEMU rig needs qemu-system-x86, linux-image-amd64, busybox-static, debootstrap, e2fsprogs "
        + "(make test installs them); missing: \(kernels.isEmpty ? ["/boot/vmlinuz-*"] + missing : missing)")
  }
}

/// The kiosk path on a real Linux kernel under QEMU (tools/test/qemu/rig.py):
/// bochs-drm's /dev/fb0, screens read back with QMP screendump.
