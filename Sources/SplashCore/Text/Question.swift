// SPDX-License-Identifier: Apache-2.0
/// What a client asks the person at the screen while the splash holds
/// (Plymouth's `ask-for-password`, `ask-question` and `watch-keystroke`,
/// splashctl's `ask-password` and `ask-question`): answered with the keys of
/// the console's terminal, its prompt shown on the splash in place of the
/// message.
public struct Question: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// A secret: each character typed shows as a bullet; Enter answers.
    case password
    /// Text shown as typed; Enter answers.
    case question
    /// The first key pressed among `keys` (any key when nil) is the answer.
    case keystroke(keys: String?)
  }

  public let kind: Kind
  /// The prompt ("Please unlock disk root:"); it may be empty.
  public let prompt: String

  public init(_ kind: Kind, prompt: String) {
    self.kind = kind
    self.prompt = prompt
  }

  /// The longest prompt shown, in bytes (a message line's limit).
  public static let maxPromptBytes = BootStatus.maxMessageBytes
}

/// The answer to one question as it is typed: the terminal's bytes (after
/// the console's keymap) in, the line to show and, once Enter comes, the
/// answer out. Backspace and Delete take back the last character, Ctrl-U the
/// whole line; escape sequences (the arrow keys) and other control
/// characters are nothing.
public struct AnswerEditor: Sendable {
  public let question: Question
  /// The answer's bytes so far (UTF-8 as the terminal sends it).
  private var typed: [UInt8] = []
  /// Where in an escape sequence the terminal is.
  private var escape = Escape.none

  /// An escape sequence's parts, as a terminal sends them for keys that
  /// are not text (the arrows, function keys, Alt with a key).
  private enum Escape {
    case none
    /// After ESC.
    case started
    /// Inside `ESC [` (parameters and intermediates until a final byte).
    case controlSequence
    /// After `ESC [ [` (the Linux console's F1–F5) or `ESC O`: one byte ends it.
    case oneMore
  }

  /// The longest answer, in bytes (cryptsetup takes passphrases of up to
  /// 512 characters); more is not taken.
  public static let maxAnswerBytes = 1024

  public init(_ question: Question) { self.question = question }

  /// The line the splash shows: the prompt, then a bullet for each
  /// character of a password, or the text typed for a question.
  public var line: String {
    let head = question.prompt.isEmpty ? "" : question.prompt + " "
    switch question.kind {
    case .password: return head + String(repeating: "•", count: String(decoding: typed, as: UTF8.self).count)
    case .question: return head + String(decoding: typed, as: UTF8.self)
    case .keystroke: return question.prompt
    }
  }

  /// Takes the terminal's `bytes`; returns the answer once it is given
  /// (the bytes after it are not taken).
  public mutating func take(_ bytes: some Sequence<UInt8>) -> String? {
    for byte in bytes {
      if let answer = take(byte) { return answer }
    }
    return nil
  }

  private mutating func take(_ byte: UInt8) -> String? {
    switch escape {
    case .started:
      switch byte {
      case UInt8(ascii: "["):
        escape = .controlSequence
        return nil
      case UInt8(ascii: "O"):
        escape = .oneMore
        return nil
      case 0x1B:
        // ESC ESC: the first was a lone Esc, the second begins again.
        return nil
      case 0x20...0x7E:
        // Alt with a key: nothing.
        escape = .none
        return nil
      default:
        // A lone Esc (nothing is sent after it): this byte is a key of its
        // own, Enter among them.
        escape = .none
      }
    case .controlSequence:
      if byte == UInt8(ascii: "[") {
        escape = .oneMore
        return nil
      }
      // Parameters and intermediates until the final byte (0x40…0x7E).
      if (0x40...0x7E).contains(byte) { escape = .none }
      return nil
    case .oneMore:
      escape = .none
      return nil
    case .none: break
    }
    if case .keystroke(let keys) = question.kind {
      guard byte != 0x1B else {
        escape = .started
        return nil
      }
      let key = String(decoding: [byte], as: UTF8.self)
      if let keys, !keys.contains(key) { return nil }
      return byte == 0x0D ? "\n" : key
    }
    switch byte {
    case 0x0D, 0x0A:
      // Bytes that are not UTF-8 read as U+FFFD, three bytes each: the
      // answer is cut back to its limit, a whole character at a time.
      var answer = String(decoding: typed, as: UTF8.self)
      while answer.utf8.count > Self.maxAnswerBytes { answer.removeLast() }
      return answer
    case 0x08, 0x7F:
      // Back over continuation bytes to the character's first byte.
      while let last = typed.popLast(), last & 0xC0 == 0x80 {}
    case 0x15: typed = []
    case 0x1B: escape = .started
    case 0..<0x20: break
    default:
      if typed.count < Self.maxAnswerBytes { typed.append(byte) }
    }
    return nil
  }
}
