// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

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
