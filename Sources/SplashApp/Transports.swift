// SPDX-License-Identifier: Apache-2.0
import SplashCore
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
