// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashSettings
import SplashSystem

/// The screen's power (`[screen-power]`, `splashctl screen`): asks
/// `ScreenPower` whether the screen is on, from the input seen, the time of
/// day, the program's idle inhibitors and the commands, and carries it out:
/// off is the backlights turned down and the display switched off (the
/// stage draws and presents nothing meanwhile, so the program gets no frame
/// callbacks), and input withheld from the program (`onDarkChanged`), so
/// that the key or touch that wakes the screen reaches nothing; on is the
/// display on, the frame drawn again and the backlights back.
final class ScreenPowerKeeper: EventSource {
  private var power: ScreenPower
  private let stage: Stage
  private let clock: EventClock
  /// Seconds since local midnight now.
  private let secondOfDay: () -> Double
  private let backlights: Backlights
  private let log: Log
  /// Whether idle-off and the schedule apply now: host mode's program is
  /// shown and no question is asked (never without host mode).
  var applies: () -> Bool = { false }
  /// Whether a client holds an idle inhibitor.
  var inhibited: () -> Bool = { false }
  /// Told when the screen goes off (true) and on again (false).
  var onDarkChanged: (Bool) -> Void = { _ in }
  /// Told after each switch, off or on.
  var onSwitched: () -> Void = {}
  /// Seconds the screen was on before it last went on (or off), and when
  /// it last went on (nil while it is off).
  private var onBefore = 0.0
  private var onSince: Double?
  /// When to decide again; nil: only when something happens.
  private var next: Double?
  /// Whether the display was said to have no power switch.
  private var saidCannotSwitch = false
  /// Whether splashd let go of the display (`release`).
  private var released = false

  init(
    _ settings: ScreenPowerSettings, stage: Stage, clock: EventClock, secondOfDay: @escaping () -> Double,
    backlights: Backlights, log: Log
  ) {
    power = ScreenPower(idleOff: settings.idleOff, schedule: settings.schedule, now: clock.now())
    self.stage = stage
    self.clock = clock
    self.secondOfDay = secondOfDay
    self.backlights = backlights
    self.log = log
    onSince = clock.now()
    if power.decidesOnItsOwn { next = clock.now() }
  }

  /// Whether the screen is on, and the seconds it was on since the start.
  var screenTime: FleetMetrics.ScreenTime {
    .init(isOn: power.isOn, onSeconds: onBefore + (onSince.map { clock.now() - $0 } ?? 0))
  }

  var descriptors: [FileDescriptor] { [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {}

  var wakeTime: Double? { next }

  func wake() {
    guard let next, clock.now() >= next else { return }
    decide()
  }

  /// A key, a button, a touch or the pointer moved: the screen wakes (or
  /// stays on), and idle time counts from now.
  func inputSeen() {
    power.activity(at: clock.now())
    decide()
  }

  /// A client's idle inhibitor came or went: one that went counts as
  /// input for idle-off (without waking a screen that is off).
  func inhibitionChanged() {
    if !inhibited() { power.inhibitionEnded(at: clock.now()) }
    decide()
  }

  /// `splashctl screen on|off|status`: the reply's text (`screen=on`, or
  /// `screen=off off_by=REASON`).
  func execute(_ command: ScreenPowerCommand) -> String {
    switch command {
    case .on: power.activity(at: clock.now())
    case .off: power.forceOff()
    case .status: break
    }
    decide()
    return power.isOn ? "screen=on" : statusFields.joined(separator: " ")
  }

  /// What `status` says of the screen: `screen=off off_by=REASON` while it
  /// is off, nothing while it is on.
  var statusFields: [String] {
    guard !power.isOn else { return [] }
    return ["screen=off"] + (power.offBecause.map { ["off_by=\($0.rawValue)"] } ?? [])
  }

  /// Decides now, and switches the screen when it is to be otherwise.
  func decide() {
    guard !released else { return }
    let now = clock.now()
    let applies = self.applies()
    next = power.decide(now: now, secondOfDay: secondOfDay(), inhibited: applies && inhibited(), applies: applies)
    // While the splash shows, whether it still does is asked once a second.
    if power.decidesOnItsOwn && !applies { next = min(next ?? now + 1, now + 1) }
    guard power.isOn == stage.isDark else { return }
    if power.isOn {
      onSince = now
      light()
    } else {
      onBefore += onSince.map { now - $0 } ?? 0
      onSince = nil
      darken()
    }
    onSwitched()
  }

  /// The splash shows again over the program (it ended or froze, the
  /// shutdown), or a question is asked on it: the screen comes on, as
  /// input would wake it, so that what it says is seen.
  func splashShows() {
    guard !released else { return }
    power.activity(at: clock.now())
    decide()
  }

  /// The display is handed over to another splashd, which flips on it at
  /// once: a screen that is off is switched on (as input would), and its
  /// frame drawn.
  func switchOnForHandover() {
    splashShows()
    stage.drawPendingNow()
  }

  /// splashd lets go of the display: a screen that is off is switched on,
  /// its frame drawn and its backlights put back, so that the program or
  /// console that has it next is not left dark; nothing is switched after.
  func release() {
    guard !released else { return }
    splashShows()
    released = true
    next = nil
    stage.drawPendingNow()
  }

  private func darken() {
    // A display without a power switch stops drawing, lit: its backlight stays.
    if stage.canSwitchPower {
      for line in backlights.turnDown() { log.error("screen power: \(line)") }
    }
    switched(stage.setDark(true))
    log.info("screen power: off (\(power.offBecause?.rawValue ?? "asked"))")
    onDarkChanged(true)
  }

  private func light() {
    switched(stage.setDark(false))
    for line in backlights.restore() { log.error("screen power: \(line)") }
    log.info("screen power: on")
    onDarkChanged(false)
  }

  /// Says what the display could not do: once, for a display with no
  /// power switch (a window, offscreen: it shows black instead).
  private func switched(_ result: Result<Bool, ControlError>) {
    switch result {
    case .success(true): break
    case .success(false):
      guard !saidCannotSwitch else { break }
      saidCannotSwitch = true
      log.info("screen power: the \(stage.display) display has no power switch; it shows black while it is off")
    case .failure(let problem): log.error("screen power: \(problem.message)")
    }
  }
}
