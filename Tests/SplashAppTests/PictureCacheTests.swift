// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// The prepared-picture cache, through whole runs: a warm start draws the
/// same frames as a cold one without decoding, and no cache file that is
/// stale, damaged, foreign or untrusted is ever drawn from.
@Suite struct PictureCacheTests {
  /// A picture with a gradient (so that scaling and turning show) and a
  /// background, turned a quarter: every kind of preparation.
  func pictures(_ splash: Harness) throws -> [String] {
    let image = splash.dir.file(
      "splash.png", makePNG(width: 90, height: 50) { x, y in (UInt8(x * 2), UInt8(y * 5), 200) })
    let background = splash.dir.solidPNG("background.png", width: 7, height: 9, rgb: (10, 220, 30))
    return ["--image", image, "--background", background, "--rotate", "90", "--transition", "crossfade"]
  }

  /// Records a short splash into `name`; returns the frames' bytes.
  func record(_ splash: Harness, _ arguments: [String], into name: String) throws -> [Data] {
    let folder = splash.dir.path + "/" + name
    #expect(
      splash.run(["--record", folder, "--size", "64x48", "--fps", "10", "--duration", "0.2"] + arguments) == .exit(0))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
    #expect(names.count == 3)
    return try names.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) }
  }

  func cacheFiles(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".prepared") }
      .sorted().map { folder + "/" + $0 }
  }

  func cacheLines(_ splash: Harness) -> [String] { splash.lines.filter { $0.contains("cache: ") } }

  /// Shows the splash once, offscreen at the recordings' size; returns the
  /// cache lines it logged (a recording says only what goes wrong).
  func play(_ splash: Harness, _ arguments: [String]) -> [String] {
    let before = splash.lines.count
    #expect(splash.run(["--display", "offscreen", "--size", "64x48", "--duration", "0"] + arguments) == .exit(0))
    let lines = Array(splash.lines.dropFirst(before))
    #expect(lines.contains { $0.hasPrefix("splashd: appeared: first frame shown") })
    return lines.filter { $0.contains("cache: ") }
  }

  func inode(_ path: String) -> UInt {
    var info = stat()
    return stat(path, &info) == 0 ? UInt(info.st_ino) : 0
  }

  @Test func aWarmStartDrawsTheSameFramesAsAColdOne() throws {
    let splash = try Harness()
    let arguments = try pictures(splash)
    let cold = try record(splash, arguments, into: "cold")
    let files = cacheFiles(splash.dir.cache)
    #expect(files.count == 1)
    #expect(cacheLines(splash).isEmpty)
    let written = inode(files[0])
    let warm = try record(splash, arguments, into: "warm")
    #expect(warm == cold)
    // Read, not prepared and written again (a new file would be a new inode).
    #expect(inode(files[0]) == written)
    #expect(play(splash, arguments) == ["splashd: offscreen: cache: prepared pictures from \(files[0])"])
    // And the same as with no cache at all.
    #expect(try record(splash, arguments + ["--cache", "none"], into: "none") == cold)
  }

  /// Damage of each kind: the file is said to be unusable, the frames are
  /// those of a cold start, and a good file takes its place.
  @Test(arguments: ["header", "truncated", "foreign", "other key", "untrusted"])
  func aDamagedCacheFileIsNotUsedAndIsReplaced(damage: String) throws {
    let splash = try Harness()
    let arguments = try pictures(splash)
    let cold = try record(splash, arguments, into: "cold")
    let file = try #require(cacheFiles(splash.dir.cache).first)
    let good = try Data(contentsOf: URL(fileURLWithPath: file))
    var bytes = good
    let expected: String
    switch damage {
    case "header":
      bytes[PreparedCacheFile.fixedHeaderLength + 3] ^= 0x01
      expected = "its header's checksum does not match"
    case "truncated":
      bytes = bytes.prefix(bytes.count - 4096)
      expected = "it is \(good.count - 4096) bytes long, its header says \(good.count)"
    case "foreign":
      bytes = Data(repeating: 0x5A, count: 20000)
      expected = "not a splashd cache file"
    case "other key":
      // A whole, valid file made for another display, under this one's name.
      _ = try record(splash, arguments + ["--rotate", "0"], into: "other")
      let other = try #require(cacheFiles(splash.dir.cache).first { $0 != file })
      bytes = try Data(contentsOf: URL(fileURLWithPath: other))
      expected = "made for other pictures or another display"
    default:
      #expect(chmod(file, 0o666) == 0)
      expected = "not trusted: owned by uid \(geteuid()) or writable by others"
    }
    if damage != "untrusted" { try bytes.write(to: URL(fileURLWithPath: file)) }
    let again = try record(splash, arguments, into: "again")
    #expect(again == cold)
    #expect(cacheLines(splash) == ["splashd: offscreen: cache: \(file): \(expected); preparing the pictures again"])
    // Replaced by a good one, which the next start uses.
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == good)
    #expect(play(splash, arguments) == ["splashd: offscreen: cache: prepared pictures from \(file)"])
  }

  /// A picture rewritten in place, same size and same modification time
  /// (as a tool that keeps times would leave it), is never shown from the
  /// copy prepared before; that copy is replaced.
  @Test func aChangedPictureIsNeverShownFromTheOldCache() throws {
    let splash = try Harness()
    let image = splash.dir.solidPNG("splash.png", width: 40, height: 30, rgb: (255, 0, 0))
    let arguments = ["--image", image, "--transition", "crossfade"]
    var before = stat()
    #expect(stat(image, &before) == 0)
    let red = try record(splash, arguments, into: "red")
    let old = cacheFiles(splash.dir.cache)
    #expect(old.count == 1)
    // The same file (same inode), new contents of the same length, old time back.
    let blue = makePNG(width: 40, height: 30) { _, _ in (0, 0, 255) }
    #expect(blue.count == (try Data(contentsOf: URL(fileURLWithPath: image))).count)
    let fd = open(image, O_WRONLY)
    #expect(blue.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == blue.count)
    var times = [before.st_atim, before.st_mtim]
    #expect(futimens(fd, &times) == 0)
    close(fd)
    var after = stat()
    #expect(stat(image, &after) == 0)
    #expect(after.st_ino == before.st_ino && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    let shown = try record(splash, arguments, into: "blue")
    #expect(shown != red)
    #expect(try record(splash, arguments + ["--cache", "none"], into: "blue-cold") == shown)
    let now = cacheFiles(splash.dir.cache)
    #expect(now.count == 1 && now != old)
  }

  /// A cache folder that cannot be written (the first: /proc takes no
  /// folders, even from root) is passed over, the splash shows, and the
  /// next folder takes the pictures; with none writable, one line and the
  /// splash as without a cache.
  @Test func anUnwritableCacheFolderStillShowsTheSplash() throws {
    let splash = try Harness()
    let arguments = try pictures(splash)
    let fallback = splash.dir.path + "/run-cache"
    let folders = ["--cache", "/proc/splashd-cache \(fallback)"]
    let first = play(splash, arguments + folders)
    let files = cacheFiles(fallback)
    #expect(files.count == 1)
    #expect(first == ["splashd: offscreen: cache: prepared pictures written to \(files.first ?? "")"])
    #expect(
      play(splash, arguments + folders) == ["splashd: offscreen: cache: prepared pictures from \(files.first ?? "")"])
    let said = play(splash, arguments + ["--cache", "/proc/splashd-cache"])
    #expect(said.count == 1)
    #expect(
      said.first?.hasPrefix("splashd: offscreen: cache: cannot write the prepared pictures: /proc/splashd-cache: ")
        == true, "\(said)")
    let unwritable = try record(splash, arguments + ["--cache", "/proc/splashd-cache"], into: "unwritable")
    #expect(try record(splash, arguments + ["--cache", "none"], into: "off") == unwritable)
  }

  @Test func checkSaysWhetherTheCacheIsWarm() throws {
    let splash = try Harness()
    let arguments = try pictures(splash)
    #expect(splash.run(["--check", "--size", "64x48"] + arguments) == .exit(0))
    #expect(
      splash.printed.contains(
        "; cache: cold: no prepared pictures for these pictures in \(splash.dir.cache) (splashd --prepare fills it)"))
    _ = try record(splash, arguments, into: "rec")
    let file = try #require(cacheFiles(splash.dir.cache).first)
    #expect(splash.run(["--check", "--size", "64x48"] + arguments) == .exit(0))
    #expect(
      splash.printed.contains("; cache: warm for 1 display:\n;   \(file): 64x48 SDL_PIXELFORMAT_RGB888 rotate 90\n"))
  }

  /// `--prepare` fills the cache for every angle of `rotate = auto`
  /// without drawing; a start at any of them is then warm.
  @Test func prepareFillsTheCacheForEveryAngle() throws {
    let splash = try Harness()
    let image = splash.dir.file("splash.png", makePNG(width: 30, height: 20) { x, _ in (UInt8(x * 8), 0, 0) })
    #expect(
      splash.run([
        "--prepare", "--display", "offscreen", "--size", "64x48", "--image", image, "--rotate", "auto",
      ]) == .exit(0))
    let files = cacheFiles(splash.dir.cache)
    #expect(files.count == 4)
    #expect(splash.printed == files.map { "prepared: \($0)\n" }.joined())
    #expect(!splash.lines.contains { $0.hasPrefix("splashd: appeared") })
    for angle in ["0", "90", "180", "270"] {
      #expect(
        splash.run([
          "--display", "offscreen", "--size", "64x48", "--image", image, "--rotate", angle, "--duration", "0",
        ]) == .exit(0))
      #expect(cacheLines(splash).last?.contains("prepared pictures from ") == true, "rotate \(angle)")
    }
    #expect(cacheFiles(splash.dir.cache) == files)
  }
}
