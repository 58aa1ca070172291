// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

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
