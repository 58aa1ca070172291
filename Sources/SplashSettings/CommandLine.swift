// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// The command line's own options, which are not settings.
public enum CommandLineAction: String, CaseIterable, Equatable, Sendable {
  case config
  case check
  case prepare
  case listFiles = "list-files"
  case boot
  case help
  case version

  /// The usual short form (`-h`, `-V`), for those that have one.
  public var shortName: String? {
    switch self {
    case .help: return "-h"
    case .version: return "-V"
    case .config, .check, .prepare, .listFiles, .boot: return nil
    }
  }

  /// The value's placeholder, for those that take a value.
  public var placeholder: String? {
    switch self {
    case .config: return "FILE"
    case .boot: return "STAGE"
    case .check, .prepare, .listFiles, .help, .version: return nil
    }
  }

  /// What the option does, for `--help`.
  public var help: String {
    switch self {
    case .config: return "Reads settings from FILE."
    case .check:
      return "Validates the settings, decodes the pictures, finds the program, and prints the resolved settings "
        + "as a config file (with what was derived as comments); opens no display and runs nothing."
    case .prepare:
      return "Opens the display as a start would, prepares the pictures for each of its screens at the angle the "
        + "splash takes (all four with rotate = auto), writes them to the cache (--cache), prints the cache files "
        + "and ends without drawing or running anything. For image builds (with --display offscreen --size WxH "
        + "for the panel) and package installs."
    case .listFiles:
      return "Prints the files a start reads, one a line after what each is (config, picture, animation, font), "
        + "and ends: what an initramfs must carry (its hooks use this)."
    case .boot:
      return "Starts as a boot splash at STAGE: initramfs (by the initramfs's script: holds until a splashd of the "
        + "real root adopts it, or its timeout), root (by a unit: adopts the splash the initramfs started, if one "
        + "runs), shutdown (shows image-shutdown until the machine goes down). A boot splash follows the kernel "
        + "command line (see without-splash-word): when it says no, splashd shows nothing and runs the program at "
        + "once."
    case .help: return "Prints this help."
    case .version: return "Prints the version, and those of the SDL2, SDL2_image and libpng it runs with."
    }
  }

  /// The default, as `--help` says it.
  public var defaultText: String? { self == .config ? "/etc/splashd/splashd.conf when it exists" : nil }
}

/// The command line, split into what it asks for.
public struct ParsedCommandLine: Equatable, Sendable {
  /// `--help` was given.
  public var help = false
  /// `--version` was given.
  public var version = false
  /// `--check` was given: validate and print, open no display.
  public var check = false
  /// `--prepare` was given: fill the cache, show nothing.
  public var prepare = false
  /// `--list-files` was given: print the files a start reads.
  public var listFiles = false
  /// `--boot STAGE`, if given.
  public var bootStage: BootStage?
  /// `--config FILE`, if given.
  public var configPath: String?
  /// The settings given, in order, as (key, value).
  public var settings: [(key: String, value: String)] = []
  /// The program to hand off to, from `-- PROGRAM [ARGS…]`; empty for none.
  public var program: [String] = []

  public init() {}

  public static func == (a: Self, b: Self) -> Bool {
    a.help == b.help && a.version == b.version && a.check == b.check && a.prepare == b.prepare
      && a.listFiles == b.listFiles
      && a.configPath == b.configPath && a.bootStage == b.bootStage
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

  /// Whether `options` (before any `--`) ask only for information
  /// (`--check`, `--list-files`, `--help`, `--version`) or for the cache to be filled
  /// (`--prepare`): then no program is run, even when the rest of the
  /// command line is wrong.
  public static func asksOnlyForInformation(_ options: [String]) -> Bool {
    let informative: [CommandLineAction] = [.check, .prepare, .listFiles, .help, .version]
    return options.contains { option in
      informative.contains {
        option == "--\($0.rawValue)" || option.hasPrefix("--\($0.rawValue)=") || option == $0.shortName
      }
    }
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
      var argument = arguments[index]
      index += 1
      if let action = CommandLineAction.allCases.first(where: { $0.shortName == argument }) {
        argument = "--" + action.rawValue
      }
      guard argument.hasPrefix("--") else {
        throw SettingsError(
          "unexpected argument \"\(printable(argument))\" (options start with --, a program to run follows '--'; "
            + "see splashd --help)")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      let action = CommandLineAction(rawValue: name)
      let spec = action == nil ? SettingsTable.spec(name).flatMap { $0.onCommandLine ? $0 : nil } : nil
      guard action != nil || spec != nil else {
        throw SettingsError("unknown option --\(printable(name)) (see splashd --help)")
      }
      let takesValue = action?.placeholder != nil || spec?.form.placeholder != nil
      if !takesValue {
        if inlineValue != nil { throw SettingsError("--\(name) takes no value") }
        switch action {
        case .check: parsed.check = true
        case .prepare: parsed.prepare = true
        case .listFiles: parsed.listFiles = true
        case .help: parsed.help = true
        case .version: parsed.version = true
        case .config, .boot, nil: parsed.settings.append((name, "yes"))
        }
        continue
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
      if action == .config {
        if let first = parsed.configPath {
          throw SettingsError(
            "--config given twice (\(printable(first)), then \(printable(value))): one config file is read")
        }
        parsed.configPath = value
      } else if action == .boot {
        guard let stage = BootStage(rawValue: value) else {
          throw SettingsError(
            "--boot: expected \(listing(BootStage.allCases.map(\.rawValue), last: "or")), got \"\(printable(value))\"")
        }
        if let first = parsed.bootStage {
          throw SettingsError("--boot given twice (\(first.rawValue), then \(stage.rawValue)): a splash has one stage")
        }
        parsed.bootStage = stage
      } else {
        parsed.settings.append((name, value))
      }
    }
    return parsed
  }
}
