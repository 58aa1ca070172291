// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// Host mode's hold on the reveal: while the program is starting, a reveal
/// waits for its first frame (the doors open onto the program, never onto
/// nothing; the gate's timeout still ends the wait), and is made again
/// once the frame is shown, or once the program closed its connection
/// before one (a frame that cannot come is not waited for). What the
/// controller asks of what follows the splash (`ScreenSuccessor`), and what
/// `status` says of the program: program=starting|shown|disconnected,
/// restarts=N, windows=N, scanout=direct|composed|software (each screen's path).
final class FirstFrameHold: ScreenSuccessor {
  /// Where the program is: starting (no frame yet), shown, or disconnected
  /// (no connection, before its first frame; starting again should it
  /// connect again).
  enum State: String { case starting, shown, disconnected }
  /// Where the program is; nil without a compositor (it runs after the
  /// splash instead).
  private(set) var state: State? = .starting
  /// How many times the program was started again.
  private(set) var restarts = 0
  /// How many windows the compositor shows.
  var windows: () -> Int = { 0 }
  /// The path each screen's frames take (`ProgramFrames.screenPaths`).
  var screenPaths: () -> [String] = { [] }
  /// Told when splashd is asked to stop after the splash.
  var onStopAfterSplash: () -> Void = {}
  /// The program has failed for good: what the diagnostic screen shows,
  /// which `status` says too (program=failed, ended=, …).
  var failure: FailureReport?
  /// The reveal that waits for the first frame: its reason.
  private var waitingReveal: String?
  /// Where a waiting reveal is made again.
  private weak var controller: Controller?
  private let log: Log

  init(controller: Controller, log: Log) {
    self.controller = controller
    self.log = log
  }

  func holdsBack(revealFor reason: String) -> Bool {
    guard state == .starting else { return false }
    if waitingReveal == nil {
      waitingReveal = reason
      log.info("reveal: \(reason); waiting for the program's first frame")
    }
    return true
  }

  var turnsAfterSplash: Bool { state != nil }

  var statusFields: [String] {
    var fields: [String] = []
    if let failure {
      fields += failure.statusFields.prefix(1)
    } else if let state {
      fields.append("program=\(state.rawValue)")
    }
    if restarts > 0 { fields.append("restarts=\(restarts)") }
    if let failure { fields += failure.statusFields.dropFirst() }
    if state != nil { fields.append("windows=\(windows())") }
    if state == .shown, case let paths = screenPaths(), !paths.isEmpty {
      fields.append("scanout=" + paths.joined(separator: ","))
    }
    return fields
  }

  func stopAskedAfterSplash() { onStopAfterSplash() }

  /// The program is started again: reveals wait for its new first frame.
  func programRestarted() {
    restarts += 1
    state = .starting
  }

  /// The program connected again after it had no connection: reveals wait
  /// for its first frame again.
  func programConnectedAgain() { state = .starting }

  /// The program's first frame is drawn: a reveal that waited goes ahead.
  func firstFrameShown() { stopWaiting(.shown) }

  /// The program closed its connection before its first frame.
  func programDisconnected() { stopWaiting(.disconnected) }

  /// There is no compositor: the program runs after the splash, which
  /// waits for no frame.
  func noCompositor() { stopWaiting(nil) }

  /// The splash holds again: a reveal made before is forgotten.
  func beginAgain() { waitingReveal = nil }

  /// No frame is waited for from now on (`next`); a waiting reveal is made
  /// again.
  private func stopWaiting(_ next: State?) {
    state = next
    if let waitingReveal { _ = controller?.execute(.reveal, because: waitingReveal) }
  }
}
