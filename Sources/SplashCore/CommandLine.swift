/// The command line, split into what it asks for.
public struct ParsedCommandLine: Equatable, Sendable {
  /// `--help` was given.
  public var help = false
  /// `--version` was given.
  public var version = false
  /// `--check` was given: validate and print, open no display.
  public var check = false
  /// `--config FILE`, if given.
  public var configPath: String?
  /// The settings given, in order, as (key, value).
  public var settings: [(key: String, value: String)] = []

  public init() {}

  public static func == (a: Self, b: Self) -> Bool {
    a.help == b.help && a.version == b.version && a.check == b.check && a.configPath == b.configPath
      && a.settings.elementsEqual(b.settings) { $0 == $1 }
  }

  /// Splits `arguments` (without the program name). Options take their
  /// value as the next argument (unless it starts with `--`) or after `=`.
  public static func parse(_ arguments: [String]) throws(SettingsError) -> ParsedCommandLine {
    var parsed = ParsedCommandLine()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--"), argument != "--" else {
        if argument == "--" {
          throw SettingsError("'--' starts a program to hand off to, which this version of splashd does not run yet")
        }
        throw SettingsError("unexpected argument \"\(argument)\" (options start with --; see splashd --help)")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      switch name {
      case "help", "version", "check":
        if inlineValue != nil { throw SettingsError("--\(name) takes no value") }
        if name == "help" { parsed.help = true }
        if name == "version" { parsed.version = true }
        if name == "check" { parsed.check = true }
        continue
      case "config":
        break
      default:
        guard Settings.keys.contains(name) else {
          throw SettingsError("unknown option --\(name) (see splashd --help)")
        }
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        // A following option is not a value: "--image --check" lacks the picture.
        // A value that starts with "--" can still be given as --image=--odd.png.
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          throw SettingsError("--\(name) needs a value (see splashd --help)")
        }
        value = arguments[index]
        index += 1
      }
      if name == "config" {
        parsed.configPath = value
      } else {
        parsed.settings.append((name, value))
      }
    }
    return parsed
  }
}
