// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem

/// What a control command gets back.
enum ControlReply: Equatable {
  /// Done; the text follows `ok ` in the reply, if any.
  case ok(String?)
  /// Done once the frame showing it is on the screen: reply `ok` then
  /// (`Controller.whenShown`).
  case okOnceShown
  /// Refused, for this reason.
  case error(String)
  /// Answered once `event` has happened (`ok EVENT`).
  case later(ControlEvent)
  /// A snapshot, sent as `ok png LENGTH` and the PNG file's bytes once
  /// they are made (off the run loop: frames and gates go on meanwhile).
  case png(PendingSnapshot)
  /// `ok HANDOVER-STATE`, sent with the display's descriptors; the splash
  /// ends once it went (`Controller.handedOver`).
  case handover(String, [FileDescriptor])
  /// The answer to a question, once it is typed (`ok ANSWER`), or none.
  case answer(PendingAnswer)
}

/// A reply that comes later, once its work is done: a snapshot made on a
/// thread of its own, an answer typed at the console.
final class Pending<Value>: Equatable {
  private(set) var result: Value?
  private var waiting: [(Value) -> Void] = []

  /// Calls `done` with the result, at once when it is there.
  func whenDone(_ done: @escaping (Value) -> Void) {
    if let result { done(result) } else { waiting.append(done) }
  }

  func finish(_ result: Value) {
    self.result = result
    let waiting = self.waiting
    self.waiting = []
    for done in waiting { done(result) }
  }

  static func == (a: Pending, b: Pending) -> Bool { a === b }
}

/// A snapshot's PNG file's bytes, or why there are none.
typealias PendingSnapshot = Pending<Result<[UInt8], ControlError>>
/// The answer to a question, or why there is none ("the splash ended
/// first", the terminal that could not be read).
typealias PendingAnswer = Pending<Result<String, ControlError>>

/// Executes every command the splash takes, whatever delivered it (the
/// control socket, psplash's FIFO, Plymouth's socket, a signal, a sensor, a
/// gate, the spawned program, a progress source), on the stage, and holds
/// what the commands and the playback decide: the phase, whether the
/// splash is revealed or must stop, the lifecycle events that happened.
/// Transports and sources only parse and reply.
final class Controller {
  /// The clock.
  let now: () -> Double
  /// What is on the screen: the output, the scenes, the angle, the status.
  let stage: Stage
  private let started: Double
  /// Whether the splash is recorded (`status` says display=record).
  var recording = false
  /// Whether a program follows the splash (it keeps the display for it:
  /// no handover).
  var followedByProgram = false
  /// How the playback went, once it has ended on its own (not stopped).
  var playback: PlaybackReport?
  private(set) var phase = SplashPhase.starting
  /// What revealed the splash ("splashctl reveal"); nil while nothing has.
  private(set) var revealReason: String?
  /// What asked the splash to end at once ("SIGTERM"); nil while nothing has.
  private(set) var stopReason: String?
  /// Plymouth's `quit --retain-splash`: the last frame stays on the display
  /// when splashd lets go of it, even with no program to follow.
  private(set) var retainsSplash = false
  /// What follows the splash on the screen and may hold its reveal back
  /// (host mode's program, until its first frame); nil when nothing does.
  weak var successor: ScreenSuccessor?
  /// Whether what followed the splash has the screen now (the splash is
  /// over; a stop asked from now on is its to carry out too).
  private(set) var successorHasScreen = false
  /// `step-aside`: the screen goes back to the console, nothing kept on it.
  private(set) var stepsAside = false
  /// Called with each new angle (for the program's SPLASHD_ROTATION).
  var onRotation: (Rotation) -> Void = { _ in }
  /// Where snapshots are made into PNG files, off the run loop; nil: made
  /// in place.
  var snapshots: BackgroundWork?
  /// Who asks the questions of the person at the screen; nil: nobody can
  /// answer (a recording).
  var questions: Questions?
  /// Who switches the screen off and on (`screen`).
  weak var screenPower: ScreenPowerKeeper?
  private let log: Log
  /// Seconds from the start to the first frame on the screen.
  private(set) var appearedAfter: Double?
  /// Seconds from the start to the first reveal (the transition's start).
  private(set) var revealedAfter: Double?
  /// The clock time the first frame was on the screen; nil before.
  private(set) var appearedAt: Double?
  private(set) var happened: Set<ControlEvent> = []
  /// The playback events, in order, as they happened.
  private(set) var playbackEvents: [PlaybackEvent] = []
  private var observers: [(ControlEvent) -> Void] = []

