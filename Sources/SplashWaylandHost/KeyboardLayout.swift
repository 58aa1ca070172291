// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// The keyboard layout host mode gives the program, as XKB names it: the
/// machine's `/etc/default/keyboard` (Debian's keyboard-configuration:
/// `XKBMODEL`, `XKBLAYOUT`, `XKBVARIANT`, `XKBOPTIONS`), each overridden by
/// the environment's `XKB_DEFAULT_MODEL`, `XKB_DEFAULT_LAYOUT`,
/// `XKB_DEFAULT_VARIANT`, `XKB_DEFAULT_OPTIONS` (and `XKB_DEFAULT_RULES`),
/// as xkbcommon's own programs read them. A name given by neither is
/// xkbcommon's default (`us` on `pc105`, evdev rules).
public struct KeyboardLayout: Equatable, Sendable {
  public var rules: String?
  public var model: String?
  public var layout: String?
  public var variant: String?
  public var options: String?

  public init(
    rules: String? = nil, model: String? = nil, layout: String? = nil, variant: String? = nil, options: String? = nil
  ) {
    self.rules = rules
    self.model = model
    self.layout = layout
    self.variant = variant
    self.options = options
  }

  /// Where the machine's layout is kept on Debian.
  public static let machineFile = "/etc/default/keyboard"

  /// The layout `defaultKeyboard` (the text of `/etc/default/keyboard`, nil
  /// when there is none) and `environment` give.
  public init(defaultKeyboard: String?, environment: [String: String]) {
    let file = Self.assignments(in: defaultKeyboard ?? "")
    func pick(_ variable: String, _ key: String?) -> String? {
      let value = environment[variable] ?? key.flatMap { file[$0] }
      return value?.isEmpty == false ? value : nil
    }
    self.init(
      rules: pick("XKB_DEFAULT_RULES", nil), model: pick("XKB_DEFAULT_MODEL", "XKBMODEL"),
      layout: pick("XKB_DEFAULT_LAYOUT", "XKBLAYOUT"), variant: pick("XKB_DEFAULT_VARIANT", "XKBVARIANT"),
      options: pick("XKB_DEFAULT_OPTIONS", "XKBOPTIONS"))
  }

  /// The `NAME=value` lines of a shell-style file (`NAME="value"`,
  /// `NAME='value'` too); comments and anything else are passed over.
  static func assignments(in text: String) -> [String: String] {
    var found: [String: String] = [:]
    for raw in text.split(whereSeparator: \.isNewline) {
      let line = trimmingBlanks(raw)
      guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
      let name = line[..<equals]
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
      var value = line[line.index(after: equals)...]
      if let quote = value.first, quote == "\"" || quote == "'", value.count >= 2, value.last == quote {
        value = value.dropFirst().dropLast()
      }
      found[String(name)] = String(value)
    }
    return found
  }

  /// How the log names it: the names given, or "xkbcommon's default".
  public var description: String {
    let given = [("rules", rules), ("model", model), ("layout", layout), ("variant", variant), ("options", options)]
      .compactMap { name, value in value.map { "\(name) \($0)" } }
    return given.isEmpty ? "xkbcommon's default" : given.joined(separator: ", ")
  }
}
