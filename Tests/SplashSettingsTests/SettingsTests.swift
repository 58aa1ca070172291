// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

@Suite struct SettingsTests {
  func settings(_ pairs: [(String, String)]) throws(SettingsError) -> Settings {
    var s = Settings()
    for (k, v) in pairs { try s.apply(key: k, value: v, from: .commandLine) }
    try s.validate()
    return s
  }

  func message(_ pairs: [(String, String)]) -> String? {
    do {
      _ = try settings(pairs)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func defaults() throws {
    let s = try settings([]).splash
    #expect(s.transition == .doors && s.effectiveDuration == 1.2)
    #expect(s.easing == .easeInOut && s.hold == 0 && s.fit == .cover && s.rotate == .fixed(.none))
    #expect(s.background == .color(.black) && s.fps == 60 && s.display == "auto")
    #expect(try settings([("transition", "crossfade")]).splash.effectiveDuration == 0.5)
    #expect(try settings([("transition", "crossfade"), ("duration", "2")]).splash.effectiveDuration == 2)
  }

  @Test func parsesEveryValueKind() throws {
    let all = try settings([
      ("image", "a.png"), ("background", "#0a0B0c"), ("duration", ".75"), ("hold", "3"),
      ("easing", "cubic-bezier(0.1, -0.5, 0.9,1.5)"), ("rotate", "270"), ("fit", "contain"),
      ("display", "offscreen"), ("size", "800x480"), ("record", "out"), ("fps", "29.97"),
      ("until-reveal", "yes"), ("timeout", "0"), ("ready", "notify"),
    ])
    let s = all.splash
    #expect(s.background == .color(Color(red: 10, green: 11, blue: 12)))
    #expect(s.duration == 0.75 && s.hold == 3 && s.rotate == .fixed(.threeQuarters) && s.fit == .contain)
    #expect(s.easing == .cubicBezier(CubicBezier(0.1, -0.5, 0.9, 1.5)))
    #expect(s.size == PixelSize(width: 800, height: 480) && s.fps == 29.97 && s.record == "out")
    #expect(all.handoff.untilReveal && all.handoff.timeout == 0 && all.handoff.ready == .notify)
    #expect(try settings([("rotate", "auto")]).splash.rotate == .auto)
  }

  @Test(arguments: [
    ("rotate", "45", "--rotate: expected 0, 90, 180, 270 or auto, got \"45\""),
    ("duration", "-1", "--duration: expected a number of seconds"),
    ("duration", "1e3", "--duration: expected a number of seconds"),
    ("hold", "abc", "--hold: expected a number of seconds"),
    ("hold", "inf", "--hold: expected a number of seconds"),
    ("fps", "0", "--fps: expected frames per second above 0"),
    // Above 0, but printed (6 decimals) as 0, which would not read back.
    ("fps", "0.0000000002", "--fps: expected frames per second above 0"),
    ("animation-fps", "0.0000000001996011119", "--animation-fps: expected frames per second above 0"),
    ("message-size", "0.0000001", "--message-size: expected a fraction above 0"),
    ("restart", "sometimes", "--restart: expected no, on-failure or always"),
    ("restart-limit", "0", "--restart-limit: expected a whole number from 1 to 1000"),
    ("background", "#12345", "--background: expected #RRGGBB, #RGB or a picture file"),
    ("background", "#GG0000", "--background: expected #RRGGBB, #RGB or a picture file"),
    ("background", "red", "--background: expected #RRGGBB, #RGB or a picture file, got \"red\""),
    ("easing", "bounce", "--easing: expected linear, ease-in"),
    ("easing", "cubic-bezier(1.5,0,0.5,1)", "--easing: expected linear"),
    ("easing", "cubic-bezier(0,0,1)", "--easing: expected linear"),
    ("size", "1920", "--size: expected WIDTHxHEIGHT"),
    ("size", "0x10", "--size: expected WIDTHxHEIGHT"),
    ("size", "20000x10", "--size: expected WIDTHxHEIGHT"),
    ("size", "4000x2160", "--size: expected WIDTHxHEIGHT, each from 1 to 16384 and at most 3840x2160's 8294400 pixels"),
    ("max-megapixels", "0", "--max-megapixels: expected a whole number of megapixels from 1 to 256"),
    ("max-megapixels", "257", "--max-megapixels: expected a whole number of megapixels from 1 to 256"),
    ("transition", "wipe", "--transition: expected doors or crossfade"),
    ("fit", "fill", "--fit: expected cover, contain, stretch or center"),
    ("display", "Window!", "--display: expected a back end's name or auto"),
    ("mode", "1280x800@", "--mode: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60"),
    ("mode", "1280@60", "--mode: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60"),
    ("image", "", "--image: expected a file name"),
    ("until-reveal", "maybe", "--until-reveal: expected yes or no"),
    ("hold", "1\u{1B}[2J", "--hold: expected a number of seconds from 0 to 86400, got \"1\\x1B[2J\""),
  ])
  func badValuesNameTheOptionAndTheExpectation(key: String, value: String, expected: String) {
    let got = message([(key, value)])
    #expect(got?.hasPrefix(expected) == true, "got \(got ?? "no error")")
  }

  /// `cache`: folders, `none`, and no quotes inside a folder's name (the
  /// settings fuzzer found `"x" ` printing as `"x"`, which reads back as x).
  @Test func cacheFolders() throws {
    #expect(try settings([]).splash.cache == ["/var/cache/splashd", "/run/splashd"])
    #expect(try settings([("cache", "/a  /b")]).splash.cache == ["/a", "/b"])
    #expect(try settings([("cache", "\"/a /b\"")]).splash.cache == ["/a", "/b"])
    #expect(try settings([("cache", "none")]).splash.cache == [])
    let expected = "expected folders separated by spaces (without quotes in their names), or none"
    #expect(message([("cache", "\"/a\" ")]) == "--cache: \(expected), got \"\"/a\" \"")
    #expect(message([("cache", "/it's")]) == "--cache: \(expected), got \"/it's\"")
    #expect(message([("cache", " ")]) == "--cache: \(expected), got \" \"")
  }

  @Test func colours() throws {
    #expect(try settings([("background", "#F80")]).splash.background == .color(Color(red: 255, green: 136, blue: 0)))
    // A quoted value is unquoted, not taken for a picture's path.
    #expect(try settings([("background", "\"#000000\"")]).splash.background == .color(.black))
    #expect(try settings([("background", "'#102030'")]).splash.background.text == "#102030")
    #expect(try settings([("background", "backdrop.png")]).splash.background == .image("backdrop.png"))
  }

  @Test func crossChecks() {
    #expect(message([("left", "l.png")]) == "--left needs --right: the doors take a left and a right leaf")
    #expect(message([("right", "r.png")]) == "--right needs --left: the doors take a left and a right leaf")
    #expect(message([("image", "a"), ("left", "l"), ("right", "r")])?.hasPrefix("--image cannot be combined") == true)
    #expect(message([("record", "out"), ("display", "window")])?.hasPrefix("--record renders offscreen") == true)
  }

  @Test func configFileSourcesNameTheLineAndResolvePaths() {
    var s = Settings()
    let source = SettingSource.configFile(path: "/etc/splashd/splashd.conf", line: 7, directory: "/etc/splashd")
    #expect(throws: SettingsError("/etc/splashd/splashd.conf:7: rotate: expected 0, 90, 180, 270 or auto, got \"45\""))
    {
      try s.apply(key: "rotate", value: "45", from: source)
    }
    try? s.apply(key: "image", value: "door.png", from: source)
    #expect(s.splash.image == "/etc/splashd/door.png")
    #expect(s.origin(of: "image") == "/etc/splashd/splashd.conf:7: image")
    try? s.apply(key: "left", value: "/abs/l.png", from: source)
    #expect(s.splash.left == "/abs/l.png")
    try? s.apply(key: "exec", value: "bin/kiosk  --url http://localhost", from: source)
    #expect(s.handoff.program == ["/etc/splashd/bin/kiosk", "--url", "http://localhost"])
    try? s.apply(key: "exec", value: "kiosk", from: source)
    #expect(s.handoff.program == ["kiosk"])  // a bare name is looked up in PATH
    try? s.apply(key: "background", value: "#FFFFFF", from: source)
    #expect(s.splash.background == .color(Color(red: 255, green: 255, blue: 255)))
    // A missing leaf is named as the file spells keys.
    var leaves = Settings()
    try? leaves.apply(key: "right", value: "r.png", from: source)
    #expect(
      throws: SettingsError("/etc/splashd/splashd.conf:7: right needs left: the doors take a left and a right leaf")
    ) {
      try leaves.validate()
    }
  }

  /// `exec` takes shell-style words: quotes and backslashes, no expansion.
  @Test func execIsSplitLikeAShell() throws {
    #expect(try settings([("exec", "sh -c 'echo hi'")]).handoff.program == ["sh", "-c", "echo hi"])
    #expect(
      try settings([("exec", #"/opt/my\ app/kiosk --title "Main hall" --note "say \"hi\"" $HOME"#)]).handoff.program
        == ["/opt/my app/kiosk", "--title", "Main hall", "--note", #"say "hi""#, "$HOME"])
    #expect(
      message([("exec", "sh -c 'unclosed")])
        == "--exec: expected a program and its arguments (a ' quote is not closed), got \"sh -c 'unclosed\"")
    #expect(message([("exec", "  ")])?.hasPrefix("--exec: expected a program and its arguments") == true)
  }
}

@Suite struct ShellWordsTests {
  @Test(arguments: [
    ("a b  c", ["a", "b", "c"]),
    ("'a b' \"c d\"", ["a b", "c d"]),
    (#"a\ b"#, ["a b"]),
    (#""a\"b" 'x\y'"#, [#"a"b"#, #"x\y"#]),
    (#""\$x \n""#, [#"$x \n"#]),
    ("''", [""]),
    ("", []),
  ])
  func splits(line: String, words: [String]) throws {
    #expect(try splitShellWords(line).get() == words)
  }

  @Test func refusesUnclosedQuotesAndATrailingBackslash() {
    #expect(throws: ShellWordsProblem.unterminatedQuote("'")) { try splitShellWords("a 'b").get() }
    #expect(throws: ShellWordsProblem.unterminatedQuote("\"")) { try splitShellWords("a \"b").get() }
    #expect(throws: ShellWordsProblem.trailingBackslash) { try splitShellWords("a b\\").get() }
  }

  /// A quote followed by a combining mark is still a quote (found by the
  /// shell-words fuzzer: the line was read by characters, not scalars).
  @Test func quotesAreScalarsNotCharacters() throws {
    #expect(try splitShellWords("'\u{61A}a' b").get() == ["\u{61A}a", "b"])
    #expect(try splitShellWords(shellQuoted(["\u{61A}?!", "x y"])).get() == ["\u{61A}?!", "x y"])
  }

  @Test func quotingRoundTrips() throws {
    for words in [["kiosk", "--url", "http://x/?a=1&b=2"], ["sh", "-c", "echo 'hi' \"there\""], ["", "a b", "ü"]] {
      #expect(try splitShellWords(shellQuoted(words)).get() == words)
    }
    #expect(shellQuoted(["/usr/bin/kiosk-app", "--fullscreen"]) == "/usr/bin/kiosk-app --fullscreen")
  }
}

/// The table that declares every setting once drives the file, the command
/// line, --help and --check; these check that it is whole and consistent.
@Suite struct SettingsTableTests {
  @Test func everyKeyIsDeclaredOnceWithHelp() {
    let keys = SettingsTable.all.map(\.key)
    #expect(Set(keys).count == keys.count)
    for spec in SettingsTable.all {
      #expect(!spec.help.isEmpty, "\(spec.key) has no help")
      #expect(SettingsTable.spec(spec.key)?.key == spec.key)
    }
  }

  /// What --check prints reads back as the same settings.
  @Test func theConfigTextReadsBackAsTheSameSettings() throws {
    var original = Settings()
    let given: [(String, String)] = [
      ("image", "/a b/door.png"), ("background", "#102030"), ("transition", "crossfade"), ("duration", "0.25"),
      ("hold", "2.5"), ("easing", "cubic-bezier(0.2,0,0,1)"), ("rotate", "auto"), ("fit", "center"),
      ("display", "fbdev"), ("device", "/dev/fb1"), ("mode", "800x480@60"), ("size", "800x480"), ("fps", "30"),
      ("image-portrait", "/p.png"), ("exec", "sh -c 'echo \"hi\" there'"), ("ready", "notify"),
      ("until-file", "/run/ready"), ("until-reveal", "yes"), ("timeout", "12"), ("control", "/run/c"),
      ("control-group", "kiosk"), ("sources", "switch cmdline"), ("switch", "/dev/input/event5"),
      ("switch-map", "SW_TABLET_MODE=90, KEY_F13=180"), ("mount-matrix", "0, -1, 0; -1, 0, 0; 0, 0, 1"),
      ("settle", "1.5"), ("follow", "no"), ("cmdline", "/tmp/cmdline"), ("iio", "/sys/x"), ("panel", "/dev/dri/card1"),
      ("evdev", "/dev/input/event2"), ("progress", "12.5"), ("progress-rect", "0.1, 0.9, 0.8, 0.02"),
      ("progress-color", "#00FF00"), ("progress-track", "none"), ("message", "Starting… \"the\" kiosk"),
      ("message-font", "/f.ttf"), ("message-size", "0.05"), ("message-color", "#123456"),
      ("message-center", "0.5, 0.1"), ("animation", "/spin.gif"), ("animation-rect", "0, 0, 1, 1"),
      ("animation-fps", "12"),
    ]
    for (key, value) in given { try original.apply(key: key, value: value, from: .commandLine) }
    let text = SettingsTable.configText(original)
    var read = Settings()
    var section = ""
    for line in text.split(separator: "\n").map(String.init) where !line.hasPrefix(";") {
      if line.hasPrefix("[") {
        section = String(line.dropFirst().dropLast())
        continue
      }
      guard let equals = line.firstRange(of: " = ") else { continue }
      let fileKey = String(line[..<equals.lowerBound])
      let spec = SettingsSection(rawValue: section).flatMap { SettingsTable.spec(in: $0, fileKey: fileKey) }
      #expect(spec != nil, "\(fileKey) printed in [\(section)], where it does not belong")
      try read.apply(key: spec?.key ?? fileKey, value: String(line[equals.upperBound...]), from: .commandLine)
    }
    var expected = original
    expected.origins = [:]
    read.origins = [:]
    #expect(read == expected)
    // Every key is there, set or not.
    for spec in SettingsTable.all {
      #expect(
        text.contains("\n\(spec.fileKey) = ") || text.contains("\n; \(spec.fileKey): not set"), "\(spec.key)")
    }
    // A bar that is not shown keeps its value to itself, so it reads back hidden.
    let hidden = SettingsTable.configText(Settings())
    #expect(hidden.contains("\n; value: not set\nshow = no\n"))
  }

  @Test func theSynopsisAndHelpListEveryOption() {
    let synopsis = Usage.synopsis(backEnds: ["window", "fbdev"])
    let help = Usage.text(backEnds: [BackEndHelp(name: "fbdev", help: "A framebuffer.")])
    for spec in SettingsTable.all {
      if spec.onCommandLine {
        #expect(synopsis.contains("[--\(spec.key)"), "the synopsis lacks --\(spec.key)")
        #expect(help.contains("  --\(spec.key)"), "--help lacks --\(spec.key)")
      } else {
        #expect(!synopsis.contains("--\(spec.key) "), "--\(spec.key) is in the file only")
        #expect(help.contains("    \(spec.fileKey) = "), "--help lacks the file's \(spec.fileKey)")
      }
    }
    #expect(synopsis.contains("[--display auto|window|fbdev]"))
    #expect(help.contains("    fbdev                   A framebuffer."))
    for action in CommandLineAction.allCases { #expect(help.contains("--\(action.rawValue)")) }
    #expect(help.contains("  -h, --help ") && help.contains("  -V, --version "))
  }
}

@Suite struct CommandLineTests {
  @Test func everythingAfterTheFirstDoubleDashIsTheProgram() throws {
    let parsed = try ParsedCommandLine.parse(["--hold", "2", "--", "/usr/bin/kiosk", "--hold", "--", "x"])
    #expect(parsed.program == ["/usr/bin/kiosk", "--hold", "--", "x"])
    #expect(parsed.settings.map(\.key) == ["hold"])
    #expect(ParsedCommandLine.splitProgram(["--bogus", "--", "app"]).program == ["app"])
    #expect(ParsedCommandLine.splitProgram(["--hold", "1"]).program == nil)
  }

  @Test func aFlagIsASettingOfYes() throws {
    let parsed = try ParsedCommandLine.parse(["--until-reveal", "--check"])
    #expect(parsed.settings.map(\.key) == ["until-reveal"] && parsed.settings.map(\.value) == ["yes"])
  }

  @Test func informationOnlyRequestsAreSeenEvenOnABadCommandLine() {
    #expect(ParsedCommandLine.asksOnlyForInformation(["--check", "--bogus"]))
    #expect(ParsedCommandLine.asksOnlyForInformation(["--help=x"]))
    #expect(!ParsedCommandLine.asksOnlyForInformation(["--image", "a.png"]))
    #expect(ParsedCommandLine.asksOnlyForInformation(["-V"]) && ParsedCommandLine.asksOnlyForInformation(["-h", "-x"]))
  }

  @Test func shortFormsOfHelpAndVersion() throws {
    #expect(try ParsedCommandLine.parse(["-h"]).help)
    #expect(try ParsedCommandLine.parse(["-V"]).version)
    #expect(throws: SettingsError.self) { try ParsedCommandLine.parse(["-x"]) }
  }

  @Test func splitsOptionsAndValues() throws {
    let parsed = try ParsedCommandLine.parse(["--image", "a.png", "--hold=2", "--check", "--config", "c.conf"])
    #expect(parsed.check && !parsed.help && !parsed.version)
    #expect(parsed.configPath == "c.conf")
    #expect(parsed.settings.map(\.key) == ["image", "hold"])
    #expect(parsed.settings.map(\.value) == ["a.png", "2"])
  }

  @Test(arguments: [
    (["--bogus"], "unknown option --bogus (see splashd --help)"),
    (["--image"], "--image needs a value (see splashd --help)"),
    (["--image", "--check"], "--image needs a value (see splashd --help)"),
    (
      ["stray"],
      "unexpected argument \"stray\" (options start with --, a program to run follows '--'; see splashd --help)"
    ),
    (["--hold", "1", "--"], "'--' must be followed by the program to hand off to"),
    (["--help=yes"], "--help takes no value"),
    (["--until-reveal=no"], "--until-reveal takes no value"),
    (["--exec", "x"], "unknown option --exec (see splashd --help)"),
    (["--sources", "iio"], "unknown option --sources (see splashd --help)"),
  ])
  func badCommandLines(arguments: [String], expected: String) {
    #expect(throws: SettingsError(expected)) { try ParsedCommandLine.parse(arguments) }
  }
}

@Suite struct ColorTests {
  @Test func parsesAndFormatsHex() {
    #expect(Color(hex: "#FF8000") == Color(red: 255, green: 128, blue: 0))
    #expect(Color(hex: "#ff8000")?.hex == "#FF8000")
    #expect(Color(hex: "FF8000") == nil)
    #expect(Color(hex: "#FF800") == nil)
    #expect(Color(hex: "#f80") == Color(red: 255, green: 136, blue: 0))
    #expect(Color(hex: "#f8") == nil)
    #expect(Color(hex: "#FF80000") == nil)
  }

  @Test func formatsNumbers() {
    #expect(formatNumber(1.2) == "1.2")
    #expect(formatNumber(60) == "60")
    #expect(formatFixed(0.0166666, decimals: 6) == "0.016667")
    #expect(formatFixed(1, decimals: 3) == "1.000")
    // No decimals: rounded to a whole number, no point (this trapped once).
    #expect(formatFixed(12.6, decimals: 0) == "13" && formatFixed(0, decimals: 0) == "0")
  }
}

@Suite struct DisplayModeRequestTests {
  @Test func parsesSizeAndRate() {
    #expect(DisplayModeRequest("1280x800") == DisplayModeRequest(size: PixelSize(width: 1280, height: 800)))
    #expect(DisplayModeRequest("1920x1080@60")?.refreshRate == 60)
    #expect(DisplayModeRequest("1920x1080@60")?.description == "1920x1080@60")
    for bad in ["1920x1080@", "1920x1080@0", "1920x1080@60@", "@60", "1920x1080@6O", "1920"] {
      #expect(DisplayModeRequest(bad) == nil, "\(bad)")
    }
  }

  @Test func matchesTheSizeAndTheRateWhenGiven() {
    let any = DisplayModeRequest(size: PixelSize(width: 800, height: 480))
    let sixty = DisplayModeRequest(size: PixelSize(width: 800, height: 480), refreshRate: 60)
    #expect(any.matches(PixelSize(width: 800, height: 480), refreshRate: 75))
    #expect(sixty.matches(PixelSize(width: 800, height: 480), refreshRate: 60))
    #expect(!sixty.matches(PixelSize(width: 800, height: 480), refreshRate: 75))
    #expect(!any.matches(PixelSize(width: 480, height: 800), refreshRate: 60))
  }
}

/// The command line's own options for boot stages.
@Suite struct BootCommandLineTests {
  @Test func bootAndListFilesAreTheCommandLinesOwn() throws {
    let parsed = try ParsedCommandLine.parse(["--boot", "initramfs", "--list-files"])
    #expect(parsed.bootStage == .initramfs && parsed.listFiles)
    #expect(ParsedCommandLine.asksOnlyForInformation(["--list-files"]))
    #expect(throws: SettingsError("--boot: expected initramfs, root or shutdown, got \"late\"")) {
      try ParsedCommandLine.parse(["--boot=late"])
    }
    // One stage, one config file: a second is an error, not the last winning.
    #expect(throws: SettingsError("--boot given twice (root, then shutdown): a splash has one stage")) {
      try ParsedCommandLine.parse(["--boot", "root", "--boot=shutdown"])
    }
    #expect(throws: SettingsError("--config given twice (a.conf, then b.conf): one config file is read")) {
      try ParsedCommandLine.parse(["--config", "a.conf", "--config", "b.conf"])
    }
  }
}

/// Each setting's default is declared once, as the value `Settings()`
/// starts with, and found by the field it sets.
@Suite struct SettingDefaultTests {
  @Test func aDefaultIsTheStartingValuePrintedOrWhatUnsetMeansNeverBoth() {
    for spec in SettingsTable.all {
      let printed = spec.text(in: Settings())
      #expect(printed == nil || spec.unset == nil, "\(spec.key): \(printed ?? "") and \(spec.unset ?? "")")
      #expect(spec.defaultText == printed ?? spec.unset, "\(spec.key)")
    }
    // The help's default follows the struct: change the value, and the text changes with it.
    #expect(SettingsTable.spec("hold")?.defaultText == formatNumber(SplashSettings().hold))
    #expect(SettingsTable.spec("timeout")?.defaultText == formatNumber(HandoffSettings().timeout))
  }

  @Test func aSettingIsFoundByItsFieldAndNamedWhereItWasGiven() throws {
    var settings = Settings()
    #expect(settings.origin(of: \.splash.size) == "--size")
    #expect(!settings.isGiven(\.message.font))
    try settings.apply(
      key: "message-font", value: "/x.ttf", from: .configFile(path: "/etc/s.conf", line: 4, directory: "/etc"))
    #expect(settings.origin(of: \.message.font) == "/etc/s.conf:4: font")
    #expect(settings.isGiven(\.message.font))
    #expect(settings.origin(of: \.handoff.program) == "--exec")
    // Every setting's field leads back to it (the shaped pictures' by their keys in one dictionary).
    for spec in SettingsTable.all {
      #expect(SettingsTable.spec(setting: spec.field)?.key == spec.key, "\(spec.key)")
    }
  }
}

/// What --check and a written config print reads back as the same value,
/// quotes and all (found by the fuzzer: a group named '' printed bare read
/// back as nothing).
@Suite struct PrintedValueTests {
  @Test func aValueThatLooksQuotedIsPrintedQuoted() throws {
    var settings = Settings()
    try settings.apply(key: "control-group", value: "\"''\"", from: .commandLine)
    #expect(settings.handoff.controlGroup == "''")
    let spec = try #require(SettingsTable.all.first { $0.key == "control-group" })
    let printed = try #require(spec.text(in: settings))
    var again = Settings()
    try again.apply(key: "control-group", value: printed, from: .commandLine)
    #expect(again.handoff.controlGroup == "''", "printed \(printed)")
  }

  /// Every setting that takes a value that looks quoted prints it so that it
  /// reads back as itself (the fuzzer found prompt-tty and plymouth-pid-file
  /// printing a path named 'a' bare, read back as a).
  @Test func everySettingPrintsAQuotedLookingValueSoThatItReadsBack() throws {
    for spec in SettingsTable.all {
      var settings = Settings()
      guard (try? settings.apply(key: spec.key, value: "\"'a'\"", from: .commandLine)) != nil,
        let printed = spec.text(in: settings)
      else { continue }
      var again = Settings()
      #expect(throws: Never.self, "\(spec.key): \(printed)") {
        try again.apply(key: spec.key, value: printed, from: .commandLine)
      }
      #expect(spec.text(in: again) == printed, "\(spec.key): \(printed) reads back as \(spec.text(in: again) ?? "nil")")
    }
  }
}
