// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// splashd's figures for a fleet's monitoring (`FleetMetrics`), published
/// each time one changes: the first frame, the reveal, the splash done,
/// host mode's program started or ended, the screen switched off or on,
/// and as splashd ends. They go to `metrics-file` (`MetricsFile`) and, when
/// splashd's output is the journal, to the journal as fields of their own
/// (`FleetMetrics.journalEntry`).
final class FleetFigures {
  private let controller: Controller
  private let stage: Stage
  /// Host mode's program, once it is supervised.
  private weak var kiosk: KioskSupervisor?
  /// The screen's power.
  private weak var screenPower: ScreenPowerKeeper?
  /// Seconds since the Unix epoch.
  private let wallClock: () -> Double
  /// Where the figures go, each time.
  private let sinks: [(FleetMetrics) -> Void]

  init(controller: Controller, stage: Stage, wallClock: @escaping () -> Double, sinks: [(FleetMetrics) -> Void]) {
    self.controller = controller
    self.stage = stage
    self.wallClock = wallClock
    self.sinks = sinks
    // Each of the splash's events (appeared, will-disappear, did-disappear).
    controller.observe { [weak self] _ in self?.publish() }
  }

  /// Counts host mode's program from now on, published as they change.
  func follow(_ kiosk: KioskSupervisor) {
    self.kiosk = kiosk
    kiosk.onCountsChanged = { [weak self] in self?.publish() }
  }

  /// The screen's on-time from now on, published at each switch.
  func follow(_ power: ScreenPowerKeeper) {
    screenPower = power
    power.onSwitched = { [weak self] in self?.publish() }
  }

  /// The figures now.
  var figures: FleetMetrics {
    var figures = FleetMetrics(display: stage.display, writtenAt: wallClock())
    figures.firstFrameSeconds = controller.appearedAfter
    figures.revealSeconds = controller.revealedAfter
    if let kiosk {
      figures.program = kiosk.counts
      figures.scanout = kiosk.screenPaths
    }
    figures.screen = screenPower?.screenTime
    return figures
  }

  /// The figures now, to each sink.
  func publish() {
    let now = figures
    for sink in sinks { sink(now) }
  }
}
