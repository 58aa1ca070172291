// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import SplashSystem

/// Tells the log and systemd (when NOTIFY_SOCKET is set) how the splash is
/// doing: READY=1 once the first frame is really on screen, a STATUS= line
/// for every event; and its watchdog, when it asked for one.
final class Lifecycle {
  private let notifier: SystemdNotifier?
  /// systemd's watchdog (`WatchdogSec=`: WATCHDOG_USEC for this process),
  /// when it asked for one and can be told; fed by `WatchdogPinger`.
  let watchdog: Watchdog?
  private let log: Log
  private let started: Double
  private var readySent = false
  /// The parent that started this splash in the background, waiting to
  /// hear it is on the screen (`--boot initramfs`); told once.
  var parent: FileDescriptor?

  /// The lifecycle of a splash started at `started`, told to systemd at
  /// `notifySocket` (NOTIFY_SOCKET); `environment` (splashd's) says
  /// whether systemd's watchdog is on for process `processID`. With
  /// `handlesCrashes` (splashd's own process), a crash turns that watchdog
  /// off as `stopWatchdog` does: the program the crash hands off to does
  /// not feed it either.
  init(
    started: Double, notifySocket: String?, environment: [String: String], processID: Int32, handlesCrashes: Bool,
    log: Log
  ) {
    self.started = started
    self.log = log
    notifier = SystemdNotifier(socketPath: notifySocket)
    watchdog = notifier == nil ? nil : Watchdog(environment: environment, processID: processID)
    if watchdog != nil, handlesCrashes, notifier?.sendOnCrash(Self.watchdogOff) == false {
      log.error("systemd's watchdog: a crash cannot turn it off (no socket or no room to send from the crash handler)")
    }
  }

  /// What turns systemd's watchdog off for this unit's main process.
  private static let watchdogOff = "WATCHDOG_USEC=0"

  /// Sends `state` to systemd (the watchdog's WATCHDOG=1).
  func tellSystemd(_ state: String) { notify(state) }

  /// The program takes splashd's place (execve: the unit's main process,
  /// which does not feed splashd's watchdog): systemd is told to watch no
  /// more (WATCHDOG_USEC=0), so that it does not kill the program for
  /// splashd's silence.
  func stopWatchdog() {
    guard watchdog != nil else { return }
    log.info("systemd's watchdog: off for the program that takes splashd's place (WATCHDOG_USEC=0)")
    notify(Self.watchdogOff)
  }

  /// Reports one event of `settings`' splash.
  func report(_ event: PlaybackEvent, _ settings: Settings) {
    switch event {
    case .appeared(let at):
      let after = formatFixed((at - started) * 1000, decimals: 1)
      log.info("appeared: first frame shown at monotonic \(formatFixed(at, decimals: 6)) s, \(after) ms after start")
      notify("READY=1\nSTATUS=Splash shown, first frame \(after) ms after start")
      readySent = true
      tellParent()
    case .waiting:
      notify("STATUS=Splash shown, waiting to be revealed")
    case .gateOpened(_, let reason):
      log.info("reveal: \(reason)")
      notify("STATUS=Revealing: \(reason)")
    case .gateTimedOut:
      let timeout = formatNumber(settings.handoff.timeout)
      log.info("reveal: timeout after \(timeout) s (--timeout)")
      notify("STATUS=Revealing: timeout after \(timeout) s")
    case .willDisappear(let at):
      let transition = settings.splash.transition.rawValue
      log.info("will-disappear: transition \(transition) starts at monotonic \(formatFixed(at, decimals: 6)) s")
      notify("STATUS=Transition \(transition) running")
    case .didDisappear:
      log.info("did-disappear: transition done")
      notify("STATUS=Splash done")
    }
  }

  /// Before splashd exits or hands off: a splash that never showed still
  /// tells systemd it is ready, so that its unit is not held up.
  func finish(status: String) {
    if !readySent { notify("READY=1\nSTATUS=\(status)") }
    tellParent()
  }

  private func tellParent() {
    if let parent { Detach.ready(parent) }
    parent = nil
  }

  private func notify(_ state: String) { notifier?.send(state) }
}
