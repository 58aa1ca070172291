// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// What a `[screen NAME]` section of the config file says of one screen (a
/// connector of a KMS card, named as the kernel names it: `HDMI-A-1`,
/// `DSI-1`, `eDP-1`), or of every screen with `[screen *]`. Unset keys fall
/// back to `[screen *]`, then to the splash's own settings.
public struct ScreenSettings: Equatable, Sendable {
  /// The turn on this screen; nil: its panel orientation, else the splash's.
  public var rotate: Rotation?
  /// How the picture fills it; nil: the splash's `fit`.
  public var fit: Fit?
  /// Whether it shows the splash; nil: yes.
  public var enable: Bool?

  public init(rotate: Rotation? = nil, fit: Fit? = nil, enable: Bool? = nil) {
    self.rotate = rotate
    self.fit = fit
    self.enable = enable
  }

  /// What applies to the screen `name` among `sections` (by name): its
  /// own over `[screen *]`'s. A screen of a card other than the first is
  /// named `cardN-NAME`; without a section of that name, `[screen NAME]`'s
  /// applies.
  public static func named(_ name: String, in sections: [String: ScreenSettings]) -> ScreenSettings {
    let own = sections[name] ?? ScreenName.withoutCard(name).flatMap { sections[String($0)] } ?? ScreenSettings()
    let all = sections["*"] ?? ScreenSettings()
    return ScreenSettings(rotate: own.rotate ?? all.rotate, fit: own.fit ?? all.fit, enable: own.enable ?? all.enable)
  }

  /// Whether a section name is a screen's: a connector's name (letters,
  /// digits, '-', '_', up to 32 characters) or `*`.
  public static func isScreenName(_ name: String) -> Bool {
    name == "*"
      || (!name.isEmpty && name.utf8.count <= 32
        && name.utf8.allSatisfy {
          ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || $0 == 45 || $0 == 95
        })
  }
}

/// One key of a `[screen NAME]` section, declared once: its name, its help,
/// how it is parsed and printed.
public struct ScreenSettingSpec: Sendable {
  public let key: String
  /// The value's placeholder in help texts.
  public let placeholder: String
  public let help: String
  public let values: [String]
  let parse: @Sendable (inout ScreenSettings, SettingValue) throws(SettingsError) -> Void
  let show: @Sendable (ScreenSettings) -> String?

  /// Sets this key of `screen` from `value`.
  public func apply(_ value: SettingValue, to screen: inout ScreenSettings) throws(SettingsError) {
    try parse(&screen, value)
  }

  /// The key's value in `screen` as the config file spells it; nil when unset.
  public func text(in screen: ScreenSettings) -> String? { show(screen) }
}

/// The keys of `[screen NAME]` sections.
public enum ScreenSettingsTable {
  /// The section's name in the config file: `[screen NAME]`.
  public static let sectionPrefix = "screen "

  public static let all: [ScreenSettingSpec] = [
    ScreenSettingSpec(
      key: "rotate", placeholder: "DEGREES",
      help: "The turn on this screen, 0, 90, 180 or 270 degrees clockwise; by default the screen's panel "
        + "orientation (DRM's \"panel orientation\" property) unless rotate is set on the command line or in "
        + "[splash], then the splash's rotation.",
      values: ["0", "90", "180", "270"],
      parse: { screen, value throws(SettingsError) in
        guard let degrees = Int(value.text), let rotation = Rotation(rawValue: degrees) else {
          throw value.fail("0, 90, 180 or 270")
        }
        screen.rotate = rotation
      }, show: { $0.rotate.map { String($0.rawValue) } }),
    ScreenSettingSpec(
      key: "fit", placeholder: "MODE", help: "How the picture fills this screen; by default the splash's fit.",
      values: Fit.allCases.map(\.rawValue),
      parse: { screen, value throws(SettingsError) in screen.fit = try value.choice(Fit.self) },
      show: { $0.fit?.rawValue }),
    ScreenSettingSpec(
      key: "enable", placeholder: "yes|no", help: "Whether this screen shows the splash (yes by default).",
      values: ["yes", "no"],
      parse: { screen, value throws(SettingsError) in screen.enable = try value.yesOrNo() },
      show: { $0.enable.map { $0 ? "yes" : "no" } }),
  ]

  /// The key `key` of a screen section.
  public static func spec(_ key: String) -> ScreenSettingSpec? { all.first { $0.key == key } }

  /// The `[screen NAME]` sections of `settings` as a config file's text, names in order.
  public static func configText(_ settings: Settings) -> String {
    settings.screens.keys.sorted().map { name in
      let screen = settings.screens[name]!
      let lines = all.map { spec in spec.text(in: screen).map { "\(spec.key) = \($0)" } ?? "; \(spec.key): not set" }
      return (["[\(sectionPrefix)\(name)]"] + lines).joined(separator: "\n") + "\n"
    }.joined(separator: "\n")
  }
}

extension Settings {
  /// What applies to the screen named `name`: its section over `[screen *]`.
  public func screen(named name: String) -> ScreenSettings { ScreenSettings.named(name, in: screens) }

  /// Sets `key` of the section `[screen NAME]` from `value` (a config file's).
  public mutating func apply(screen name: String, key: String, value: String, from source: SettingSource)
    throws(SettingsError)
  {
    guard let spec = ScreenSettingsTable.spec(key) else {
      let known = ScreenSettingsTable.all.map(\.key).joined(separator: ", ")
      throw SettingsError("\(source.name(of: key)): unknown setting; known in [screen \(printable(name))]: \(known)")
    }
    var screen = screens[name] ?? ScreenSettings()
    try spec.apply(SettingValue(key: key, text: value, source: source), to: &screen)
    screens[name] = screen
    origins["screen \(name).\(key)"] = source.name(of: key)
  }
}
