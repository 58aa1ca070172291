// SPDX-License-Identifier: Apache-2.0
/// splashctl's commands (the control protocol's, from `ControlCommandTable`),
/// options and help text, declared once: its `--help`, its manual page and
/// its completion are made from these.
public enum SplashctlUsage {
  /// The commands splashctl takes, in the order help lists them: the
  /// control protocol's listed ones (`ControlCommandTable`).
  public static var commands: [ControlCommandSpec] { ControlCommandTable.listed }

  /// The control socket when neither --control nor $SPLASHD_CONTROL says.
  public static let defaultControl = "/run/splashd/control"

  /// splashctl's options: (label, help).
  public static let options: [(label: String, help: String)] = [
    ("--control PATH", "the control socket [default: $SPLASHD_CONTROL, else \(defaultControl)]"),
    ("-h, --help", "print this help"),
    ("-V, --version", "print the version, and the git commit it was built from"),
  ]

  public static let intro = "Talks to a running splashd over its control socket."

  public static let exitStatus =
    "Exit status: 0 done; 1 splashd refused the command, could not be reached, or ended first; 2 bad usage."

  /// The text `splashctl --help` prints.
  public static var text: String {
    var out = "Usage: splashctl [--control PATH] COMMAND\n\n\(intro)\n\nCommands:\n"
    for command in commands {
      let label = command.name + (command.argument.map { " " + $0 } ?? "")
      out += HelpText.entry(label, command.help, nil, column: 16)
    }
    out += "\nOptions:\n"
    for option in options { out += HelpText.entry(option.label, option.help, nil, column: 19) }
    return out + "\n" + HelpText.wrap(exitStatus, indent: 0) + "\n"
  }
}
