import SplashCore
import SplashSystem

/// The program of `--ready notify`: started by splashd as its child, with
/// NOTIFY_SOCKET pointing at a socket of splashd's own, so that its READY=1
/// can reveal the splash; splashd stays its parent to the end.
final class SpawnedProgram {
  let path: String
  let child: ChildProcess
  /// Readable once the program has ended.
  let exit: FileDescriptor
  let notify: NotifyListener

  /// Starts `program` (PATH lookup like a shell).
  init(program: [String]) throws {
    guard let path = Program.locate(program[0], searchPath: Environment.value("PATH")) else {
      throw Failure(status: ExitStatus.cannotRun, message: "cannot run \(program[0]): not found (looked in PATH)")
    }
    self.path = path
    do {
      notify = try NotifyListener()
      Environment.set("NOTIFY_SOCKET", notify.name)
      child = try ChildProcess.spawn(path, program)
      exit = try child.exitDescriptor()
    } catch {
      throw Failure(status: ExitStatus.cannotRun, message: "cannot run \(path): \(error.phrase)")
    }
    Log.info("started \(path) (pid \(child.pid)); revealing when it sends READY=1")
  }

  /// What the program has said: whether it is ready, its STATUS= lines logged.
  func readNotifications() -> Bool {
    var ready = false
    for line in notify.received() {
      if line == "READY=1" { ready = true }
      if line.hasPrefix("STATUS=") { Log.info("program status: \(line.dropFirst("STATUS=".count))") }
    }
    return ready
  }

  /// Waits for the program to end, passing on `pending` signals first and
  /// every SIGTERM, SIGINT and SIGHUP meanwhile; returns its exit status
  /// (128 + the signal when a signal ended it).
  func supervise(signals: StopSignals?, pending: [Int32], clock: MonotonicClock) -> Int32 {
    for signal in pending { child.send(signal) }
    let watched = [exit] + (signals.map { [$0.descriptor] } ?? [])
    while clock.sleep(until: .infinity, wakingFor: watched) != exit {
      while let signal = signals?.next() { child.send(signal) }
    }
    guard let ended = try? child.wait() else { return ExitStatus.runtimeFailure }
    Log.info("\(path) ended with status \(ended.status)")
    return ended.status
  }
}
