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
