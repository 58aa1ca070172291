import SplashCore
import SplashSystem

/// Tells the log and systemd (when NOTIFY_SOCKET is set) how the splash is
/// doing: READY=1 once the first frame is really on screen, a STATUS= line
/// for every event.
final class Lifecycle {
  private let notifier: SystemdNotifier?
  private let monotonic: MonotonicClock
  private let started: Double
  private var readySent = false
  /// Clients of the control socket hear of each event too.
  var control: ControlServer?
  /// Where the splash is, for `splashctl status`.
  private(set) var phase = "starting"
  /// The angle the splash is shown at (it may turn while it holds).
  var rotation: Rotation = .none

  /// Whether the splash still stands still (the doors have not started moving).
  var isHolding: Bool { phase == "starting" || phase == "holding" || phase == "waiting" }
  private var appearedAfter: Double?
  private var disappeared = false

  init(_ monotonic: MonotonicClock, started: Double) {
    self.monotonic = monotonic
    self.started = started
    notifier = SystemdNotifier(socketPath: Environment.value("NOTIFY_SOCKET"))
  }

  /// The `status` reply for a splash shown on `display`.
  func status(display: String) -> String {
    var fields = [
      "phase=\(phase)", "rotation=\(rotation.rawValue)", "display=\(display)",
      "uptime_s=\(formatFixed(monotonic.now() - started, decimals: 3))",
    ]
    if let appearedAfter { fields.append("appeared_ms=\(formatFixed(appearedAfter * 1000, decimals: 1))") }
    return fields.joined(separator: " ")
  }

  /// Reports one event of `settings`' splash.
  func report(_ event: PlaybackEvent, _ settings: Settings) {
    switch event {
    case .appeared(let at):
      phase = settings.hasGate ? "waiting" : "holding"
      appearedAfter = at - started
      control?.publish(.appeared)
      let after = formatFixed((at - started) * 1000, decimals: 1)
      Log.info("appeared: first frame shown at monotonic \(formatFixed(at, decimals: 6)) s, \(after) ms after start")
      notify("READY=1\nSTATUS=Splash shown, first frame \(after) ms after start")
      readySent = true
    case .gateOpened(_, let reason):
      Log.info("reveal: \(reason)")
      notify("STATUS=Revealing: \(reason)")
    case .gateTimedOut:
      Log.info("reveal: timeout after \(formatNumber(settings.timeout)) s (--timeout)")
      notify("STATUS=Revealing: timeout after \(formatNumber(settings.timeout)) s")
    case .willDisappear(let at):
      phase = "transition"
      control?.publish(.willDisappear)
      Log.info(
        "will-disappear: transition \(settings.transition.rawValue) starts at monotonic \(formatFixed(at, decimals: 6)) s"
      )
      notify("STATUS=Transition \(settings.transition.rawValue) running")
    case .didDisappear:
      phase = "done"
      disappeared = true
      Log.info("did-disappear: transition done")
      notify("STATUS=Splash done")
    }
  }

  /// Before splashd exits or hands off, with the display released: a
  /// splash that never showed still tells systemd it is ready, so that its
  /// unit is not held up; control clients hear did-disappear (when the
  /// transition was done) and the socket closes.
  func finish(status: String) {
    if !readySent { notify("READY=1\nSTATUS=\(status)") }
    if disappeared { control?.publish(.didDisappear) }
    control?.close()
    control = nil
  }

  private func notify(_ state: String) { notifier?.send(state) }
}
