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

@Suite struct CheckAndHelpTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  @Test func sampleConfigPassesCheck() throws {
    let outcome = try splashd(["--config", packageRoot + "/Config/splashd.conf", "--check"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("transition = doors"))
    #expect(outcome.stdout.contains("splashd-demo.png"))
  }

  @Test func checkPrintsResolvedSettingsWithCommandLineOverridingTheFile() throws {
    let image = dir.solidPNG("door.png", width: 40, height: 30, rgb: (1, 2, 3))
    let config = dir.file(
      "c.conf",
      "[splash]\nimage = door.png\ntransition = crossfade\nhold = 4\nrotate = 90 ; portrait\n"
        + "[handoff]\nexec = sh -c 'echo \"kiosk here\"' --url http://x\ntimeout = 12\n")
    let outcome = try splashd(["--config", config, "--hold", "2", "--size=800x480", "--check"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("image = \(URL(fileURLWithPath: image).resolvingSymlinksInPath().path)")
        || lines.contains("image = \(image)"))
    #expect(lines.contains("transition = crossfade"))
    #expect(lines.contains("duration = 0.5"))
    #expect(lines.contains("hold = 2"))
    #expect(lines.contains("rotate = 90"))
    #expect(lines.contains("size = 800x480"))
    #expect(lines.contains("; logical canvas 480x800"))
    #expect(lines.contains("; splash picture 40x30 PNG, opaque, 0 megapixels, 0 MiB to decode"), "\(lines)")
    #expect(lines.contains("exec = sh -c 'echo \"kiosk here\"' --url http://x"), "\(lines)")
    #expect(
      lines.contains { $0.hasPrefix("; program: ") && $0.hasSuffix("/sh, run after the splash (\(config):7: exec)") })
    #expect(lines.contains("; config file: \(config)"))
    #expect(lines.contains("timeout = 12"))
  }

  /// Pictures made for a shape are taken when the logical canvas has it:
  /// the display's size turned by the angle.
  @Test func thePictureForTheCanvasShapeIsTaken() throws {
    let wide = dir.solidPNG("wide.png", width: 40, height: 30, rgb: (9, 9, 9))
    let tall = dir.solidPNG("tall.png", width: 30, height: 40, rgb: (7, 7, 7))
    let leaf = dir.solidPNG("leaf.png", width: 15, height: 40, rgb: (5, 5, 5))
    let config = dir.file(
      "shaped.conf", "[splash]\nimage = \(wide)\nleft-portrait = \(leaf)\nright-portrait = \(leaf)\n")
    func pictures(_ arguments: [String]) throws -> [String] {
      let outcome = try splashd(["--config", config, "--check"] + arguments, in: dir)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      // Each picture's line up to its decoded cost: name, size, format, opacity.
      return outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("; ") && $0.contains(" picture ") }.map {
        $0.split(separator: ", ").prefix(2).joined(separator: ", ")
      }
    }
    let (leftLeaf, rightLeaf) = ("; left picture 15x40 PNG, opaque", "; right picture 15x40 PNG, opaque")
    #expect(try pictures(["--size", "800x480"]) == ["; splash picture 40x30 PNG, opaque"])
    #expect(try pictures(["--size", "480x800"]) == [leftLeaf, rightLeaf])
    #expect(try pictures(["--size", "800x480", "--rotate", "90"]) == [leftLeaf, rightLeaf])
    // Half a pair, or a picture and leaves for the same shape, is refused by name.
    let half = try splashd(["--left-landscape", leaf, "--check"], in: dir)
    #expect(half.status == 2)
    #expect(
      half.stderrLines == ["splashd: --left-landscape needs --right-landscape: the doors take a left and a right leaf"])
    let both = try splashd(
      ["--image-portrait", tall, "--left-portrait", leaf, "--right-portrait", leaf, "--check"], in: dir)
    #expect(
      both.stderrLines == [
        "splashd: --image-portrait cannot be combined with --left-portrait/--right-portrait: give one picture or two leaves"
      ])
  }

  @Test func helpAndVersion() throws {
    let help = try splashd(["--help"], in: dir)
    #expect(help.status == 0)
    for option in [
      "--image", "--left", "--right", "--background", "--transition", "--duration", "--hold", "--easing",
      "--rotate", "--fit", "--display", "--device", "--mode", "--size", "--record", "--fps", "--config", "--check",
      "--version", "kmsdrm",
      "Exit status",
    ] {
      #expect(help.stdout.contains(option), "--help does not mention \(option)")
    }
    let version = try splashd(["--version"], in: dir)
    #expect(version.status == 0)
    let lines = version.stdout.split(separator: "\n")
    #expect(lines.first == "splashd 0.1.0", "\(version.stdout)")
    #expect(lines.count == 2 && lines[1].hasPrefix("SDL2 2.") && lines[1].contains(", SDL2_image 2."))
    #expect(lines.last?.contains(", libpng 1.") == true)
    #expect(try splashd(["-V"], in: dir).stdout == version.stdout)
    #expect(try splashd(["-h"], in: dir).stdout == help.stdout)
  }
}

