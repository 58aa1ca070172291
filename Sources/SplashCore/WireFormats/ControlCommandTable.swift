// SPDX-License-Identifier: Apache-2.0
/// What follows a control line's command word, as the command's parser
/// reads it.
struct ControlArguments: Sendable {
  /// The command word, as the line spells it.
  let verb: String
  /// The words after the verb, split at spaces, tabs and carriage returns.
  let words: [String]
  /// The whole line (without its newline).
  private let line: String

  /// The arguments of `line`, whose first word is `verb` and the rest `words`.
  init(line: String, verb: String, words: [String]) {
    self.line = line
    self.verb = verb
    self.words = words
  }

  /// `command` when nothing follows the verb; else the reason it is refused.
  func alone(_ command: ControlCommand) -> Result<ControlCommand, ControlError> {
    words.isEmpty ? .success(command) : .failure(ControlError("\(verb) takes no argument"))
  }

  /// The one word after the verb; nil when there is none, or more than one.
  var onlyWord: String? { words.count == 1 ? words[0] : nil }

  /// The rest of the line after the verb and the blank that ends it, spaces
  /// and all, without carriage returns at its end (a message's text, a
  /// question's prompt).
  var rest: Substring {
    var text = Substring(line.drop { $0 == " " || $0 == "\t" }.dropFirst(verb.count).dropFirst())
    while text.last == "\r" { text = text.dropLast() }
    return text
  }
}

/// One command of the control protocol, declared once: its word, what
/// follows it, its help, and how its line is parsed. The table of them
/// drives `ControlCommand.parse`, the list of known commands its errors
/// give, and splashctl's `--help`, manual page and completion.
public struct ControlCommandSpec: Sendable {
  /// The command word, the line's first; unique among all.
  public let name: String
  /// The argument's placeholder in help texts ("EVENT"); nil for none.
  public let argument: String?
  /// The values the argument takes, for completion; empty when free-form.
  public let values: [String]
  /// What the command does, as splashctl's help and manual page say it.
  public let help: String
  /// Whether splashctl lists it (its help, manual page and completion) and
  /// an error's list of known commands names it: false for splashd's own
  /// (`handover`).
  public let listed: Bool
  /// The command a line's arguments make, or the reason (the reply's text)
  /// they are refused.
  typealias Parser = @Sendable (ControlArguments) -> Result<ControlCommand, ControlError>

  /// Parses the arguments of a line that starts with this command's word.
  let parse: Parser

  init(
    _ name: String, argument: String? = nil, values: [String] = [], help: String, listed: Bool = true,
    parse: @escaping Parser
  ) {
    self.name = name
    self.argument = argument
    self.values = values
    self.help = help
    self.listed = listed
    self.parse = parse
  }
}

