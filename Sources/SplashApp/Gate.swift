import SplashCore
import SplashSystem

/// The reveal gate: open once the `--until-file` file exists, `splashctl
/// reveal` arrives, or the spawned program sends READY=1 (or ends),
/// whichever comes first.
final class Gate: RevealGate {
  let watch: PathWatch?
  let program: SpawnedProgram?
  let clock: StoppableClock

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
      if clock.now() >= deadline { return nil }
      // Wakes for the watch, the program, control clients, or at the deadline.
      if try clock.sleep(until: deadline, wakingFor: descriptors) == nil { return nil }
      watch?.drain()
    }
  }
}
