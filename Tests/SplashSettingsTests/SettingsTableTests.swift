// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

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
      ("control-group", "kiosk"), ("metrics-file", "/var/lib/n e/splashd.prom"), ("sources", "switch cmdline"),
      ("switch", "/dev/input/event5"),
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
