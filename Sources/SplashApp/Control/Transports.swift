// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import SplashSystem

/// A way for other programs to steer the splash: it parses what they send,
/// has the controller execute it, and replies; the run loop serves it.
protocol ControlTransport: EventSource {
  /// Lets go of its sockets and files when the splash ends.
  func close()
}

/// What a transport is opened with.
struct TransportContext {
  let settings: Settings
  let controller: Controller
  let environment: [String: String]
  let clock: EventClock
  let log: Log
  /// Has a crash of splashd remove a file (a socket) first; and stop that.
  let removeOnCrash: (String) -> Void
  let keepOnCrash: (String) -> Void
}

/// The control transports, opened in order with each session. A new one is
/// one file (its `ControlTransport` and its `open`) and one line here.
enum Transports {
  static let all: [@Sendable (TransportContext) -> ControlTransport?] = [
    ControlServer.open,
    PsplashFIFO.open,
    PlymouthSocket.open,
  ]
}

/// The replies to one client, in the order of its requests, though some
/// come later than others (`ControlReply.okOnceShown` waits for a frame, an
/// answer for a person, a snapshot for its thread) and in any order: a
/// reply after a waiting one waits behind it.
struct OrderedReplies {
  /// A place kept for a reply that comes later.
  struct Ticket: Equatable {
    fileprivate let number: Int
  }

  /// The replies not sent yet, in order; nil bytes for one still to come.
  private var slots: [(ticket: Int, bytes: [UInt8]?)] = []
  private var issued = 0

  /// Whether every reply so far may have gone.
  var isEmpty: Bool { slots.isEmpty }

  /// Adds `bytes` after the replies still waiting; returns what may be sent now.
  mutating func add(_ bytes: [UInt8]) -> [UInt8] {
    guard !slots.isEmpty else { return bytes }
    issued += 1
    slots.append((issued, bytes))
    return []
  }

  /// Keeps a place for a reply that comes later.
  mutating func reserve() -> Ticket {
    issued += 1
    slots.append((issued, nil))
    return Ticket(number: issued)
  }

  /// The reply `ticket` kept a place for is `bytes`; returns what may be sent now.
  mutating func fill(_ ticket: Ticket, with bytes: [UInt8]) -> [UInt8] {
    guard let index = slots.firstIndex(where: { $0.ticket == ticket.number }) else { return [] }
    slots[index].bytes = bytes
    var ready: [UInt8] = []
    while let first = slots.first, let bytes = first.bytes {
      ready += bytes
      slots.removeFirst()
    }
    return ready
  }
}
