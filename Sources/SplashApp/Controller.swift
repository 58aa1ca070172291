// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// The scene the commands act on: implemented by the session, which owns it.
protocol HeldScene: AnyObject {
  /// Turns the splash to `rotation`, asked for by `cause` ("splashctl
  /// rotate"); returns why it could not, or nil.
  func turn(to rotation: Rotation, by cause: String) -> String?
  /// Shows `status` (the bar, the message); returns why it could not, or nil.
  func show(_ status: BootStatus) -> String?
  /// What the display shows now, as a PNG file's bytes.
  func snapshot() -> Result<[UInt8], ControlError>
  /// Lets another program have the screen (`active` false), or takes it
  /// back and draws the held splash again, whole.
  func setActive(_ active: Bool)
  /// What a splashd that adopts this one needs: the state and the display's
  /// descriptors; or why this display cannot be handed over.
  func handoverState() -> Result<(HandoverState, [FileDescriptor]), ControlError>
  /// The display belongs to another splashd now: nothing may be drawn or
  /// let go of from here on.
  func didHandOver()
}

/// What a control command gets back.
enum ControlReply: Equatable {
  /// Done; the text follows `ok ` in the reply, if any.
  case ok(String?)
  /// Refused, for this reason.
  case error(String)
  /// Answered once `event` has happened (`ok EVENT`).
  case later(ControlEvent)
  /// A PNG file's bytes, sent after `ok png LENGTH`.
  case png([UInt8])
  /// `ok HANDOVER-STATE`, sent with the display's descriptors; the splash
  /// ends once it went (`Controller.handedOver`).
  case handover(String, [FileDescriptor])
}

/// Executes every command the splash takes, whatever delivered it (the
/// control socket, a signal, a sensor, a gate), and holds what they
/// changed: the phase, the angle, whether the splash is revealed or must
/// stop. Transports only parse and reply.
final class Controller {
  /// The clock.
  let now: () -> Double
  private let started: Double
  /// The back end shown on ("fbdev"), for `status`.
  var display = "none"
  /// The screens of a back end that drives several, each
  /// "NAME:MODE:DEGREES" ("HDMI-A-1:1920x1080@60:0"), for `status`.
  var screens: [String] = []
  private(set) var phase = SplashPhase.starting
  /// The angle the splash is shown at (it may turn while it holds).
  private(set) var rotation: Rotation
  /// What revealed the splash ("splashctl reveal"); nil while nothing has.
  private(set) var revealReason: String?
  /// What asked the splash to end at once ("SIGTERM"); nil while nothing has.
  private(set) var stopReason: String?
  /// What the status layers show (set before the scene exists, it is shown
  /// from the first frame).
  private(set) var status: BootStatus
  /// The scene; nil until there is one.
  weak var scene: HeldScene?
  /// Plymouth's `quit --retain-splash`: the last frame stays on the display
  /// when splashd lets go of it, even with no program to follow.
  private(set) var retainsSplash = false
  /// Plymouth's `deactivate`: the held splash is not drawn again until
  /// `reactivate` (its status still changes).
  private(set) var drawingPaused = false
  /// Called with each new angle (for the program's SPLASHD_ROTATION).
  var onRotation: (Rotation) -> Void = { _ in }
  private let log: Log
  private var appearedAfter: Double?
  /// The clock time the first frame was on the screen; nil before.
  private(set) var appearedAt: Double?
  private(set) var happened: Set<ControlEvent> = []
  private var observers: [(ControlEvent) -> Void] = []

  init(rotation: Rotation, status: BootStatus, started: Double, now: @escaping () -> Double, log: Log) {
    self.rotation = rotation
    self.status = status
    self.started = started
    self.now = now
    self.log = log
  }

  /// Lets the held splash start its transition, once its hold is over.
  /// The first reason is kept.
  func reveal(because reason: String) {
    if revealReason == nil { revealReason = reason }
  }

  /// Reveals, and keeps the last frame on the display at the end when
  /// `retaining`. While another program has the screen (deactivated), the
  /// splash ends without its transition: nothing more may be drawn.
  func quit(retaining: Bool, because reason: String) {
    if retaining { retainsSplash = true }
    if drawingPaused { stop(because: reason) } else { reveal(because: reason) }
  }

  /// Lets another program have the screen and stops drawing, or takes the
  /// screen back and draws the held splash again, whole.
  func pauseDrawing(_ paused: Bool) {
    guard paused != drawingPaused else { return }
    drawingPaused = paused
    scene?.setActive(!paused)
  }

  /// Ends the splash now, without its transition. The first reason is kept.
  func stop(because reason: String) {
    if stopReason == nil { stopReason = reason }
  }