  init(stage: Stage, started: Double, now: @escaping () -> Double, log: Log) {
    self.stage = stage
    self.started = started
    self.now = now
    self.log = log
  }

  /// The angle the splash is shown at (it may turn while it holds).
  var rotation: Rotation { stage.rotation }

  /// Whether a question waits for its answer (it holds the splash past
  /// the gate's timeout: the boot waits for the answer too).
  var isAsking: Bool { questions?.isAsking ?? false }

  /// Executes `command`; `cause` says who asked, as the log and the
  /// reveal or stop reason name it ("splashctl reveal", "SIGTERM", "the
  /// accelerometer"); `asker`, the client a question's answer goes to.
  func execute(_ command: ControlCommand, because cause: String, from asker: Asker? = nil) -> ControlReply {
    switch command {
    case .reveal:
      reveal(because: cause)
      return .ok(nil)
    case .stop:
      stop(because: cause)
      if successorHasScreen { successor?.stopAskedAfterSplash() }
      return .ok(nil)
    case .stepAside:
      stop(because: cause)
      stepsAside = true
      return .later(.didDisappear)
    case .finish(let retaining):
      if retaining { retainsSplash = true }
      if stage.isPaused { stop(because: cause) } else { reveal(because: cause) }
      return happened.contains(.didDisappear) ? .ok(nil) : .later(.didDisappear)
    case .pauseDrawing:
      // Once what followed the splash has the screen (host mode's program),
      // no other program takes it from splashd: drawing goes on.
      if !successorHasScreen { stage.setPaused(true) }
      return .ok(nil)
    case .resumeDrawing:
      stage.setPaused(false)
      return .ok(nil)
    case .status:
      return .ok(statusLine())
    case .rotate(let rotation):
      if let problem = turn(to: rotation, by: cause) { return .error(problem) }
      return .okOnceShown
    case .wait(let event):
      return happened.contains(event) ? .ok(event.rawValue) : .later(event)
    case .progress(let percent):
      var next = stage.status
      next.progress = BootStatus.clamped(percent)
      return show(next)
    case .message(let text):
      var next = stage.status
      next.message = text
      return show(next)
    case .ask(let question):
      // After the splash, only where splashd keeps the screen (host mode:
      // the splash comes back over the program to ask).
      guard let questions, let asker, phase != .done || successorHasScreen else {
        return .error("ask: nobody can answer here")
      }
      return .answer(questions.ask(question, by: asker))
    case .screen(let asked):
      guard let screenPower, stage.output != nil else { return .error("screen: there is no display to switch") }
      return .ok(screenPower.execute(asked))
    case .handover:
      // A display handed over already stopped the splash too.
      guard phase.isHolding, stopReason == nil else { return .error("handover: the splash is ending") }
      guard !followedByProgram else { return .error("handover: this splash hands the display to its program") }
      // Its answer would be lost with the splash (a disk's passphrase half typed).
      guard !isAsking else { return .error("handover: a question waits for its answer here") }
      // The adopter flips on the screens at once: they must be on.
      screenPower?.switchOnForHandover()
      switch stage.handover() {
      case .success(let (display, cards)):
        let state = AdoptionState(
          display: display, cards: cards.map(\.path), rotation: rotation, status: stage.status)
        return .handover("ok " + state.text, cards.map(\.descriptor))
      case .failure(let problem): return .error("handover: \(problem.message)")
      }
    case .snapshot:
      let pixels: Pixels
      switch stage.snapshot() {
      case .success(let copied): pixels = copied
      case .failure(let problem): return .error("snapshot: \(problem.message)")
      }
      let encode = { () -> Result<[UInt8], ControlError> in
        do throws(RenderError) {
          return .success(try pngData(of: pixels))
        } catch {
          return .failure(ControlError("snapshot: \(error)"))
        }
      }
      let pending = PendingSnapshot()
      guard let snapshots else {
        pending.finish(encode())
        return .png(pending)
      }
      guard snapshots.submit(encode, done: pending.finish) else {
        return .error("snapshot: \(snapshots.limit) are being made; try again once one is sent")
      }
      return .png(pending)
    }
  }

  /// Runs `reply` once the stage's frame shows every change executed so
  /// far (an `okOnceShown`'s `ok`).
  func whenShown(_ reply: @escaping () -> Void) { stage.afterFrame(reply) }

  /// Lets the held splash start its transition, once its hold is over,
  /// unless what follows it holds the reveal back (it makes the reveal
  /// again when it is ready). The first reason is kept.
  private func reveal(because reason: String) {
    if successor?.holdsBack(revealFor: reason) == true { return }
    if revealReason == nil { revealReason = reason }
  }