@Suite struct RecordTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  func files(in path: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
    }
    return result
  }

  @Test func recordWritesEveryFrameAndTheCSV() throws {
    let out = dir.path + "/frames"
    let outcome = try splashd(
      ["--record", out, "--size", "160x90", "--fps", "30", "--hold", "0.2", "--duration", "0.5"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let csv = try String(contentsOfFile: out + "/frames.csv", encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(csv.first == "frame,time_s,phase,progress")
    // 0 … 0.7 s at 30 fps: frames 0 … 20 (t = 20/30 = 0.6667) and the end frame at 0.7.
    #expect(csv.count == 1 + 22)
    #expect(csv[1] == "0,0.000000,hold,0.000000")
    #expect(csv[7].hasPrefix("6,0.200000,transition,0.000000"))
    #expect(csv.last == "21,0.700000,transition,1.000000")
    let pngs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
    #expect(pngs.count == 22)
    #expect(pngs.first == "frame-00000.png" && pngs.last == "frame-00021.png")
  }

  @Test func recordingTwiceIsByteIdentical() throws {
    let image = dir.file(
      "p.png", makePNG(width: 90, height: 50) { x, y in (UInt8(x * 2), UInt8(y * 5), UInt8((x + y) & 0xFF)) })
    let args = [
      "--image", image, "--size", "120x80", "--rotate", "90", "--transition", "crossfade", "--duration", "0.3",
    ]
    #expect(try splashd(args + ["--record", dir.path + "/a"], in: dir).status == 0)
    #expect(try splashd(args + ["--record", dir.path + "/b"], in: dir).status == 0)
    let a = try files(in: dir.path + "/a")
    let b = try files(in: dir.path + "/b")
    #expect(a.count == 20)  // 19 frames (0 … 0.3 s at 60 fps) and frames.csv
    #expect(a == b)
    // The frames really change over the transition.
    #expect(a["frame-00000.png"] != a["frame-00018.png"])
  }

  /// The first write that fails ends a recording at once, naming the file
  /// (here frame 3 is a link to /dev/full: no space left on the device).
  @Test func aWriteThatFailsStopsTheRecording() throws {
    let out = dir.path + "/full"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: out + "/frame-00003.png", withDestinationPath: "/dev/full")
    let outcome = try splashd(["--record", out, "--size", "32x32", "--duration", "0.5"], in: dir)
    #expect(outcome.status == 1)
    #expect(outcome.stderrLines == ["splashd: --record \(out)/frame-00003.png: no space left on device"])
    for frame in 0..<3 {
      let size = try FileManager.default.attributesOfItem(atPath: out + "/frame-0000\(frame).png")[.size] as? Int
      #expect((size ?? 0) > 0, "frame \(frame)")
    }
    #expect(!FileManager.default.fileExists(atPath: out + "/frame-00004.png"))
    #expect(!FileManager.default.fileExists(atPath: out + "/frames.csv"))
  }

  @Test func offscreenPlaybackLogsTheLifecycle() throws {
    let outcome = try splashd(
      ["--display", "offscreen", "--size", "64x64", "--hold", "0.3", "--duration", "0.2"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stderrLines
    let appeared = lines.firstIndex { $0.hasPrefix("splashd: appeared: first frame shown at monotonic ") }
    let will = lines.firstIndex { $0.hasPrefix("splashd: will-disappear") }
    let did = lines.firstIndex { $0.hasPrefix("splashd: did-disappear") }
    #expect(appeared != nil && will != nil && did != nil)
    if let appeared, let will, let did { #expect(appeared < will && will < did) }
  }
}
