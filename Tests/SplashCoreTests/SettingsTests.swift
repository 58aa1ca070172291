import SplashCore
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
    let s = try settings([])
    #expect(s.transition == .doors && s.effectiveDuration == 1.2)
    #expect(s.easing == .easeInOut && s.hold == 0 && s.fit == .cover && s.rotate == .none)
    #expect(s.background == .color(.black) && s.fps == 60 && s.display == .auto)
    #expect(try settings([("transition", "crossfade")]).effectiveDuration == 0.5)
    #expect(try settings([("transition", "crossfade"), ("duration", "2")]).effectiveDuration == 2)
  }

  @Test func parsesEveryValueKind() throws {
    let s = try settings([
      ("image", "a.png"), ("background", "#0a0B0c"), ("duration", ".75"), ("hold", "3"),
      ("easing", "cubic-bezier(0.1, -0.5, 0.9,1.5)"), ("rotate", "270"), ("fit", "contain"),
      ("display", "offscreen"), ("size", "800x480"), ("record", "out"), ("fps", "29.97"),
    ])
    #expect(s.background == .color(Color(red: 10, green: 11, blue: 12)))
    #expect(s.duration == 0.75 && s.hold == 3 && s.rotate == .threeQuarters && s.fit == .contain)
    #expect(s.easing == .cubicBezier(CubicBezier(0.1, -0.5, 0.9, 1.5)))
    #expect(s.size == PixelSize(width: 800, height: 480) && s.fps == 29.97 && s.record == "out")
  }

  @Test(arguments: [
    ("rotate", "45", "--rotate: expected 0, 90, 180, 270 or auto, got \"45\""),
    ("duration", "-1", "--duration: expected a number of seconds"),
    ("duration", "1e3", "--duration: expected a number of seconds"),
    ("hold", "abc", "--hold: expected a number of seconds"),
    ("hold", "inf", "--hold: expected a number of seconds"),
    ("fps", "0", "--fps: expected frames per second above 0"),
    ("background", "#12345", "--background: expected a colour as #RRGGBB"),
    ("background", "#GG0000", "--background: expected a colour as #RRGGBB"),
    ("easing", "bounce", "--easing: expected linear, ease-in"),
    ("easing", "cubic-bezier(1.5,0,0.5,1)", "--easing: expected linear"),
    ("easing", "cubic-bezier(0,0,1)", "--easing: expected linear"),
    ("size", "1920", "--size: expected WIDTHxHEIGHT"),
    ("size", "0x10", "--size: expected WIDTHxHEIGHT"),
    ("size", "20000x10", "--size: expected WIDTHxHEIGHT"),
    ("transition", "wipe", "--transition: expected doors or crossfade"),
    ("fit", "fill", "--fit: expected cover, contain, stretch or center"),
    ("display", "kms", "--display: expected auto, window, kmsdrm, fbdev or offscreen"),
    ("mode", "1280x800@", "--mode: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60"),
    ("mode", "1280@60", "--mode: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60"),
    ("image", "", "--image: expected a file name"),
  ])
  func badValuesNameTheOptionAndTheExpectation(key: String, value: String, expected: String) {
    let got = message([(key, value)])
    #expect(got?.hasPrefix(expected) == true, "got \(got ?? "no error")")
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
    #expect(s.image == "/etc/splashd/door.png")
    #expect(s.origin(of: "image") == "/etc/splashd/splashd.conf:7: image")
    try? s.apply(key: "left", value: "/abs/l.png", from: source)
    #expect(s.left == "/abs/l.png")
    try? s.apply(key: "exec", value: "bin/kiosk  --url http://localhost", from: source)
    #expect(s.program == ["/etc/splashd/bin/kiosk", "--url", "http://localhost"])
    try? s.apply(key: "exec", value: "kiosk", from: source)
    #expect(s.program == ["kiosk"])  // a bare name is looked up in PATH
    try? s.apply(key: "background", value: "#FFFFFF", from: source)
    #expect(s.background == .color(Color(red: 255, green: 255, blue: 255)))
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
    #expect(Color(hex: "#FF80000") == nil)
  }

  @Test func formatsNumbers() {
    #expect(formatNumber(1.2) == "1.2")
    #expect(formatNumber(60) == "60")
    #expect(formatFixed(0.0166666, decimals: 6) == "0.016667")
    #expect(formatFixed(1, decimals: 3) == "1.000")
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
