// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashTestSupport
import Testing

/// Files where splashd reads or writes that are not what they should be
/// (boot safety, round 3): a FIFO where a sysfs file or the kernel command
/// line should be, a device or a file where the control socket goes, a
/// device or a link where a state file is written, a cache folder anybody
/// can write. Each costs one line naming it; nothing blocks, nothing there
/// is deleted or written through, and the program runs.
@Suite struct HostileFileTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  /// A FIFO nobody writes, at `name` in the test's folder.
  func fifo(_ name: String) -> String {
    let path = dir.path + "/" + name
    precondition(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
    return path
  }

  /// One splash run (offscreen, short) with `config` as its config file and
  /// a program after it; it must end within 20 s.
  func splashd(config: String, _ arguments: [String] = []) throws -> Outcome {
    let file = dir.file("splashd.conf", "[splash]\ncache = \(dir.cache)\n" + config)
    return try run(
      splashdPath,
      ["--config", file, "--display", "offscreen", "--size", "32x32", "--duration", "0.05"] + arguments + [
        "--", "/bin/sh", "-c", "echo RAN",
      ], timeout: 20)
  }

  @Test(arguments: ["cmdline", "panel", "iio"])
  func aFIFOWhereTheOrientationIsReadNeverBlocks(source: String) throws {
    var orientation = "[orientation]\nsources = \(source)\n"
    switch source {
    case "iio":
      let device = dir.path + "/iio"
      try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
      for axis in ["x", "y", "z"] { precondition(mkfifo(device + "/in_accel_\(axis)_raw", 0o600) == 0) }
      orientation += "iio = \(device)\n"
    default: orientation += "\(source) = \(fifo(source))\n"
    }
    let outcome = try splashd(
      config: "rotate = auto\n" + orientation.replacingOccurrences(of: "[orientation]", with: "\n[orientation]"))
    #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
    #expect(outcome.stderr.contains("rotation 0 from"), "\(outcome.stderr)")
  }

  @Test func aFIFOAsTheKernelCommandLineOfABootSplashNeverBlocks() throws {
    let outcome = try splashd(config: "\n[orientation]\ncmdline = \(fifo("cmdline"))\n", ["--boot", "root"])
    #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
  }

  /// What lies at the control socket's path and is not a socket stays as it
  /// was, with one line; the splash goes on without the socket.
  @Test func whatIsNotASocketAtTheControlPathIsLeftAlone() throws {
    let file = dir.file("control-file", "precious")
    let pipe = fifo("control-fifo")
    let link = dir.path + "/control-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    for path in [file, pipe, link] {
      let outcome = try splashd(config: "", ["--control", path])
      #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
      #expect(
        outcome.stderrLines.contains(
          "splashd: --control \(path): no control socket: exists and is not a socket; it is left alone"),
        "\(outcome.stderr)")
    }
    #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "precious")
    var info = stat()
    #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
  }

  /// The boot time the time source records goes only where a regular file
  /// or nothing is: a FIFO or a link there is left as it was.
  @Test func theBootTimeIsNeverWrittenOverWhatIsNotARegularFile() throws {
    let pipe = fifo("duration-fifo")
    let target = dir.file("elsewhere", "untouched")
    let link = dir.path + "/duration-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    for path in [pipe, link] {
      let outcome = try splashd(config: "\n[progress]\nsource = time\nduration-file = \(path)\n")
      #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
      #expect(
        outcome.stderrLines.contains {
          $0.hasPrefix("splashd: progress: cannot record this boot's time in \(path): ")
            && $0.hasSuffix("is not a regular file; it is left alone")
        }, "\(outcome.stderr)")
    }
    var info = stat()
    #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect((try? String(contentsOfFile: target, encoding: .utf8)) == "untouched")
    // A regular file is replaced, as before.
    let file = dir.file("duration", "1.5\n")
    let outcome = try splashd(config: "\n[progress]\nsource = time\nduration-file = \(file)\n")
    #expect(outcome.status == 0)
    #expect((try? String(contentsOfFile: file, encoding: .utf8)) != "1.5\n")
  }

  /// A cache folder another user may write is not used: nothing is read
  /// from it or written to it (a link planted there would be written through).
  @Test func aCacheFolderOthersCanWriteIsNotUsed() throws {
    let open = dir.path + "/open-cache"
    try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
    chmod(open, 0o777)
    let target = dir.file("victim", "untouched")
    // Whatever name splashd would write, a link there would lead to the victim.
    for pid in 1...64 {
      try? FileManager.default.createSymbolicLink(
        atPath: open + "/planted.prepared.new-\(pid)", withDestinationPath: target)
    }
    let file = dir.file("cache.conf", "[splash]\ncache = \(open)\n")
    let outcome = try run(
      splashdPath,
      [
        "--config", file, "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--", "/bin/sh", "-c",
        "echo RAN",
      ], timeout: 20)
    #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
    #expect(
      outcome.stderrLines.contains { $0.contains("cache: ") && $0.contains("\(open): writable by others: not used") },
      "\(outcome.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: open).filter { $0.hasSuffix(".prepared") }
    #expect(written.isEmpty, "\(written)")
    #expect((try? String(contentsOfFile: target, encoding: .utf8)) == "untouched")
  }

  /// A prepared picture cut short in the cache while the splash shows it
  /// (its pixels are mapped where they lie) does not crash the splash on the
  /// next redraw: the lost part reads as zeros, one line names the file, and
  /// the splash holds and hands off as before.
  @Test func aCacheFileCutShortUnderTheSplashNeverCrashesIt() throws {
    let picture = dir.solidPNG("blue.png", width: 200, height: 100, rgb: (0, 0, 255))
    let shape = [
      "--display", "offscreen", "--size", "200x100", "--image", picture, "--progress-rect", "0, 0.45, 1, 0.1",
      "--progress-color", "#FF0000", "--progress-track", "none",
    ]
    let warm = try run(splashdPath, ["--config", dir.testConfig, "--prepare"] + shape, timeout: 20)
    #expect(warm.status == 0, "\(warm.stderr)")
    let file = try #require(
      try FileManager.default.contentsOfDirectory(atPath: dir.cache).first { $0.hasSuffix(".prepared") }
        .map { dir.cache + "/" + $0 })
    let control = dir.path + "/control"
    func splashctl(_ arguments: [String]) -> Outcome? {
      try? run(splashctlPath, ["--control", control] + arguments, environment: [:])
    }
    var said: [String: Outcome?] = [:]
    let shot = dir.path + "/shot.png"
    let (_, outcome) = try spawnSplashd(
      shape + [
        "--until-reveal", "--timeout", "0", "--control", control, "--progress", "30", "--", "/bin/sh", "-c", "echo RAN",
      ], in: dir,
      whileRunning: { splash in
        waitUntil { FileManager.default.fileExists(atPath: control) }
        guard splashctl(["wait", "appeared"])?.status == 0, splash.log.contains("prepared pictures from") else {
          return
        }
        truncate(file, 4096)
        said["progress"] = splashctl(["progress", "70"])
        said["snapshot"] = splashctl(["snapshot", shot])
        said["status"] = splashctl(["status"])
        said["reveal"] = splashctl(["reveal"])
      })
    #expect(outcome.status == 0 && outcome.stdout == "RAN\n", "\(outcome.stderr)")
    #expect(said["progress"]??.status == 0 && said["snapshot"]??.status == 0, "\(outcome.stderr)")
    #expect(said["status"]??.stdout.hasPrefix("phase=waiting ") == true, "\(String(describing: said["status"]))")
    #expect(said["reveal"]??.status == 0)
    #expect(
      outcome.stderrLines.contains("splashd: \(file) was cut short while it was shown: its lost part shows as black"),
      "\(outcome.stderr)")
    // The redraw after the cut (the bar's area): the bar at 70%; where
    // the bar is not, the picture's lost pixels, no longer blue.
    _ = try run(packageRoot + "/tools/test/png-to-ppm.py", [shot, dir.path + "/shot.ppm"], environment: [:])
    let frame = try #require(Screendump(path: dir.path + "/shot.ppm"))
    #expect((0..<200).filter { frame.at($0, 50) == 0xFF0000 }.count == 140)
    #expect(frame.at(170, 50) != 0x0000FF && frame.at(100, 30) == 0x0000FF)
  }

  /// SIGBUS's chain with a second guard installed after splashd's (as
  /// libwayland's wl_shm guard is in host mode; tools/test/sigbus-chain-probe.c,
  /// built here with the guard's source): each guard takes its own faults,
  /// and a fault neither guards ends the process at once through the crash
  /// action, rather than being handed back and forth between them forever.
  @Test func aFaultNoGuardTakesEndsTheProcessThroughTheChain() throws {
    let probe = dir.path + "/sigbus-chain-probe"
    let built = try run(
      "/usr/bin/gcc",
      [
        "-O1", "-Wall", "-Wextra", "-Werror", "-I", packageRoot + "/Sources/CLinux/include", "-o", probe,
        packageRoot + "/tools/test/sigbus-chain-probe.c", packageRoot + "/Sources/CLinux/mapping_guard.c",
      ])
    try #require(built.status == 0, "\(built.stderr)")
    let outcome = try run(probe, [dir.path], timeout: 10)
    #expect(outcome.status == 42, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("splashd: guarded was cut short while it was shown"), "\(outcome.stderr)")
  }
}
