// SPDX-License-Identifier: Apache-2.0
/// One of splashctl's commands as its help, manual page and completion give
/// it: the control protocol's command word, what follows it, what it does.
public struct ControlCommandHelp: Equatable, Sendable {
  public let name: String
  /// The argument's placeholder ("EVENT"); nil for none.
  public let argument: String?
  /// The values the argument takes, for completion; empty when free-form.
  public let values: [String]
  public let help: String
}

/// splashctl's commands, options and help text, declared once: its
/// `--help`, its manual page and its completion are made from these.
public enum SplashctlUsage {
  /// Every command `ControlCommand.parse` takes, in the order help lists them.
  public static let commands: [ControlCommandHelp] = [
    ControlCommandHelp(
      name: "reveal", argument: nil, values: [],
      help: "let the held splash start its transition (opens the gate of --until-reveal, and of --until-file early)"),
    ControlCommandHelp(
      name: "quit", argument: nil, values: [],
      help:
        "end the splash now, without its transition; splashd then hands off to its program (in host mode after the"
        + " splash: stop the program, fading it into the shutdown's picture)"),
    ControlCommandHelp(
      name: "step-aside", argument: nil, values: [],
      help: "end the splash now and give the screen back to the console, no frame kept on it whatever "
        + "keep-last-frame says; returns once the display is let go of (initramfs-tools' panic runs it)"),
    ControlCommandHelp(
      name: "status", argument: nil, values: [],
      help: "print the splash's phase, rotation, display and times as key=value pairs"),
    ControlCommandHelp(
      name: "wait", argument: "EVENT", values: ControlEvent.allCases.map(\.rawValue),
      help: "block until EVENT has happened: appeared, will-disappear or did-disappear (the display released); "
        + "exit 1 if splashd ends without it"),
    ControlCommandHelp(
      name: "rotate", argument: "ANGLE", values: Rotation.allCases.map { String($0.rawValue) },
      help:
        "turn a splash that still holds to 0, 90, 180 or 270 degrees (refused once the doors move; in host mode the"
        + " program's window turns after them)"),
    ControlCommandHelp(
      name: "progress", argument: "N", values: [],
      help: "show the progress bar at N percent (0 to 100; beyond is clamped)"),
    ControlCommandHelp(
      name: "message", argument: "TEXT", values: [],
      help: "show TEXT as the message line (the rest of the command line, spaces and all); message alone clears it"),
    ControlCommandHelp(
      name: "snapshot", argument: "FILE", values: [],
      help: "write what the display shows now, as the screen sees it, to FILE as PNG (- for standard output)"),
    ControlCommandHelp(
      name: "ask-password", argument: "PROMPT", values: [],
      help: "show PROMPT on the splash and print what is typed on the console's terminal once Enter is pressed, "
        + "each character shown as a bullet (exit 1 if the splash ends first)"),
    ControlCommandHelp(
      name: "ask-question", argument: "PROMPT", values: [],
      help: "the same, the answer shown as it is typed"),
  ]

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
