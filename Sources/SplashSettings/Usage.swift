// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// A display back end as `--help` lists it.
public struct BackEndHelp: Equatable, Sendable {
  public var name: String
  public var help: String

  public init(name: String, help: String) {
    self.name = name
    self.help = help
  }
}

/// `splashd --help` and the synopsis, made from the settings table, so that
/// they list exactly the options the command line takes.
public enum Usage {

  /// The one-paragraph synopsis: every option, `display`'s values the
  /// names of `backEnds` (with `auto` first).
  public static func synopsis(backEnds: [String]) -> String {
    var items = ["[--config FILE]"]
    for spec in SettingsTable.all where spec.onCommandLine {
      let values = spec.key == "display" ? ["auto"] + backEnds : spec.values
      switch spec.form {
      case .flag: items.append("[--\(spec.key)]")
      case .option(let placeholder), .fileOnly(let placeholder):
        let value =
          !values.isEmpty && !values.contains { $0.contains("(") } ? values.joined(separator: "|") : placeholder
        items.append("[--\(spec.key) \(value)]")
      }
    }
    items += [
      "[--boot initramfs|root|shutdown]", "[--check]", "[--prepare]", "[--list-files]", "[--help]", "[--version]",
      "[-- PROGRAM [ARGS...]]",
    ]
    var lines: [String] = []
    var line = "splashd"
    for item in items {
      if line.count + 1 + item.count > 100 {
        lines.append(line)
        line = "       "
      }
      line += " " + item
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }

  /// The text `splashd --help` prints.
  public static func text(backEnds: [BackEndHelp]) -> String {
    var out = "Usage: splashd [OPTIONS] [-- PROGRAM [ARGS...]]\n\n" + HelpText.wrap(intro, indent: 0) + "\n"
    for group in SettingGroup.allCases where group != .orientation {
      out += "\n\(group.rawValue):\n"
      for spec in SettingsTable.all where spec.group == group && spec.onCommandLine {
        let label = "--\(spec.key)" + (spec.form.placeholder.map { " " + $0 } ?? "")
        out += HelpText.entry(label, spec.help, spec.defaultText)
        if spec.key == "display" {
          for backEnd in backEnds { out += HelpText.entry("  " + backEnd.name, backEnd.help, nil) }
        }
      }
    }
    out += "\nOther:\n"
    for action in CommandLineAction.allCases {
      out += HelpText.entry(
        (action.shortName.map { $0 + ", " } ?? "") + "--\(action.rawValue)"
          + (action.placeholder.map { " " + $0 } ?? ""),
        action.help, action.defaultText)
    }
    out +=
      "\n" + HelpText.wrap("Options take their value as the next argument or after '=' (--hold=2).", indent: 0) + "\n"
    out += "\n" + HelpText.wrap(configIntro, indent: 0) + "\n"
    for section in SettingsSection.allCases {
      let specs = SettingsTable.specs(in: section)
      out += "\n  [\(section.rawValue)]\n"
      let options = specs.filter(\.onCommandLine)
      if options.allSatisfy({ $0.key == $0.fileKey }), !options.isEmpty {
        out +=
          HelpText.wrap("The options " + listing(options.map(\.key), last: "and") + ", as key = value.", indent: 4)
          + "\n"
      } else if !options.isEmpty {
        let keys = options.map { "\($0.fileKey) (--\($0.key))" }
        out += HelpText.wrap("The options, as key = value: " + listing(keys, last: "and") + ".", indent: 4) + "\n"
      }
      for spec in specs where !spec.onCommandLine {
        out += HelpText.entry("  \(spec.fileKey) = \(spec.form.placeholder ?? "")", spec.help, spec.defaultText)
      }
    }
    out += "\n  [\(ScreenSettingsTable.sectionPrefix)NAME]\n"
    out += HelpText.wrap(screenIntro, indent: 4) + "\n"
    for spec in ScreenSettingsTable.all { out += HelpText.entry("  \(spec.key) = \(spec.placeholder)", spec.help, nil) }
    out += "\n" + HelpText.wrap(exitStatus, indent: 0) + "\n"
    return out
  }

  public static let intro =
    "Shows a splash picture, holds it, then reveals the background with a door-open or cross-fade transition "
    + "paced to the display's vsync. Given a PROGRAM, splashd then becomes it (execve: same PID, streams and "
    + "cgroup), with SPLASHD_ROTATION=<degrees> added to its environment. The PROGRAM is found (in PATH, like a "
    + "shell) before anything else and runs even when the splash fails: a bad option or picture, no display, a "
    + "crash. If it cannot be run, splashd exits 127. SIGTERM or SIGINT end the splash at once and hand off (or "
    + "exit 0 without a PROGRAM)."

  public static let configIntro =
    "Config file: INI, one setting a line as key = value in the sections below; comments are lines starting "
    + "with ; or #, and the rest of a line after \" ;\". Relative paths are taken relative to the file's "
    + "directory. Options on the command line override the file; a program after -- wins over exec. A key "
    + "given twice, an unknown section or key, or a bad value is an error naming the file and line."

  public static let screenIntro =
    "One screen of the kms back end: NAME is its connector's name as the kernel gives it (HDMI-A-1, DSI-1, "
    + "eDP-1; card1-HDMI-A-1 for a card after the first), or * for every screen; a screen's own section wins "
    + "over *."

  public static let exitStatus =
    "Exit status without a PROGRAM: 0 done; 1 runtime failure (such as no desktop for --display window); 2 bad "
    + "usage, settings or files. With one: the PROGRAM's own, or 127 when it cannot be run."
}
