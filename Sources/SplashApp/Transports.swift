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
/// wait for the frame that shows what their request changed
/// (`ControlReply.okOnceShown`): a reply after a waiting one waits behind it.
struct OrderedReplies {
  /// The replies not sent yet, in order; nil for one that waits for a frame.
  private var slots: [[UInt8]?] = []

  /// Whether every reply so far may have gone.
  var isEmpty: Bool { slots.isEmpty }

  /// Adds `bytes` after the replies still waiting; returns what may be sent now.
  mutating func add(_ bytes: [UInt8]) -> [UInt8] {
    guard !slots.isEmpty else { return bytes }
    slots.append(bytes)
    return []
  }

  /// Keeps a place for a reply that waits for a frame.
  mutating func reserve() { slots.append(nil) }

  /// The first reply that waited is `bytes`; returns what may be sent now.
  mutating func fill(_ bytes: [UInt8]) -> [UInt8] {
    guard let index = slots.firstIndex(where: { $0 == nil }) else { return [] }
    slots[index] = bytes
    var ready: [UInt8] = []
    while let first = slots.first, let bytes = first {
      ready += bytes
      slots.removeFirst()
    }
    return ready
  }
}
