// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// The program of `--ready notify`: started by splashd as its child, with
/// NOTIFY_SOCKET pointing at a socket of splashd's own, so that its READY=1
/// (or its end) reveals the splash; splashd stays its parent to the end and
/// passes the signals it gets on to it.
final class SpawnedProgram: EventSource {
  let path: String
  let child: ChildProcess
  /// What tells that the program has ended.
  private let exit: ChildEndWatch
  private let notify: NotifyListener
  private let controller: Controller
  private let log: Log
  /// The program has ended (as its end watch told).
  private(set) var ended = false
  /// What is said of its status lines and of refused datagrams: a program,
  /// or whoever sends to its socket, may send thousands.
  private var statusLines = LogLimit()
  private var refusals = LogLimit(burst: 3, interval: 10)
  /// The clock, for the log's limits.
  private let now: () -> Double
  /// The user the program runs as.
  private let userID: uid_t

  /// What its end asks of the splash (a reveal, unless told otherwise;
  /// nil: nothing, the caller saw to it).
  private let whenEnded: () -> ControlCommand?

  /// Starts `program` (found, its user and environment, as `HandOff`
  /// says: a user that cannot be had means the program does not run), with
  /// `additions` to its environment and NOTIFY_SOCKET, a socket of
  /// splashd's own, and `standardError` as its standard error when given
  /// (else splashd's). Its end asks the splash for `whenEnded()`;
  /// `revealsWhen` says what else reveals it.
  init(
    _ program: HandOff, additions: [String: String] = [:], standardError: FileDescriptor? = nil,
    controller: Controller, log: Log, whenEnded: @escaping () -> ControlCommand? = { .reveal },
    revealsWhen: String = "it sends READY=1"
  ) throws(Failure) {
    guard let path = program.path else {
      throw Failure(status: ExitStatus.cannotRun, message: program.problem ?? "cannot run \(program.arguments[0])")
    }
    self.path = path
    self.controller = controller
    self.log = log
    now = controller.now
    self.whenEnded = whenEnded
    do {
      notify = try NotifyListener()
      let ours = ["NOTIFY_SOCKET": notify.name, HandOff.rotationVariable: String(controller.rotation.rawValue)]
      let (user, environment) = try program.resolved(additions: additions.merging(ours) { _, ours in ours })
      child = try ChildProcess.spawn(
        path, program.arguments, environment: environment, standardError: standardError, as: user)
      userID = user?.uid ?? geteuid()
      exit = try child.endWatch()
    } catch {
      let user = program.user
      throw Failure(
        status: ExitStatus.cannotRun,
        message:
          "cannot run \(path)\(user.map { " as \($0)" } ?? ""): \(error.call.hasPrefix("user ") || error.call.hasPrefix("group ") ? error.reason : error.phrase)"
      )
    }
    log.info("started \(path) (pid \(child.pid)); revealing when \(revealsWhen)")
  }

  var descriptors: [FileDescriptor] { ended ? [notify.descriptor] : [notify.descriptor, exit.descriptor] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    if descriptor == exit.descriptor {
      guard exit.ended() else { return }
      ended = true
      if let command = whenEnded() { _ = controller.execute(command, because: "\(path) ended") }
      return
    }
    for datagram in notify.received() {
      // Only the program and its children may say it is ready: the socket's
      // name is abstract, and anybody could send to it (systemd takes only
      // a service's own processes too).
      guard isTheProgram(datagram) else {
        if let unsaid = refusals.admit(at: now()) {
          let who = datagram.sender.map { "pid \($0)" } ?? "a sender the kernel did not name"
          log.error("\(path): a notification from \(who), not the program's, ignored" + unsaid)
        }
        continue
      }
      for line in datagram.lines {
        if line == "READY=1" { _ = controller.execute(.reveal, because: "\(path) is ready (READY=1)") }
        if line.hasPrefix("STATUS="), let unsaid = statusLines.admit(at: now()) {
          log.info("program status: \(printable(String(line.dropFirst(7))))" + unsaid)
        }
      }
    }
  }

  /// Whether `datagram` came from the program or one of its processes
  /// (a child, a grandchild); from one that has ended since (a helper such
  /// as systemd-notify, gone before its datagram is read), when it ran as
  /// the program's user.
  private func isTheProgram(_ datagram: NotifyListener.Datagram) -> Bool {
    guard let sender = datagram.sender else { return false }
    if ProcessAncestry.descends(sender, from: child.pid, parent: Processes.parent(of:)) { return true }
    return !Processes.isRunning(sender) && datagram.user == userID
  }

  /// Waits for the program to end, passing on every SIGTERM, SIGINT and
  /// SIGHUP meanwhile (those that came during the splash were passed on
  /// as they came); returns its exit status (128 + the signal when a
  /// signal ended it). systemd's `watchdog`, if any, is fed meanwhile.
  func supervise(signals: SignalReceiving?, clock: EventClock, watchdog: WatchdogPinger? = nil) -> Int32 {
    let loop = RunLoop(clock: clock)
    loop.add(self)
    if let watchdog { loop.add(watchdog) }
    if let signals { loop.add(SignalForwarder(signals, to: child)) }
    loop.run(until: .infinity) { ended }
    guard let exited = try? child.wait() else { return ExitStatus.runtimeFailure }
    log.info("\(path) ended with status \(exited.status)")
    return exited.status
  }
}

/// Passes every signal that arrives on to a child.
private final class SignalForwarder: EventSource {
  let signals: SignalReceiving
  let child: ChildProcess

  init(_ signals: SignalReceiving, to child: ChildProcess) {
    self.signals = signals
    self.child = child
  }

  var descriptors: [FileDescriptor] { [signals.descriptor] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    while let signal = signals.next() { child.send(signal) }
  }
}
