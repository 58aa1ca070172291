// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

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
