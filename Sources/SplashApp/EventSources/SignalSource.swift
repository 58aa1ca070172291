// SPDX-License-Identifier: Apache-2.0
import SplashSystem

/// Where signals are read from: `StopSignals` (a signalfd), or a stand-in.
protocol SignalReceiving: AnyObject {
  var descriptor: FileDescriptor { get }
  /// The next signal that has arrived, if any.
  func next() -> Int32?
}

extension StopSignals: SignalReceiving {}

/// SIGTERM and SIGINT end the splash at once; every signal that comes is
/// passed on to a spawned program, if there is one.
final class SignalSource: EventSource {
  let signals: SignalReceiving
  private let controller: Controller
  /// Passes a signal on (to the program of `--ready notify`).
  var passOn: (Int32) -> Void = { _ in }

  init(_ signals: SignalReceiving, controller: Controller) {
    self.signals = signals
    self.controller = controller
  }

  var descriptors: [FileDescriptor] { [signals.descriptor] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    while let signal = signals.next() {
      passOn(signal)
      if StopSignals.stops(signal) { _ = controller.execute(.stop, because: StopSignals.name(signal)) }
    }
  }
}
