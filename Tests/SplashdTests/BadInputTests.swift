// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

@Suite struct BadInputTests {
  let dir: TemporaryDirectory
  let good: String

  init() throws {
    dir = try TemporaryDirectory()
    good = dir.solidPNG("good.png", width: 64, height: 36, rgb: (10, 20, 30))
  }

  /// Each case: arguments, the text the one stderr line must contain.
  func cases() throws -> [(args: [String], mentions: [String])] {
    let whole = makePNG(width: 64, height: 36) { x, y in (UInt8(x), UInt8(y), 7) }
    let truncated = dir.file("truncated.png", whole.prefix(whole.count / 2))
    let empty = dir.file("empty.png", Data())
    let text = dir.file("notes.png", "this is not a picture\n")
    let huge = dir.file("huge.png", pngHeaderOnly(width: 20000, height: 100))
    let tall = dir.file("tall.png", pngHeaderOnly(width: 10, height: 16385))
    let badRotate = dir.file("rotate.conf", "[splash]\nhold = 1\nrotate = 45\n")
    let badSection = dir.file("section.conf", "; comment\n[display]\nsize = 10x10\n")
    let badKey = dir.file("key.conf", "[splash]\n\nfps = 30\nspeed = 2\n")
    let junk = dir.file("junk.conf", "[splash]\nthis line has no equals sign\n")
    let outside = dir.file("outside.conf", "image = a.png\n")
    let missingImage = dir.file("missing.conf", "[splash]\nimage = nowhere.png\n")
    return [
      (["--image", dir.path + "/absent.png"], ["--image", "absent.png", "no such file"]),
      (["--image", dir.path], ["--image", "is a directory"]),
      (["--image", text], ["--image", "notes.png", "not a picture"]),
      (["--image", truncated], ["--image", "truncated.png", "cut short"]),
      (["--image", empty], ["--image", "empty.png", "empty (0 bytes)"]),
      (["--image", huge], ["--image", "huge.png", "20000x100", "16384"]),
      (["--image", tall], ["--image", "tall.png", "10x16385"]),
      (["--background", text], ["--background", "notes.png"]),
      (["--bogus"], ["unknown option --bogus"]),
      (["--image", good, "stray"], ["unexpected argument \"stray\""]),
      (["--rotate", "45"], ["--rotate", "0, 90, 180, 270 or auto", "\"45\""]),
      (["--duration", "-1"], ["--duration", "seconds", "\"-1\""]),
      (["--duration", "soon"], ["--duration", "\"soon\""]),
      (["--hold", "-0.5"], ["--hold", "\"-0.5\""]),
      (["--fps", "0"], ["--fps", "\"0\""]),
      (["--background", "#12345"], ["--background", "#RRGGBB", "\"#12345\""]),
      (["--background", "#GGHHII"], ["--background", "#RRGGBB"]),
      (["--easing", "wobbly"], ["--easing", "cubic-bezier", "\"wobbly\""]),
      (["--easing", "cubic-bezier(0.5,0,1.5,1)"], ["--easing", "X1 and X2 in 0…1"]),
      (["--size", "big"], ["--size", "WIDTHxHEIGHT", "\"big\""]),
      (["--size", "1920x0"], ["--size", "\"1920x0\""]),
      (["--left", good], ["--left needs --right"]),
      (["--right", good], ["--right needs --left"]),
      (["--image", good, "--left", good, "--right", good], ["--image cannot be combined"]),
      (["--image"], ["--image needs a value"]),
      (["--timeout", "-1"], ["--timeout", "seconds from 0 (no limit)", "\"-1\""]),
      (["--until-file", ""], ["--until-file", "a file name"]),
      (["--config", badRotate], ["rotate.conf:3:", "rotate", "\"45\""]),
      (["--config", badSection], ["section.conf:2:", "unknown section [display]"]),
      (["--config", badKey], ["key.conf:4:", "speed", "unknown setting"]),
      (["--config", junk], ["junk.conf:2:", "key = value"]),
      (["--config", outside], ["outside.conf:1:", "[splash]"]),
      (["--config", missingImage], ["missing.conf:2: image", "nowhere.png", "no such file"]),
      (["--config", dir.path + "/absent.conf"], ["--config", "absent.conf", "no such file"]),
    ]
  }

  @Test func everyBadInputGetsOneClearLineAndExitTwo() throws {
    for (args, mentions) in try cases() {
      // --check keeps good inputs from playing; bad ones must fail before it matters.
      let outcome = try splashd(args + ["--check"], in: dir, timeout: 20)
      #expect(outcome.status == 2, "\(args): exit \(outcome.status), stderr: \(outcome.stderr)")
      #expect(outcome.stderrLines.count == 1, "\(args): stderr was \(outcome.stderr)")
      #expect(outcome.stdout.isEmpty, "\(args): stdout was \(outcome.stdout)")
      for text in mentions {
        #expect(outcome.stderr.contains(text), "\(args): \"\(outcome.stderr)\" does not mention \(text)")
      }
      #expect(outcome.stderr.hasPrefix("splashd: "))
    }
  }

  @Test func badInputFailsTheSameWayWithoutCheck() throws {
    // The same validation guards a real run: no display is opened, nothing is written.
    let out = dir.path + "/never"
    let outcome = try splashd(["--image", dir.path, "--record", out], in: dir)
    #expect(outcome.status == 2)
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func recordIntoAPathThatCannotBeADirectory() throws {
    let outcome = try splashd(["--record", good + "/frames", "--size", "32x32"], in: dir)
    #expect(outcome.status == 2)
    #expect(outcome.stderrLines == ["splashd: --record \(good)/frames: cannot create the directory: not a directory"])
  }

  /// `auto` passes over each back end that cannot open, says why, and
  /// plays on the next: here a desktop whose X server is not there, then a
  /// "framebuffer" that is a regular file, then offscreen.
  @Test func autoTriesEachBackEndInTurn() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = ":4242"
    environment["WAYLAND_DISPLAY"] = nil
    let outcome = try splashd(
      ["--device", good, "--size", "32x32", "--duration", "0", "--image", good], in: dir, environment: environment)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stderrLines
    #expect(
      lines.first == "splashd: display window: SDL_InitSubSystem(video) with the x11 driver: x11 not available; "
        + "trying fbdev", "\(lines)")
    #expect(lines.dropFirst().first == "splashd: display fbdev: \(good): not a framebuffer device; trying offscreen")
    #expect(lines.contains { $0.hasPrefix("splashd: offscreen: ") && $0.hasSuffix(" frames, 0 skipped") }, "\(lines)")
  }

  @Test func kmsWithANonCardDeviceExitsOne() throws {
    let outcome = try splashd(["--display", "kmsdrm", "--device", good, "--image", good], in: dir)
    #expect(outcome.status == 1)
    #expect(outcome.stderrLines == ["splashd: --display kmsdrm: --device \(good): not a DRM card (/dev/dri/cardN)"])
  }

  @Test func windowWithoutADesktopExitsOne() throws {
    let outcome = try splashd(["--display", "window", "--image", good], in: dir)
    #expect(outcome.status == 1)
    #expect(
      outcome.stderrLines == ["splashd: --display window: no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)"])
  }
}
