// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// How a setting is written on the command line.
public enum SettingForm: Equatable, Sendable {
  /// `--key VALUE` on the command line (and `key = VALUE` in the file).
  case option(placeholder: String)
  /// `--key` alone means yes; the file takes `key = yes` or `no`.
  case flag
  /// In the config file only: `key = VALUE`.
  case fileOnly(placeholder: String)

  /// The value's placeholder in help texts (`FILE`, `SECONDS`); nil for a flag.
  public var placeholder: String? {
    switch self {
    case .option(let placeholder), .fileOnly(let placeholder): return placeholder
    case .flag: return nil
    }
  }
}

/// The groups `--help` lists the settings in.
public enum SettingGroup: String, CaseIterable, Equatable, Sendable {
  case picture = "Picture"
  case transition = "Transition"
  case reveal = "When to reveal"
  case control = "Control socket (see splashctl --help)"
  case display = "Display"
  case orientation = "Rotation from the hardware (rotate = auto)"
  case status = "Boot status over the picture (see splashctl progress, message)"
  case boot = "Boot and shutdown (--boot STAGE)"
  case screenPower = "Screen power (host mode; see splashctl screen)"
}

/// A setting's text as given, with the parsers the table's entries use.
/// Every error names where the value came from and what was expected.
public struct SettingValue: Sendable {
  public let key: String
  /// The value exactly as given.
  public let raw: String
  public let source: SettingSource

  public init(key: String, text: String, source: SettingSource) {
    self.key = key
    raw = text
    self.source = source
  }

  /// The value, without one pair of quotes around all of it (`"#000000"`).
  public var text: String { unquoted(raw) }

  /// The error for a value that is not `expected`.
  public func fail(_ expected: String) -> SettingsError {
    SettingsError("\(source.name(of: key)): expected \(expected), got \"\(printable(raw))\"")
  }

  /// A file name; relative to the config file's directory when it came from one.
  public func path() throws(SettingsError) -> String {
    guard !text.isEmpty else { throw fail("a file name") }
    return source.resolve(path: text)
  }

  /// A number of seconds from 0 to `limit`; `zero` says what 0 means, if anything special.
  public func seconds(upTo limit: Double, zero: String = "") throws(SettingsError) -> Double {
    guard let seconds = parseDecimal(text), seconds <= limit else {
      throw fail("a number of seconds from 0\(zero) to \(formatNumber(limit))")
    }
    return seconds
  }

  /// A number above 0 and at most `limit`, `expected` when it is not one.
  /// One too small to print as more than 0 (settings print 6 decimals) is
  /// refused too, so that what `--check` prints reads back.
  public func positiveDecimal(upTo limit: Double, expected: String) throws(SettingsError) -> Double {
    guard let number = parseDecimal(text), number <= limit, let printed = parseDecimal(formatNumber(number)),
      printed > 0
    else { throw fail(expected) }
    return number
  }

  public func yesOrNo() throws(SettingsError) -> Bool {
    switch text {
    case "yes", "true", "1": return true
    case "no", "false", "0": return false
    default: throw fail("yes or no")
    }
  }

  /// One of `T`'s cases, by its raw value.
  public func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(SettingsError) -> T
  where T.RawValue == String {
    guard let value = T(rawValue: text) else { throw fail(listing(T.allCases.map(\.rawValue), last: "or")) }
    return value
  }

  /// A word that is not empty.
  public func word(_ expected: String) throws(SettingsError) -> String {
    guard !text.isEmpty else { throw fail(expected) }
    return text
  }
}

/// One setting, declared once: its key and section, how the command line
/// spells it, its help, the field of `Settings` it sets, how its text is
/// parsed and how it is printed. The table of them drives the config file,
/// the command line, `--help`, the manual and `--check`. A setting's
/// default is the field's initial value in `Settings()`, printed as
/// `--check` prints it; only what an unset value means is said in words
/// (`unset`).
public struct SettingSpec: Sendable {
  /// The setting's name: the command line's `--key`, unique among all.
  public let key: String
  /// Its key in its section of the config file (`color` in `[progress]`).
  public let fileKey: String
  public let section: SettingsSection
  public let form: SettingForm
  public let group: SettingGroup
  /// What the setting does, as one paragraph (for `--help` and the manual).
  public let help: String
  /// What it means when the setting is not set and prints nothing ("the
  /// bundled demo picture"); nil when there is nothing to say.
  public let unset: String?
  /// The values an enumerated setting takes, for help and completion; empty when free-form.
  public let values: [String]
  /// The field it sets, for typed lookups (`Settings.origin(of:)`).
  public var field: PartialKeyPath<Settings> { makeField() }
  /// The type of the field's value.
  let valueType: Any.Type
  /// Makes the field's key path. The runtime takes tens of microseconds to
  /// make a key path the first time, and a start reads only the few
  /// settings it is given, so each is made when first used, not with the
  /// table (docs/performance.md).
  private let makeField: @Sendable () -> PartialKeyPath<Settings>
  let parse: @Sendable (inout Settings, SettingValue) throws -> Void
  let show: @Sendable (Settings) -> String?

