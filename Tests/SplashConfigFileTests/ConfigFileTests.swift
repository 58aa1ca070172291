// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashConfigFile
import SplashCore
import SplashSettings
import SplashTestSupport
import Testing

/// The config file: every problem is one line naming the file and the true
/// line, with unprintable bytes escaped; nothing but a regular file of at
/// most 1 MiB is read, and nothing can make the read block.
@Suite struct ConfigFileTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  func apply(_ contents: String, name: String = "c.conf") -> (Settings, String?) {
    apply(Data(contents.utf8), name: name)
  }

  func apply(_ contents: Data, name: String = "c.conf") -> (Settings, String?) {
    let path = dir.file(name, contents)
    var settings = Settings()
    do {
      try ConfigFile.apply(path: path, to: &settings)
      return (settings, nil)
    } catch {
      return (settings, error.message)
    }
  }

  @Test func screenSectionsSetEachScreenAndStarSetsTheRest() {
    let (settings, message) = apply(
      "[screen *]\nfit = contain\n[screen HDMI-A-1]\nrotate = 90\nenable = yes\n[screen DSI-1]\nenable = no\n")
    #expect(message == nil)
    #expect(settings.screen(named: "HDMI-A-1") == ScreenSettings(rotate: .quarter, fit: .contain, enable: true))
    #expect(settings.screen(named: "DSI-1") == ScreenSettings(rotate: nil, fit: .contain, enable: false))
    #expect(settings.screen(named: "eDP-1") == ScreenSettings(rotate: nil, fit: .contain, enable: nil))
    // A screen of another card (card1-HDMI-A-1) takes its connector's section unless it has its own.
    #expect(settings.screen(named: "card1-HDMI-A-1") == settings.screen(named: "HDMI-A-1"))
    #expect(settings.screen(named: "card-HDMI-A-1") == ScreenSettings(rotate: nil, fit: .contain, enable: nil))
    #expect(settings.origins["screen HDMI-A-1.rotate"] == "\(dir.path)/c.conf:4: rotate")
    // As --check prints them, they read back the same.
    let printed = SettingsTable.configText(settings)
    #expect(printed.contains("[screen DSI-1]\n; rotate: not set\n; fit: not set\nenable = no\n"), "\(printed)")
    let (again, problem) = apply(printed, name: "printed.conf")
    #expect(problem == nil && again.screens == settings.screens, "\(problem ?? "")")
  }

  /// `screens` names a screen as the status lists it, or says a keyword; a
  /// keyword mistyped is one line, not a screen of that name.
  @Test func screensNamesAScreenOrSaysHowToShare() {
    let (settings, message) = apply("[handoff]\nhost = wayland\nscreens = card1-HDMI-A-1\n")
    #expect(message == nil && settings.handoff.screens == .only("card1-HDMI-A-1"), "\(message ?? "")")
    #expect(SettingsTable.configText(settings).contains("\nscreens = card1-HDMI-A-1\n"))
    #expect(apply("[handoff]\nhost = wayland\nscreens = extend\n").0.handoff.screens == .extend)
    #expect(
      apply("[handoff]\nhost = wayland\nscreens = mirorr\n").1
        == "\(dir.path)/c.conf:3: screens: expected mirror, extend, last or a screen's name as splashctl status "
        + "lists it (HDMI-A-1), got \"mirorr\"")
  }

  @Test func aBadScreenSectionIsOneLine() {
    #expect(
      apply("[screen HDMI A]\nrotate = 90\n").1
        == "\(dir.path)/c.conf:1: [screen HDMI A]: expected a connector's name (HDMI-A-1, DSI-1, …) or *")
    #expect(
      apply("[screen eDP-1]\nrotate = 45\n").1 == "\(dir.path)/c.conf:2: rotate: expected 0, 90, 180 or 270, got \"45\""
    )
    #expect(
      apply("[screen eDP-1]\nimage = x.png\n").1
        == "\(dir.path)/c.conf:2: image: unknown setting; known in [screen eDP-1]: rotate, fit, enable")
    #expect(
      apply("[screen eDP-1]\nfit = cover\n\nfit = contain\n").1
        == "\(dir.path)/c.conf:4: fit is given twice in [screen eDP-1]; first at line 2")
  }

  @Test func aKeyGivenTwiceNamesBothLines() {
    let (_, message) = apply("[splash]\nhold = 1\n\n; again\nhold = 2\n")
    #expect(message == "\(dir.path)/c.conf:5: hold is given twice in [splash]; first at line 2")
  }

  @Test func linesAreCountedTrulyAndNamed() {
    // A NUL byte is refused on its line, not skipped over.
    var withNul = Data("[splash]\nhold = 1\nfps = 3".utf8)
    withNul.append(0)
    withNul.append(contentsOf: Array("0\nrotate = 45\n".utf8))
    #expect(apply(withNul).1 == "\(dir.path)/c.conf:3: holds a NUL byte; expected text")
    // A line too long is refused, not split into made-up lines.
    let long = "[splash]\n; " + String(repeating: "x", count: 5000) + "\nrotate = 45\n"
    #expect(apply(long).1 == "\(dir.path)/c.conf:2: longer than 4096 bytes")
    let justFits = "[splash]\n; " + String(repeating: "x", count: 4094) + "\nrotate = 45\n"
    #expect(apply(justFits).1?.hasPrefix("\(dir.path)/c.conf:3: rotate: expected") == true)
  }

  @Test func anUnterminatedSectionIsOneLine() {
    #expect(apply("[splash\nhold = 1\n").1 == "\(dir.path)/c.conf:1: section header \"[splash\" is not closed with ]")
  }

  @Test func controlCharactersFromTheFileAreEscaped() {
    let (_, message) = apply("[splash]\nrotate = \u{1B}[31mred\u{7}\n")
    #expect(message == "\(dir.path)/c.conf:2: rotate: expected 0, 90, 180, 270 or auto, got \"\\x1B[31mred\\x07\"")
    let (_, key) = apply("[splash]\nho\u{1B}ld = 1\n")
    #expect(key?.hasPrefix("\(dir.path)/c.conf:2: ho\\x1Bld: unknown setting; known: ") == true)
    let (_, section) = apply("[disp\u{1B}lay]\n")
    #expect(section?.hasPrefix("\(dir.path)/c.conf:1: unknown section [disp\\x1Blay]; known: ") == true)
  }

  @Test func aLeafWithoutItsPairNamesTheFileAndLine() {
    var settings = Settings()
    let path = dir.file("leaf.conf", "[splash]\nright = r.png\n")
    try? ConfigFile.apply(path: path, to: &settings)
    #expect(throws: SettingsError("\(path):2: right needs left: the doors take a left and a right leaf")) {
      try settings.validate()
    }
  }

  @Test func quotedValuesAreUnquoted() {
    let (settings, message) = apply("[splash]\nbackground = \"#102030\"\n[handoff]\nexec = \"/opt/my app/kiosk\" --x\n")
    #expect(message == nil)
    #expect(settings.splash.background == .color(Color(red: 16, green: 32, blue: 48)))
    #expect(settings.handoff.program == ["/opt/my app/kiosk", "--x"])
  }

  /// A FIFO, a device or a directory is refused at once: reading it could
  /// block for ever or never end.
  @Test func onlyARegularFileIsRead() throws {
    let fifo = dir.path + "/fifo.conf"
    #expect(mkfifo(fifo, 0o600) == 0)
    for (path, reason) in [
      (fifo, "is not a regular file, expected an INI file"),
      ("/dev/zero", "is not a regular file, expected an INI file"),
      (dir.path, "is a directory, expected an INI file"),
      (dir.path + "/absent.conf", "cannot read: no such file or directory"),
    ] {
      var settings = Settings()
      #expect(throws: SettingsError("--config \(path): \(reason)")) { try ConfigFile.apply(path: path, to: &settings) }
    }
    // /dev/null is the way to say "no config file".
    var settings = Settings()
    try ConfigFile.apply(path: "/dev/null", to: &settings)
    #expect(settings == Settings())
  }

  @Test func aFileLargerThanOneMebibyteIsRefused() {
    let big = Data(repeating: UInt8(ascii: ";"), count: ConfigFile.maxBytes + 1)
    #expect(
      apply(big, name: "big.conf").1 == "--config \(dir.path)/big.conf: is larger than 1 MiB, expected an INI file")
  }

  /// A message prints (for --check) as a value the file reads back the same:
  /// quoted when blanks at its ends or quotes around it would change it.
  @Test func aMessagePrintsAsAValueTheFileReadsBack() throws {
    #expect(quotedForFile("Starting…") == "Starting…")
    #expect(quotedForFile(" padded ") == "\" padded \"")
    #expect(quotedForFile("\"quoted\"") == "'\"quoted\"'")
    // As given on the command line: one pair of quotes around it all is taken off there too.
    for given in ["'  padded'", "'\"double\"'", "\"'single'\"", "plain; semicolon", "tab\tinside "] {
      var settings = Settings()
      try settings.apply(key: "message", value: given, from: .commandLine)
      let printed = SettingsTable.configText(settings)
      var again = Settings()
      try ConfigFile.apply(contents: Array(printed.utf8), path: "printed.conf", directory: "/", to: &again)
      #expect(
        again.message.text == settings.message.text, "\(given) read back as \(String(describing: again.message.text))")
    }
  }
}
