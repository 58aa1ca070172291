// SPDX-License-Identifier: Apache-2.0
/// Plymouth's own client, `plymouth` (22.02), as splashd answers it when it
/// runs under that name: an initramfs without Plymouth then still has the
/// client its scripts call (cryptsetup's askpass runs `/bin/plymouth --ping`
/// and `plymouth ask-for-password --prompt …`; initramfs-tools' resume
/// script `plymouth display-message`), and each command becomes lines of the
/// control socket.
public enum PlymouthCommandLine {
  /// What one `plymouth` command line does.
  public struct Translation: Equatable, Sendable {
    /// The control socket's lines, sent in order; none: nothing to do.
    public let lines: [String]
    /// The last line's answer is printed, without a newline, as Plymouth's
    /// client prints a password.
    public let printsAnswer: Bool

    public init(_ lines: [String], printsAnswer: Bool = false) {
      self.lines = lines
      self.printsAnswer = printsAnswer
    }
  }

  /// The translation of `arguments` (after the program's name), or why
  /// there is none.
  public static func parse(_ arguments: [String]) -> Result<Translation, ControlError> {
    var words = arguments[...]
    guard let first = words.popFirst() else { return .failure(ControlError("no command given")) }
    switch first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first {
    case "--ping", "--has-active-vt": return .success(Translation(["status"]))
    case "--wait": return .success(Translation(["wait did-disappear"]))
    case "--sysinit", "--newroot", "--show-splash", "--hide-splash", "--update", "--details":
      return .success(Translation([]))
    case "--quit": return .success(Translation(["step-aside"]))
    default: break
    }
    let options: [String: String]
    switch Self.options(words) {
    case .success(let parsed): options = parsed
    case .failure(let error): return .failure(error)
    }
    func allow(_ names: Set<String>) -> ControlError? {
      guard let other = options.keys.sorted().first(where: { !names.contains($0) }) else { return nil }
      return ControlError("\(first): --\(other) is not an option splashd's plymouth takes")
    }
    switch first {
    case "ask-for-password", "ask-question":
      if options["command"] != nil {
        return .failure(ControlError("\(first) --command is not supported: the answer is printed; pipe it instead"))
      }
      if let problem = allow(["prompt", "number-of-tries", "dont-pause-progress"]) { return .failure(problem) }
      let verb = first == "ask-for-password" ? "ask-password" : "ask-question"
      return .success(Translation(["\(verb) \(options["prompt"] ?? "")"], printsAnswer: true))
    case "display-message", "message":
      if let problem = allow(["text"]) { return .failure(problem) }
      return .success(Translation(["message \(options["text"] ?? "")"]))
    case "hide-message":
      if let problem = allow(["text"]) { return .failure(problem) }
      return .success(Translation(["message"]))
    case "system-update":
      guard let progress = options["progress"], allow(["progress"]) == nil else {
        return .failure(ControlError("system-update needs --progress=N and nothing else"))
      }
      return .success(Translation(["progress \(progress)"]))
    case "quit":
      // As plymouthd quits: the console gets the screen back at once; with
      // --retain-splash, the splash's transition and its last frame.
      if let problem = allow(["retain-splash"]) { return .failure(problem) }
      return .success(Translation(options["retain-splash"] != nil ? ["reveal", "wait did-disappear"] : ["step-aside"]))
    case "update", "show-splash", "hide-splash", "change-mode", "pause-progress", "unpause-progress",
      "update-root-fs", "reload":
      // Nothing splashd shows (as its Plymouth socket, which ACKs them).
      return .success(Translation([]))
    case "deactivate", "reactivate", "watch-keystroke", "ignore-keystroke":
      return .failure(ControlError("\(first) is not supported here (splashd's compat = plymouth answers it)"))
    default:
      return .failure(ControlError("unknown command \"\(printable(String(first.prefix(64))))\""))
    }
  }

  /// `--name=value`, `--name value` and `--flag` after the command.
  private static func options(_ words: ArraySlice<String>) -> Result<[String: String], ControlError> {
    var options: [String: String] = [:]
    var rest = words
    let flags: Set<String> = ["retain-splash", "dont-pause-progress"]
    while let word = rest.popFirst() {
      // A line break in a value would end the control line there and
      // start another command.
      if let value = rest.first, value.unicodeScalars.contains(where: { $0.value < 0x20 }) {
        return .failure(ControlError("a value holds a control character: \(printable(String(value.prefix(64))))"))
      }
      guard !word.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
        return .failure(ControlError("an option holds a control character: \(printable(String(word.prefix(64))))"))
      }
      guard word.hasPrefix("--"), word.count > 2 else {
        return .failure(ControlError("\(printable(String(word.prefix(64)))) is not an option"))
      }
      let option = word.dropFirst(2)
      if let equals = option.firstIndex(of: "=") {
        options[String(option[..<equals])] = String(option[option.index(after: equals)...])
      } else if flags.contains(String(option)) {
        options[String(option)] = ""
      } else if let value = rest.popFirst() {
        options[String(option)] = value
      } else {
        return .failure(ControlError("--\(printable(String(option.prefix(64)))) needs a value"))
      }
    }
    return .success(options)
  }
}
