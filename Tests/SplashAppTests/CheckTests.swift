// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

@testable import SplashApp

/// `--check`: everything resolved, nothing opened, nothing run.
@Suite struct CheckTests {
  /// The package's root directory (holds Config/ and README.md).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  @Test func saysWhichConfigFileItReadAndWhichBackEndsAutoWouldTry() throws {
    let splash = try Harness()
    splash.backEnds = [WindowOutput.backEnd, brokenBackEnd, OffscreenOutput.backEnd]
    #expect(splash.run(["--check"]) == .exit(0))
    let lines = splash.printed.split(separator: "\n").map(String.init)
    #expect(lines.contains("; config file: \(splash.dir.testConfig)"))
    #expect(lines.contains("; program: none"))
    #expect(lines.contains("; control socket: none"))
    let auto = lines.drop { $0 != "; display auto tries, in order:" }.dropFirst().prefix(3)
    #expect(
      Array(auto) == [
        ";   window: skipped: no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)",
        ";   broken: tried: always tried", ";   offscreen: tried: renders in memory",
      ])
  }

  @Test func printsEveryHandoffKeyAndTheProgramItFound() throws {
    let splash = try Harness()
    let config = splash.dir.file(
      "h.conf", "[handoff]\nexec = sh -c 'echo hi'\nready = notify\ncontrol = /run/x/control\ncontrol-group = kiosk\n")
    #expect(splash.run(["--config", config, "--check", "--until-reveal"]) == .exit(0))
    let lines = splash.printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let handoff = lines.drop { $0 != "[handoff]" }.dropFirst().prefix { !$0.isEmpty }
    #expect(
      Array(handoff) == [
        "exec = sh -c 'echo hi'", "; user: not set", "; group: not set", "pass-environment = none", "ready = notify",
        "host = none",
        "xwayland = no", "gpu = yes", "screens = mirror", "; keyboard: not set", "keyboard-popup = signals",
        "; until-file: not set",
        "until-reveal = yes",
        "keep-last-frame = no", "restart-window = 30", "restart = no", "restart-limit = 5", "hang-timeout = 0",
        "timeout = 30",
        "control = /run/x/control", "control-group = kiosk", "; metrics-file: not set", "compat = none",
        "plymouth-socket = /org/freedesktop/plymouthd", "plymouth-pid-file = /run/plymouth/pid",
        "prompt-tty = auto",
      ])
    #expect(lines.contains("; program: /usr/bin/sh, spawned first (ready = notify) (\(config):2: exec)"))
    #expect(lines.contains("; control socket: /run/x/control"))
  }

  @Test func aProgramThatCannotRunIsAnErrorNamingIt() throws {
    let missing = try Harness()
    #expect(missing.run(["--check", "--", "no-such-program-anywhere"]) == .exit(2))
    #expect(
      missing.lines == [
        "splashd: the program after --: cannot run no-such-program-anywhere: not found (looked in PATH)"
      ])
    let plain = try Harness()
    let text = plain.dir.file("plain.txt", "not a program\n")
    let config = plain.dir.file("p.conf", "[handoff]\nexec = \(text) --flag\n")
    #expect(plain.run(["--config", config, "--check"]) == .exit(2))
    #expect(plain.lines == ["splashd: \(config):2: exec: cannot run \(text): is not executable"])
  }

  @Test func theDefaultConfigIsReadWhenThereIsOneAndSaidWhenNot() throws {
    let splash = try Harness()
    #expect(splash.run(["--config", splash.dir.testConfig, "--check"]) == .exit(0))
    let none = try Harness()
    var dependencies = Dependencies(
      clock: none.clock, environment: [:], log: Log { _ in }, defaultConfig: none.dir.path + "/absent.conf",
      print: { _ in })
    var printed = ""
    dependencies.print = { printed += $0 }
    #expect(Splashd.run(["--check"], dependencies) == .exit(0))
    #expect(printed.contains("; config file: none (\(none.dir.path)/absent.conf does not exist)\n"))
    let present = none.dir.file("default.conf", "[splash]\nhold = 7\n")
    dependencies.defaultConfig = present
    printed = ""
    #expect(Splashd.run(["--check"], dependencies) == .exit(0))
    #expect(printed.contains("; config file: \(present)\n") && printed.contains("\nhold = 7\n"))
  }

  /// The sample config passes, and what --check prints is itself a config
  /// file that gives the same --check.
  @Test func theSampleConfigPassesAndTheOutputReadsBackTheSame() throws {
    let splash = try Harness()
    #expect(
      splash.run(["--config", Self.packageRoot + "/Config/splashd.conf", "--check"]) == .exit(0), "\(splash.lines)")
    let first = splash.printed
    #expect(first.contains("transition = doors") && first.contains("splashd-demo.png"))
    let again = try Harness()
    let reread = again.dir.file("reread.conf", first)
    #expect(again.run(["--config", reread, "--check"]) == .exit(0), "\(again.lines)")
    let settingsPart = { (text: String) in text.components(separatedBy: "\n; config file:").first ?? "" }
    #expect(settingsPart(again.printed) == settingsPart(first))
  }

  /// The pictures' memory is budgeted from their headers, before anything
  /// is decoded, for all of them together; --check says what each costs.
  @Test func picturesAreBudgetedBeforeTheyAreDecoded() throws {
    let splash = try Harness()
    let huge = splash.dir.file("huge.png", pngHeaderOnly(width: 6000, height: 6000))
    #expect(splash.run(["--image", huge, "--check"]) == .exit(2))
    #expect(
      splash.lines == [
        "splashd: --image \(huge): picture is 6000x6000 PNG (36 megapixels, 137.3 MiB to decode); the pictures may "
          + "take 32 megapixels (122.1 MiB) in all (--max-megapixels)"
      ])
    let two = try Harness()
    let door = two.dir.solidPNG("door.png", width: 1000, height: 1000, rgb: (1, 2, 3))
    let back = two.dir.solidPNG("back.png", width: 1200, height: 1000, rgb: (4, 5, 6))
    #expect(two.run(["--image", door, "--background", back, "--max-megapixels", "2", "--check"]) == .exit(2))
    #expect(
      two.lines == [
        "splashd: --background \(back): picture is 1200x1000 PNG (1.2 megapixels, 4.6 MiB to decode); the pictures "
          + "may take 2 megapixels (7.6 MiB) in all (--max-megapixels); 1 megapixels of them are left"
      ])
    let fits = try Harness()
    let small = fits.dir.solidPNG("door.png", width: 1000, height: 1000, rgb: (1, 2, 3))
    #expect(fits.run(["--image", small, "--max-megapixels", "2", "--check"]) == .exit(0))
    #expect(fits.printed.contains("; splash picture 1000x1000 PNG, opaque, 1 megapixels, 3.8 MiB to decode\n"))
    #expect(
      fits.printed.contains("; decoding the pictures takes 3.8 MiB of the 7.6 MiB they may take (--max-megapixels)\n"))
  }

  /// The README's synopsis is the one the settings table makes.
  @Test func theReadmeSynopsisListsEveryOption() throws {
    let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
    #expect(
      readme.contains("```\n" + Splashd.synopsis() + "\n```\n"),
      "README.md's synopsis should be:\n\(Splashd.synopsis())")
  }
}
