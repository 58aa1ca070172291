// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// The player's clock over the run loop: its sleeps dispatch every event
/// source until the deadline, and end early when the controller has been
/// asked to stop (`PlaybackInterrupted`).
final class SessionClock: PresentationClock {
  let runLoop: RunLoop
  private let controller: Controller

  init(runLoop: RunLoop, controller: Controller) {
    self.runLoop = runLoop
    self.controller = controller
  }

  func now() -> Double { runLoop.clock.now() }

  func sleep(until deadline: Double) throws {
    runLoop.run(until: deadline) { controller.stopReason != nil }
    try stopIfAsked()
  }

  /// Dispatches what is pending, then throws when a stop has been asked for.
  func checkForStop() throws {
    runLoop.dispatchPending()
    try stopIfAsked()
  }

  private func stopIfAsked() throws {
    if let reason = controller.stopReason { throw PlaybackInterrupted(reason: reason) }
  }
}

/// The reveal gate over the run loop: open once the controller has been
/// told to reveal (by `splashctl reveal`, the `--until-file` watch, the
/// spawned program's READY=1 or its end). A question being asked holds it
/// past the timeout, and the timeout counts again from its answer: the boot
/// waited for the answer too (a disk's passphrase), and goes on from there.
final class SessionGate: RevealGate {
  private let runLoop: RunLoop
  private let controller: Controller
  /// The gate's timeout, in seconds; 0 for none.
  private let timeout: Double

  init(runLoop: RunLoop, controller: Controller, timeout: Double) {
    self.runLoop = runLoop
    self.controller = controller
    self.timeout = timeout
  }

  var isOpen: Bool { controller.revealReason != nil }

  func wait(until deadline: Double) throws -> String? {
    let controller = controller
    func ended() -> Bool { controller.revealReason != nil || controller.stopReason != nil }
    var deadline = deadline
    while !ended() {
      runLoop.run(until: deadline) { ended() || controller.isAsking }
      guard !ended() && controller.isAsking else { break }
      runLoop.run(until: .infinity) { ended() || !controller.isAsking }
      if timeout > 0 { deadline = max(deadline, controller.now() + timeout) }
    }
    if let reason = controller.stopReason { throw PlaybackInterrupted(reason: reason) }
    return controller.revealReason
  }
}
