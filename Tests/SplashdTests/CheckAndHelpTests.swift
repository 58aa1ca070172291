// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

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
