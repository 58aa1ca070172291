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
  /// The program to hand off to, from `-- PROGRAM [ARGS…]`; empty for none.
  public var program: [String] = []

  public init() {}

  public static func == (a: Self, b: Self) -> Bool {
    a.help == b.help && a.version == b.version && a.check == b.check && a.configPath == b.configPath
      && a.settings.elementsEqual(b.settings) { $0 == $1 } && a.program == b.program
  }

  /// Splits `arguments` at the first `--` into splashd's own options and the
  /// program to hand off to. Done before anything else, so that the program
  /// runs even when the options are wrong.
  /// `program` is nil when there is no `--`.
  public static func splitProgram(_ arguments: [String]) -> (options: [String], program: [String]?) {
    guard let marker = arguments.firstIndex(of: "--") else { return (arguments, nil) }
    return (Array(arguments[..<marker]), Array(arguments[(marker + 1)...]))
  }

  /// Splits `arguments` (without the program name). Options take their
  /// value as the next argument (unless it starts with `--`) or after `=`.
  public static func parse(_ arguments: [String]) throws(SettingsError) -> ParsedCommandLine {
    var parsed = ParsedCommandLine()
    let (arguments, program) = splitProgram(arguments)
    if let program {
      guard !program.isEmpty else { throw SettingsError("'--' must be followed by the program to hand off to") }
      parsed.program = program
    }
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--") else {
        throw SettingsError(
          "unexpected argument \"\(argument)\" (options start with --, a program to run follows '--'; see splashd --help)"
        )
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      switch name {
      case "help", "version", "check", "until-reveal":
        if inlineValue != nil { throw SettingsError("--\(name) takes no value") }
        if name == "help" { parsed.help = true }
        if name == "version" { parsed.version = true }
        if name == "check" { parsed.check = true }
        if name == "until-reveal" { parsed.settings.append(("until-reveal", "yes")) }
        continue
      case "config":
        break
      default:
        guard Settings.optionKeys.contains(name) else {
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