/// Every command of the control protocol.
public enum ControlCommandTable {
  /// The commands, listed ones in the order splashctl's help and an
  /// error's list of known commands give them.
  public static let all: [ControlCommandSpec] = [
    ControlCommandSpec(
      "reveal",
      help: "let the held splash start its transition (opens the gate of --until-reveal, and of --until-file early)"
    ) { $0.alone(.reveal) },
    ControlCommandSpec(
      "quit",
      help:
        "end the splash now, without its transition; splashd then hands off to its program (in host mode after the"
        + " splash: stop the program, fading it into the shutdown's picture)"
    ) { $0.alone(.stop) },
    ControlCommandSpec(
      "step-aside",
      help: "end the splash now and give the screen back to the console, no frame kept on it whatever "
        + "keep-last-frame says; returns once the display is let go of (initramfs-tools' panic runs it)"
    ) { $0.alone(.stepAside) },
    ControlCommandSpec("status", help: "print the splash's phase, rotation, display and times as key=value pairs") {
      $0.alone(.status)
    },
    ControlCommandSpec(
      "wait", argument: "EVENT", values: ControlEvent.allCases.map(\.rawValue),
      help: "block until EVENT has happened: appeared, will-disappear or did-disappear (the display released); "
        + "exit 1 if splashd ends without it"
    ) { arguments in
      guard let word = arguments.onlyWord, let event = ControlEvent(rawValue: word) else {
        return .failure(
          ControlError("wait needs one event: \(ControlEvent.allCases.map(\.rawValue).joined(separator: ", "))"))
      }
      return .success(.wait(event))
    },
    ControlCommandSpec(
      "rotate", argument: "ANGLE", values: Rotation.allCases.map { String($0.rawValue) },
      help:
        "turn a splash that still holds to 0, 90, 180 or 270 degrees (refused once the doors move; in host mode the"
        + " program's window turns after them)"
    ) { arguments in
      guard let word = arguments.onlyWord, let degrees = Int(word), let rotation = Rotation(rawValue: degrees) else {
        return .failure(ControlError("rotate needs one angle: 0, 90, 180 or 270"))
      }
      return .success(.rotate(rotation))
    },
    ControlCommandSpec(
      "progress", argument: "N", help: "show the progress bar at N percent (0 to 100; beyond is clamped)"
    ) { arguments in
      guard let word = arguments.onlyWord, let percent = parseSignedDecimal(word) else {
        return .failure(ControlError("progress needs one number, 0 to 100"))
      }
      return .success(.progress(min(max(percent, 0), 100)))
    },
    ControlCommandSpec(
      "message", argument: "TEXT",
      help: "show TEXT as the message line (the rest of the command line, spaces and all); message alone clears it"
    ) { arguments in
      let text = arguments.rest
      guard text.utf8.count <= BootStatus.maxMessageBytes else {
        return .failure(ControlError("message: longer than \(BootStatus.maxMessageBytes) bytes"))
      }
      return .success(.message(text.isEmpty ? nil : String(text)))
    },
    ControlCommandSpec(
      "snapshot", argument: "FILE",
      help: "write what the display shows now, as the screen sees it, to FILE as PNG (- for standard output)"
    ) { $0.alone(.snapshot) },
    ControlCommandSpec(
      "ask-password", argument: "PROMPT",
      help: "show PROMPT on the splash and print what is typed on the console's terminal once Enter is pressed, "
        + "each character shown as a bullet (exit 1 if the splash ends first)", parse: ask(.password)),
    ControlCommandSpec(
      "ask-question", argument: "PROMPT", help: "the same, the answer shown as it is typed", parse: ask(.question)),
    ControlCommandSpec(
      "screen", argument: "STATE", values: ScreenPowerCommand.allCases.map(\.rawValue),
      help: "switch the display on or off (STATE on or off; really off: DPMS, the backlight down), or say which "
        + "it is and why (status: screen=on, or screen=off off_by=idle-off|off-at|splashctl); off lasts until a key, a touch or the pointer "
        + "moving (which wakes it and reaches no program), screen on, or the next time of the screen-power "
        + "schedule"
    ) { arguments in
      guard let word = arguments.onlyWord, let asked = ScreenPowerCommand(rawValue: word) else {
        return .failure(ControlError("screen needs one of on, off, status"))
      }
      return .success(.screen(asked))
    },
    ControlCommandSpec(
      "handover",
      help: "hand the display over to the splashd that asks, then end (splashd's own: one splashd adopting another)",
      listed: false
    ) { $0.alone(.handover) },
  ]

  /// The commands splashctl lists, in order.
  public static let listed: [ControlCommandSpec] = all.filter(\.listed)

  /// The command whose word is `name`.
  public static func spec(named name: String) -> ControlCommandSpec? { byName[name] }

  /// The listed commands' words, as an error's list of known commands gives them.
  static let knownNames = listed.map(\.name).joined(separator: ", ")

  private static let byName: [String: ControlCommandSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// The parser of a question of `kind`, its prompt the rest of the line.
  private static func ask(_ kind: Question.Kind) -> ControlCommandSpec.Parser {
    { arguments in
      let prompt = arguments.rest
      guard prompt.utf8.count <= Question.maxPromptBytes else {
        return .failure(ControlError("\(arguments.verb): a prompt longer than \(Question.maxPromptBytes) bytes"))
      }
      return .success(.ask(Question(kind, prompt: String(prompt))))
    }
  }
}
