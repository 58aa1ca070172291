// SPDX-License-Identifier: Apache-2.0
/// One request of Plymouth's boot protocol (Plymouth 22.02): a command byte
/// and, maybe, an argument. On the wire: the command, then a NUL; or the
/// command, 0x02, one byte holding the argument's length + 1, the argument
/// and a NUL.
public struct PlymouthRequest: Equatable, Sendable {
  /// The command byte (`P` ping, `M` show message, `u` system update, …).
  public let command: UInt8
  /// The argument's bytes, without its NUL; nil when the request has none.
  public let argument: [UInt8]?

  public init(command: UInt8, argument: [UInt8]?) {
    self.command = command
    self.argument = argument
  }

  /// The argument as text (empty for none).
  public var text: String { String(decoding: argument ?? [], as: UTF8.self) }

  /// The one-byte replies.
  public static let ack: UInt8 = 0x06
  public static let nak: UInt8 = 0x15
  /// The reply to a question nobody answered (the splash ended first).
  public static let noAnswer: UInt8 = 0x05

  /// The reply carrying `answer`: 0x02, its length (32 bits, least
  /// significant byte first), its bytes.
  public static func answer(_ answer: String) -> [UInt8] {
    let bytes = Array(answer.utf8)
    let length = UInt32(bytes.count)
    return [0x02] + (0..<4).map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + bytes
  }

  /// What the request asks of the splash.
  public var action: PlymouthAction {
    switch command {
    case UInt8(ascii: "P"), UInt8(ascii: "$"), UInt8(ascii: "H"), UInt8(ascii: "S"), UInt8(ascii: "R"),
      UInt8(ascii: "V"), UInt8(ascii: "C"), UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "!"),
      UInt8(ascii: "U"):
      // Ping, show and hide the splash, system initialised, new root, has a
      // VT, change mode, pause and unpause progress, error, status text:
      // nothing to do (systemd sends a status for every unit it starts).
      return .acknowledge
    case UInt8(ascii: "M"):
      guard argument?.count ?? 0 <= BootStatus.maxMessageBytes else { return .refuse }
      return .command(.message(text.isEmpty ? nil : text))
    case UInt8(ascii: "m"): return .command(.message(nil))
    case UInt8(ascii: "u"):
      guard let percent = parseSignedDecimal(text) else { return .refuse }
      return .command(.progress(min(max(percent, 0), 100)))
    case UInt8(ascii: "D"): return .command(.pauseDrawing)
    case UInt8(ascii: "r"): return .command(.resumeDrawing)
    case UInt8(ascii: "Q"):
      // `quit --retain-splash` sends the byte 1; plain `quit` nothing.
      return .command(.finish(retainingFrame: argument?.first == 1))
    case UInt8(ascii: "*"), UInt8(ascii: "W"), UInt8(ascii: "K"):
      guard argument?.count ?? 0 <= Question.maxPromptBytes else { return .refuse }
      switch command {
      case UInt8(ascii: "*"): return .command(.ask(Question(.password, prompt: text)))
      case UInt8(ascii: "W"): return .command(.ask(Question(.question, prompt: text)))
      default: return .command(.ask(Question(.keystroke(keys: text.isEmpty ? nil : text), prompt: "")))
      }
    case UInt8(ascii: "c"):
      // The cached passwords: splashd keeps none, so the client asks.
      return .answerNone
    case UInt8(ascii: "L"):
      // Stop watching for keys: nothing waits for them but the watcher.
      return .acknowledge
    default:
      return .refuse
    }
  }

  /// How the log names the request as a reason ("plymouth quit --retain-splash").
  public var cause: String {
    switch action {
    case .command(.finish(let retaining)): return retaining ? "plymouth quit --retain-splash" : "plymouth quit"
    case .command(.pauseDrawing): return "plymouth deactivate"
    case .command(.resumeDrawing): return "plymouth reactivate"
    default: return "plymouth '\(printable(String(UnicodeScalar(command))))'"
    }
  }
}

/// What a Plymouth request asks of the splash.
public enum PlymouthAction: Equatable, Sendable {
  /// A command the controller executes: ACK once it is done, NAK when refused.
  case command(ControlCommand)
  /// Nothing to do: ACK at once.
  case acknowledge
  /// A question splashd has no answer to: `noAnswer` at once.
  case answerNone
  /// Not taken (anything unknown, a bad argument): NAK at once.
  case refuse
}

/// Cuts a Plymouth client's bytes into requests, keeping a partial one
/// (at most 258 bytes: the length is one byte).
public struct PlymouthRequestBuffer: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  public enum Problem: Error, Equatable, Sendable {
    /// Neither a NUL nor 0x02 after the command, a length of 0, or no NUL
    /// after the argument.
    case malformed
  }

  /// Adds `bytes` and returns the complete requests they finish, and the
  /// problem, if any, that makes the rest of this client's input unusable
  /// (the requests before it stand).
  public mutating func append(_ bytes: some Sequence<UInt8>) -> (requests: [PlymouthRequest], problem: Problem?) {
    pending.append(contentsOf: bytes)
    var requests: [PlymouthRequest] = []
    while pending.count >= 2 {
      let command = pending[0]
      switch pending[1] {
      case 0:
        requests.append(PlymouthRequest(command: command, argument: nil))
        pending.removeFirst(2)
      case 2:
        guard pending.count >= 3 else { return (requests, nil) }
        let length = Int(pending[2])
        guard length > 0 else { return (requests, .malformed) }
        guard pending.count >= 3 + length else { return (requests, nil) }
        guard pending[2 + length] == 0 else { return (requests, .malformed) }
        requests.append(PlymouthRequest(command: command, argument: Array(pending[3..<(2 + length)])))
        pending.removeFirst(3 + length)
      default:
        return (requests, .malformed)
      }
    }
    return (requests, nil)
  }
}
