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

  /// `keyboard`: its words split as exec's, host mode's; `keyboard-popup`
  /// one of its two words.
  @Test func keyboard() throws {
    let host = [("host", "wayland")]
    let keyboard = try settings(host + [("keyboard", "wvkbd-mobintl --hidden -H '200'")])
    #expect(keyboard.handoff.keyboard == ["wvkbd-mobintl", "--hidden", "-H", "200"])
    #expect(keyboard.handoff.keyboardPopup == .signals)
    #expect(try settings(host + [("keyboard-popup", "itself")]).handoff.keyboardPopup == .itself)
    #expect(Settings().handoff.keyboard.isEmpty)
    #expect(
      message([("keyboard", "wvkbd-mobintl")])
        == "--keyboard needs --host wayland: the keyboard is a client of splashd's own compositor")
    #expect(
      message(host + [("keyboard-popup", "sometimes")])
        == "--keyboard-popup: expected signals or itself, got \"sometimes\"")
    #expect(
      message(host + [("keyboard", "'wvkbd")])?.hasPrefix("--keyboard: expected a program and its arguments") == true)
  }

  /// `[screen-power]`: times of day read, the schedule whole, host mode's.
  @Test func screenPower() throws {
    let host = [("host", "wayland")]
    let power = try settings(host + [("idle-off", "300"), ("on-at", "07:00, 13:00"), ("off-at", "12:00 22:00")])
    #expect(power.screenPower.idleOff == 300)
    #expect(power.screenPower.schedule?.onAt.map(\.description) == ["07:00", "13:00"])
    #expect(power.screenPower.schedule?.offAt.map(\.description) == ["12:00", "22:00"])
    #expect(Settings().screenPower.idleOff == 0 && Settings().screenPower.schedule == nil)
    #expect(
      message([("idle-off", "60")])
        == "--idle-off needs --host wayland: only host mode decides when its screen is off (splashctl screen off "
        + "works without)")
    #expect(message(host + [("off-at", "22:00")]) == "--off-at needs --on-at: the screen would go off and never back")
    #expect(message(host + [("on-at", "07:00")]) == "--on-at needs --off-at: the screen would go on and never back")
    #expect(message(host + [("on-at", "07:00"), ("off-at", "22:00 7:00")]) == "--on-at: 07:00 is an off-at time too")
    let times = "expected times of day as HH:MM (00:00 to 23:59), each once, separated by spaces or commas"
    for bad in ["24:00", "7", "", "07:00 07:00", "noon"] {
      #expect(message(host + [("on-at", bad)]) == "--on-at: \(times), got \"\(bad)\"", "\(bad)")
    }
    #expect(
      message([("idle-off", "-1")]) == "--idle-off: expected a number of seconds from 0 (never) to 86400, got \"-1\"")
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
