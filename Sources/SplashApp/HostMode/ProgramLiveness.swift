// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem
import SplashWaylandHost

/// Whether host mode's program still answers (`hang-timeout`): once it has
/// shown its first frame, the client of its window is pinged (xdg_wm_base's
/// ping) at the intervals `HangCheck` says, and a pong that does not come
/// within the timeout (the compositor's `pingMissed`) makes it `hung`: a
/// frozen program, which the kiosk's supervision ends and starts again as
/// a failure. An X11 program's window is not pinged.
final class ProgramLiveness: EventSource {
  /// The check; nil when `hang-timeout` is 0 (off).
  let check: HangCheck?
  private let clock: EventClock
  private let log: Log
  /// The compositor whose client is pinged, once the program is started.
  private weak var host: (any WaylandHosting)?
  /// Whether the program has shown its first frame (for this start).
  var programShown: () -> Bool = { false }
  /// Whether it runs.
  var programRuns: () -> Bool = { false }
  /// The program is being ended (its silence is expected).
  var ending = false
  /// The program missed a pong: it is frozen.
  private(set) var hung = false
  /// When the next ping is due, while the program is pinged.
  private var due: Double?
  /// Whether it was said that its window cannot be pinged (an X11 one).
  private var saidNotPinged = false

  init(timeout: Double, clock: EventClock, log: Log) {
    check = HangCheck(timeout: timeout)
    self.clock = clock
    self.log = log
  }

  /// The pings go to `host`'s program from now on.
  func serve(_ host: any WaylandHosting) { self.host = host }

  /// The program starts again: nothing of the last one's is held against it.
  func programRestarts() {
    hung = false
    ending = false
    due = nil
  }

  /// The compositor said a ping went unanswered.
  func pingMissed() {
    guard let check, !hung, HangCheck.hung(running: programRuns(), ending: ending) else { return }
    hung = true
    log.error(
      "host mode: the program did not answer a ping within \(formatNumber(check.timeout)) s (hang-timeout): "
        + "it is frozen")
  }

  // MARK: The run loop's source

  var descriptors: [FileDescriptor] { [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {}

  func prepareToWait() {
    guard let check, host != nil,
      HangCheck.pings(programShown: programShown(), running: programRuns(), ending: ending || hung)
    else {
      due = nil
      return
    }
    if due == nil { due = check.nextPing(after: clock.now()) }
  }

  var wakeTime: Double? { due }

  func wake() {
    guard let check, let due, clock.now() >= due, let host else { return }
    self.due = check.nextPing(after: clock.now())
    if !host.ping(within: check.timeout), !saidNotPinged {
      saidNotPinged = true
      log.info("host mode: the program's window is not an xdg-shell one; hang-timeout does not apply to it")
    }
  }
}
