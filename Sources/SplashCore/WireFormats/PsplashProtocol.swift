// SPDX-License-Identifier: Apache-2.0
/// psplash's FIFO protocol, as psplash-write speaks it: commands ended by a
/// NUL (what psplash-write sends) or a newline, several to a write or one
/// split across reads; and, as psplash takes them, what is left without an
/// end when the FIFO has been read empty (`printf QUIT > psplash_fifo`, a
/// writer that sends no NUL) is a whole command (`writesEnded`), not the
/// start of the next writer's. Two writers that write at the same moment,
/// one of them without an end, can still glue, as under psplash. `PROGRESS n` moves the bar (psplash's atoi: the
/// leading number, 0 for none; −100…100, negative from the right), `MSG
/// text` shows the rest after the first space, `QUIT` reveals; anything
/// else (and `MSG`, `PROGRESS` with nothing after them) is ignored.
public struct PsplashCommandBuffer: Sendable {
  private var pending: [UInt8] = []
  /// The rest of a command too long to take is being skipped.
  private var skipping = false

  /// The longest command taken, its terminator included.
  public static let maxCommandBytes = 4096

  public init() {}

  /// What one command of the FIFO is.
  public enum Input: Equatable, Sendable {
    /// A command to execute.
    case command(ControlCommand)
    /// A command psplash ignores too; its first bytes, for a debug line.
    case ignored(String)
    /// A command longer than `maxCommandBytes`, dropped whole.
    case tooLong
  }

  /// Adds `bytes` and returns what the commands they end are.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> [Input] {
    var inputs: [Input] = []
    for byte in bytes {
      if byte == 0 || byte == UInt8(ascii: "\n") {
        if !skipping && !pending.isEmpty { inputs.append(Self.parse(pending)) }
        pending = []
        skipping = false
      } else if !skipping {
        pending.append(byte)
        if pending.count >= Self.maxCommandBytes {
          inputs.append(.tooLong)
          pending = []
          skipping = true
        }
      }
    }
    return inputs
  }

  /// The FIFO has been read empty: what is pending, unended, is a whole
  /// command (psplash takes the end of a read as a command's end).
  public mutating func writesEnded() -> [Input] {
    defer {
      pending = []
      skipping = false
    }
    return skipping || pending.isEmpty ? [] : [Self.parse(pending)]
  }

  /// One command, split as psplash splits it: the verb up to the first
  /// space (leading spaces skipped), the argument all that follows that
  /// space. A message longer than `BootStatus.maxMessageBytes` is cut there
  /// (at a character's start).
  public static func parse(_ bytes: [UInt8]) -> Input {
    let command = String(decoding: bytes, as: UTF8.self)
    let trimmed = command.drop { $0 == " " }
    let verb = String(trimmed.prefix { $0 != " " })
    let argument = String(trimmed.dropFirst(verb.count).dropFirst())
    switch verb {
    case "PROGRESS" where !argument.isEmpty: return .command(.progress(Double(leadingInteger(argument))))
    case "MSG" where !argument.isEmpty:
      var text = Substring(argument)
      while text.utf8.count > BootStatus.maxMessageBytes { text = text.dropLast() }
      return .command(.message(String(text)))
    case "QUIT": return .command(.reveal)
    default: return .ignored(String(command.prefix(64)))
    }
  }

  /// The number at the start of `text`, as C's atoi reads it: blanks, a
  /// sign, digits; 0 when there is none (and clamped, not overflowed).
  public static func leadingInteger(_ text: String) -> Int {
    var characters = Substring(text).drop { $0 == " " || $0 == "\t" }
    var sign = 1
    if let first = characters.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      characters = characters.dropFirst()
    }
    var value = 0
    for character in characters {
      guard let digit = character.wholeNumberValue, character.isASCII else { break }
      value = min(value * 10 + digit, 1_000_000)
    }
    return sign * value
  }
}
