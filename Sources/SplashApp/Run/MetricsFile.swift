// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// `metrics-file`: splashd's figures (`FleetMetrics`) for node_exporter's
/// textfile collector, replaced at once (written beside it, renamed over
/// it) each time one changes: the first frame, the reveal, the splash
/// done, host mode's program started or ended, the screen switched off or
/// on, and as splashd ends. It is
/// written only into a folder that is not a link, and only over a regular
/// file; what keeps it from being written is said in one line (again only
/// after a write has worked meanwhile), and the splash goes on.
final class MetricsFile {
  let path: String
  private let controller: Controller
  private let stage: Stage
  /// Host mode's program, once it is supervised.
  private weak var kiosk: KioskSupervisor?
  /// The screen's power.
  private weak var screenPower: ScreenPowerKeeper?
  /// Seconds since the Unix epoch.
  private let wallClock: () -> Double
  private let log: Log
  /// Whether the last write failed (said once).
  private var failing = false

  init(path: String, controller: Controller, stage: Stage, wallClock: @escaping () -> Double, log: Log) {
    self.path = path
    self.controller = controller
    self.stage = stage
    self.wallClock = wallClock
    self.log = log
    // Each of the splash's events (appeared, will-disappear, did-disappear).
    controller.observe { [weak self] _ in self?.write() }
  }

  /// Counts host mode's program from now on, written as they change.
  func follow(_ kiosk: KioskSupervisor) {
    self.kiosk = kiosk
    kiosk.onCountsChanged = { [weak self] in self?.write() }
  }

  /// The screen's on-time from now on, written at each switch.
  func follow(_ power: ScreenPowerKeeper) {
    screenPower = power
    power.onSwitched = { [weak self] in self?.write() }
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

  /// Replaces the file with the figures now.
  func write() {
    let folder = Files.directory(of: path)
    do throws(SystemError) {
      guard !Files.isLink(folder) else {
        throw SystemError(folder, code: ELOOP, reason: "the folder is a symbolic link: not written through")
      }
      try Files.writeAtomically(Array(figures.text.utf8), to: path)
      if failing { log.info("metrics-file: \(path) written again") }
      failing = false
    } catch {
      if !failing { log.error("metrics-file: \(path): \(error.description); the figures are not written") }
      failing = true
    }
  }
}