  /// The display went to the splashd `adopter` ("splashd (pid 812)"):
  /// the splash ends now, drawing nothing more.
  func handedOver(to adopter: String) {
    scene?.didHandOver()
    log.info("handover: the display went to \(adopter); this splash ends")
    stop(because: "handed over to \(adopter)")
  }

  /// Starts from the boot status a previous splashd showed (its bar, its
  /// message), before the scene exists.
  func adopt(_ previous: BootStatus) {
    if let progress = previous.progress { status.progress = progress }
    if let message = previous.message { status.message = message }
  }

  /// Turns a held splash to `rotation` for `cause`; returns why it could not.
  func turn(to rotation: Rotation, by cause: String) -> String? {
    guard phase.isHolding else {
      return "rotate: the transition has started; the angle stays \(self.rotation.rawValue)"
    }
    guard let scene else { return "rotate: this splash cannot turn" }
    if let problem = scene.turn(to: rotation, by: cause) { return "rotate: \(problem)" }
    self.rotation = rotation
    onRotation(rotation)
    return nil
  }

  /// Shows the progress bar at `percent` (−100…100; negative fills from the right).
  func setProgress(_ percent: Double) {
    var next = status
    next.progress = BootStatus.clamped(percent)
    _ = show(next)
  }

  /// Shows `text` as the message, or none; returns why it could not.
  func setMessage(_ text: String?) -> String? {
    var next = status
    next.message = text
    return show(next).map { "message: \($0)" }
  }

  private func show(_ next: BootStatus) -> String? {
    guard next != status else { return nil }
    if let problem = scene?.show(next) { return problem }
    status = next
    return nil
  }

  /// Calls `observer` with each lifecycle event from now on.
  func observe(_ observer: @escaping (ControlEvent) -> Void) { observers.append(observer) }

  /// Takes note of a playback event: the phase, and the events clients may wait for.
  func record(_ event: PlaybackEvent) {
    phase = phase.after(event)
    switch event {
    case .appeared(let at):
      appearedAt = at
      appearedAfter = at - started
      publish(.appeared)
    case .willDisappear: publish(.willDisappear)
    case .waiting, .gateOpened, .gateTimedOut, .didDisappear: break
    }
  }

  /// Tells the observers that `event` has happened (did-disappear is
  /// published once the display is released).
  func publish(_ event: ControlEvent) {
    guard happened.insert(event).inserted else { return }
    for observer in observers { observer(event) }
  }

  /// Executes `command`, which came from `client` ("splashctl").
  func execute(_ command: ControlCommand, from client: String) -> ControlReply {
    switch command {
    case .reveal:
      reveal(because: "\(client) reveal")
      return .ok(nil)
    case .quit:
      stop(because: "\(client) quit")
      return .ok(nil)
    case .status:
      return .ok(statusLine())
    case .rotate(let rotation):
      if let problem = turn(to: rotation, by: "\(client) rotate") { return .error(problem) }
      return .ok(nil)
    case .wait(let event):
      return happened.contains(event) ? .ok(event.rawValue) : .later(event)
    case .progress(let percent):
      setProgress(percent)
      return .ok(nil)
    case .message(let text):
      if let problem = setMessage(text) { return .error(problem) }
      return .ok(nil)
    case .handover:
      // A display handed over already stopped the splash too.
      guard phase.isHolding, stopReason == nil else { return .error("handover: the splash is ending") }
      guard let scene else { return .error("handover: nothing is shown yet") }
      switch scene.handoverState() {
      case .success(let (state, descriptors)): return .handover("ok " + state.text, descriptors)
      case .failure(let problem): return .error("handover: \(problem.message)")
      }
    case .snapshot:
      guard let scene else { return .error("snapshot: nothing is shown yet") }
      switch scene.snapshot() {
      case .success(let bytes): return .png(bytes)
      case .failure(let problem): return .error("snapshot: \(problem.message)")
      }
    }
  }

  /// The `status` reply's fields.
  func statusLine() -> String {
    var fields = [
      "phase=\(phase.rawValue)", "rotation=\(rotation.rawValue)", "display=\(display)",
      "uptime_s=\(formatFixed(now() - started, decimals: 3))",
    ]
    if let appearedAfter { fields.append("appeared_ms=\(formatFixed(appearedAfter * 1000, decimals: 1))") }
    if let progress = status.progress { fields.append("progress=\(formatNumber(progress))") }
    if !screens.isEmpty { fields.append("screens=" + screens.joined(separator: ",")) }
    return fields.joined(separator: " ")
  }
}