  /// A setting of one field: its text read into the field's value, and
  /// the value printed back.
  init<Value>(
    _ key: String, _ section: SettingsSection, _ form: SettingForm, _ group: SettingGroup, file fileKey: String? = nil,
    help: String, unset: String? = nil, values: [String] = [],
    _ field: @autoclosure @escaping @Sendable () -> WritableKeyPath<Settings, Value>,
    read: @escaping @Sendable (SettingValue) throws -> Value, print: @escaping @Sendable (Value) -> String?
  ) {
    self.init(
      key, section, form, group, file: fileKey, help: help, unset: unset, values: values, field: field(),
      parse: { $0[keyPath: field()] = try read($1) }, show: { print($0[keyPath: field()]) })
  }

  /// A setting whose text sets more than its field, or that prints what
  /// other fields make of it.
  init<Value>(
    _ key: String, _ section: SettingsSection, _ form: SettingForm, _ group: SettingGroup, file fileKey: String? = nil,
    help: String, unset: String? = nil, values: [String] = [],
    field: @autoclosure @escaping @Sendable () -> KeyPath<Settings, Value>,
    parse: @escaping @Sendable (inout Settings, SettingValue) throws -> Void,
    show: @escaping @Sendable (Settings) -> String?
  ) {
    self.key = key
    self.fileKey = fileKey ?? key
    self.section = section
    self.form = form
    self.group = group
    self.help = help
    self.unset = unset
    self.values = values
    valueType = Value.self
    makeField = field
    self.parse = parse
    self.show = show
  }

  /// The default, as `--help` and the manual say it: the value `Settings()`
  /// starts with, or what an unset value means; nil when there is nothing to say.
  public var defaultText: String? { show(Settings()) ?? unset }

  /// Whether this is the setting of `field`. Only a field of the same
  /// type has its key path made to be compared.
  public func sets(_ field: PartialKeyPath<Settings>) -> Bool {
    ObjectIdentifier(valueType) == ObjectIdentifier(type(of: field).valueType) && self.field == field
  }

  /// Whether the command line takes it (`--key`).
  public var onCommandLine: Bool {
    if case .fileOnly = form { return false }
    return true
  }

  /// Sets this setting of `settings` from `value`.
  public func apply(_ value: SettingValue, to settings: inout Settings) throws(SettingsError) {
    do {
      try parse(&settings, value)
    } catch let error as SettingsError {
      throw error
    } catch {
      throw value.fail("a valid value (\(error))")
    }
  }

  /// The setting's value in `settings` as the config file would spell it;
  /// nil when it is not set.
  public func text(in settings: Settings) -> String? { show(settings) }
}

/// Every setting splashd has.
public enum SettingsTable {
  /// The settings, grouped by section in the order the config file and
  /// `--check` list them.
  public static let all: [SettingSpec] = SplashSettingsTable.all + StatusSettingsTable.all

  /// The setting named `key` (its command-line name).
  public static func spec(_ key: String) -> SettingSpec? { byKey[key] }

  /// The setting of `field`.
  public static func spec(setting field: PartialKeyPath<Settings>) -> SettingSpec? { all.first { $0.sets(field) } }

  /// The setting a config file's `section` names `fileKey`.
  public static func spec(in section: SettingsSection, fileKey: String) -> SettingSpec? {
    byFileKey[section.rawValue + "." + fileKey]
  }

  /// The settings of `section`, in order.
  public static func specs(in section: SettingsSection) -> [SettingSpec] { all.filter { $0.section == section } }

  private static let byKey: [String: SettingSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

  private static let byFileKey: [String: SettingSpec] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.section.rawValue + "." + $0.fileKey, $0) })
}

/// `items` joined for a sentence: "a, b or c".
public func listing(_ items: [String], last conjunction: String) -> String {
  guard items.count > 1 else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

/// `text` without one pair of matching quotes (single or double) around
/// all of it, when no other quote of that kind is inside.
public func unquoted(_ text: String) -> String {
  guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
    return text
  }
  let inner = text.dropFirst().dropLast()
  return inner.contains(first) ? text : String(inner)
}

/// `text` as a config file's value that reads back as `text`: wrapped in
/// quotes when the file would otherwise change it (blanks at its ends, or
/// quotes around it). A " ;" inside cannot be written: the file takes it
/// for a comment.
public func quotedForFile(_ text: String) -> String {
  let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
  let needs = text.first.map(blank) == true || text.last.map(blank) == true || unquoted(text) != text
  guard needs else { return text }
  for quote in ["\"", "'"] where !text.contains(quote) { return quote + text + quote }
  return text
}

extension SettingsTable {
  /// `settings` as a config file: every section and every key, those not
  /// set as comments. Reading it back gives the same settings.
  public static func configText(_ settings: Settings) -> String {
    var lines: [String] = []
    for section in SettingsSection.allCases {
      if !lines.isEmpty { lines.append("") }
      lines.append("[\(section.rawValue)]")
      for spec in specs(in: section) {
        if let value = spec.text(in: settings) {
          lines.append("\(spec.fileKey) = \(value)")
        } else {
          lines.append("; \(spec.fileKey): not set")
        }
      }
    }
    let screens = ScreenSettingsTable.configText(settings)
    return lines.joined(separator: "\n") + "\n" + (screens.isEmpty ? "" : "\n" + screens)
  }
}
