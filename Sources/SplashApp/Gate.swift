import SplashCore
import SplashSystem

/// The reveal gate: open once the `--until-file` file exists or
/// `splashctl reveal` arrives, whichever comes first.
final class Gate: RevealGate {
  let watch: PathWatch?
  let clock: StoppableClock

  init(untilFile: String?, clock: StoppableClock) throws(SystemError) {
    watch = try untilFile.map { (path) throws(SystemError) in try PathWatch(path: path) }
    self.clock = clock
  }

  func wait(until deadline: Double) throws -> String? {
    while true {
      if let watch, watch.exists() { return "\(watch.path) exists" }
      if clock.control?.revealRequested == true { return "splashctl reveal" }
      if clock.now() >= deadline { return nil }
      // Wakes for the watch, for control clients, or at the deadline.
      if try clock.sleep(until: deadline, wakingFor: watch.map { [$0.descriptor] } ?? []) == nil { return nil }
      watch?.drain()
    }
  }
}
