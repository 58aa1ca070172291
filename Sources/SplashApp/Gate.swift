import SplashCore
import SplashSystem

/// The reveal gate: open once the `--until-file` file exists, `splashctl
/// reveal` arrives, or the spawned program sends READY=1 (or ends),
/// whichever comes first.
final class Gate: RevealGate {
  let watch: PathWatch?
  let program: SpawnedProgram?
  let clock: StoppableClock
  /// Called at least every 50 ms while waiting, for a display that needs
  /// tending (a window's events); throws to end the splash.
  var tend: (() throws -> Void)?

  init(untilFile: String?, program: SpawnedProgram?, clock: StoppableClock) throws(SystemError) {
    watch = try untilFile.map { (path) throws(SystemError) in try PathWatch(path: path) }
    self.program = program
    self.clock = clock
  }

  func wait(until deadline: Double) throws -> String? {
    let descriptors = (watch.map { [$0.descriptor] } ?? []) + (program.map { [$0.notify.descriptor, $0.exit] } ?? [])
    while true {
      if let watch, watch.exists() { return "\(watch.path) exists" }
      if clock.control?.revealRequested == true { return "splashctl reveal" }
      if let program {
        if program.readNotifications() { return "\(program.path) is ready (READY=1)" }
        if program.exit.isReadable() { return "\(program.path) ended" }
      }
      let now = clock.now()
      if now >= deadline { return nil }
      try tend?()
      // Wakes for the watch, the program, control clients, or at the deadline.
      let wake = tend == nil ? deadline : min(deadline, now + 0.05)
      if try clock.sleep(until: wake, wakingFor: descriptors) == nil && wake == deadline { return nil }
      watch?.drain()
    }
  }
}