  /// The splash holds again (what followed it ended and it comes back, or
  /// splashd stops, for the shutdown's picture): what revealed or stopped
  /// the splash before is forgotten.
  func beginAgain() {
    phase = .holding
    revealReason = nil
    stopReason = nil
    screenPower?.splashShows()
  }

  /// Ends the splash now, without its transition, as a stop would, though
  /// nobody asked splashd to stop (what was to follow it ended first).
  func endSplash(because cause: String) { stop(because: cause) }

  /// Ends the splash now, without its transition. The first reason is kept.
  private func stop(because reason: String) {
    if stopReason == nil { stopReason = reason }
  }

  /// The splash is over, played or stopped (its phase is `done`), and
  /// what followed it has the screen from now on.
  func successorTakesScreen() {
    phase = .done
    successorHasScreen = true
  }

  /// Whether a new angle turns the screen: while the splash holds, and
  /// after it while what followed it turns with the screen.
  var turns: Bool { phase.isHolding || (phase == .done && successor?.turnsAfterSplash == true) }

  /// Turns a held splash, or what followed it, to `rotation` for `cause`;
  /// returns why it could not.
  private func turn(to rotation: Rotation, by cause: String) -> String? {
    guard turns else {
      return "rotate: the transition has started; the angle stays \(self.rotation.rawValue)"
    }
    if let problem = stage.turn(to: rotation, by: cause) { return "rotate: \(problem)" }
    onRotation(rotation)
    return nil
  }

  private func show(_ next: BootStatus) -> ControlReply {
    if let problem = stage.show(next) { return .error("message: \(problem)") }
    return .okOnceShown
  }

  /// The display went to the splashd `adopter` ("splashd (pid 812)"):
  /// the splash ends now, drawing nothing more.
  func handedOver(to adopter: String) {
    stage.handedOver()
    log.info("handover: the display went to \(adopter); this splash ends")
    stop(because: "handed over to \(adopter)")
  }

  /// Calls `observer` with each lifecycle event from now on.
  func observe(_ observer: @escaping (ControlEvent) -> Void) { observers.append(observer) }

  /// Takes note of a playback event: the phase, and the events clients may wait for.
  func record(_ event: PlaybackEvent) {
    playbackEvents.append(event)
    phase = phase.after(event)
    stage.record(event)
    switch event {
    case .appeared(let at):
      // A splash played again (host mode's restart) appeared long before.
      guard appearedAt == nil else { break }
      appearedAt = at
      appearedAfter = at - started
      publish(.appeared)
    case .willDisappear(let at):
      if revealedAfter == nil { revealedAfter = at - started }
      publish(.willDisappear)
    case .waiting, .gateOpened, .gateTimedOut, .didDisappear: break
    }
  }

  /// Tells the observers that `event` has happened (did-disappear is
  /// published once the display is released).
  func publish(_ event: ControlEvent) {
    guard happened.insert(event).inserted else { return }
    for observer in observers { observer(event) }
  }

  /// The `status` reply's fields.
  func statusLine() -> String {
    var fields = [
      "phase=\(phase.rawValue)", "rotation=\(rotation.rawValue)", "display=\(recording ? "record" : stage.display)",
      "uptime_s=\(formatFixed(now() - started, decimals: 3))",
    ]
    if let appearedAfter { fields.append("appeared_ms=\(formatFixed(appearedAfter * 1000, decimals: 1))") }
    if let progress = stage.status.progress { fields.append("progress=\(formatNumber(progress))") }
    if let waiting = questions?.waiting, waiting > 0 { fields.append("asking=\(waiting)") }
    let screens = stage.screenStates
    if !screens.isEmpty { fields.append("screens=" + screens.joined(separator: ",")) }
    fields += successor?.statusFields ?? []
    fields += screenPower?.statusFields ?? []
    return fields.joined(separator: " ")
  }
}

/// What follows the splash on the screen and shares it with the splash
/// (host mode's program, `FirstFrameHold`): the controller asks it, and
/// knows nothing else of it.
protocol ScreenSuccessor: AnyObject {
  /// Whether a reveal for `reason` waits (it is kept, and made again once
  /// the wait is over).
  func holdsBack(revealFor reason: String) -> Bool
  /// Whether the screen still turns once the splash is done (the
  /// program's window turns with it).
  var turnsAfterSplash: Bool { get }
  /// What the `status` reply says of it ("program=shown", …).
  var statusFields: [String] { get }
  /// splashd was asked to stop (SIGTERM, `splashctl quit`) after the
  /// splash, while it has the screen.
  func stopAskedAfterSplash()
}
