import SplashCore
import SplashSystem

/// The reveal gate of `--until-file`: open once the file exists.
final class FileGate: RevealGate {
  let watch: PathWatch
  let clock: StoppableClock

  init(path: String, clock: StoppableClock) throws(SystemError) {
    watch = try PathWatch(path: path)
    self.clock = clock
  }

  func wait(until deadline: Double) throws -> String? {
    while true {
      if watch.exists() { return "\(watch.path) exists" }
      if clock.now() >= deadline { return nil }
      if try clock.sleep(until: deadline, wakingFor: [watch.descriptor]) == nil { return nil }
      watch.drain()
    }
  }
}
