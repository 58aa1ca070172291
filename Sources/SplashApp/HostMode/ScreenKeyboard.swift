// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSettings
import SplashSystem

/// Host mode's on-screen keyboard (`keyboard`): a client of the display's
/// socket that splashd starts beside the program, as the program's user
/// with the program's environment, and starts again whenever it ends
/// (after `HelperRestartPause`'s pause), until splashd ends it with
/// SIGTERM. With `keyboard-popup = signals` it is told when to show, as
/// wvkbd wants: SIGUSR1 (hide) while no text field of the program's takes
/// text, SIGUSR2 (show) while one does; each only once the keyboard takes
/// the signal (a handler, or blocked for a signalfd), which would end a
/// process that does not.
final class ScreenKeyboard: EventSource {
  /// The keyboard's command, found, its user and environment.
  private let command: HandOff
  /// Whether it is shown and hidden by signals.
  private let popsUpBySignals: Bool
  /// What its environment gets besides the program's (the display's name).
  private var additions: [String: String] = [:]
  private let now: () -> Double
  private let log: Log
  /// The running keyboard and what tells that it ended.
  private var child: ChildProcess?
  private var endWatch: ChildEndWatch?
  private var startedAt = 0.0
  /// When it is started again, after it ended.
  private var restartAt: Double?
  /// The pauses before it is started again.
  private var pauses = HelperRestartPause()
  /// Whether a text field takes text: the keyboard is to show.
  private var fieldActive = false
  /// What the keyboard was last told (nil: nothing since it started).
  private var told: Bool?
  /// When a signal it did not take yet is tried again.
  private var signalRetryAt: Double?
  /// Whether it was said that this start never took the signals.
  private var saidItTakesNone = false
  /// splashd is ending it: not started again.
  private var ending = false

  /// How long a new keyboard has to install its signal handlers.
  static let signalGrace = 10.0
  /// How often a signal it does not take yet is tried again.
  static let signalRetry = 0.05

  /// The keyboard `command` with the program's user and environment as
  /// `handoff` says, writing to splashd's standard error (not the
  /// program's, whose last lines the diagnostic screen shows). Started by
  /// `start`; nil for no command.
  init?(
    command: [String], popsUpBySignals: Bool, handoff: HandoffSettings, environment: [String: String],
    now: @escaping () -> Double, log: Log
  ) {
    guard let command = HandOff(program: command, settings: handoff, environment: environment) else { return nil }
    self.command = command
    self.popsUpBySignals = popsUpBySignals
    self.now = now
    self.log = log
  }

  /// The keyboard's process ID while it runs.
  var pid: pid_t? { child?.pid }

  /// Starts the keyboard with `additions` to its environment (the
  /// display's name), kept for its later starts. One that cannot be found
  /// is one line and is not tried again; one that cannot be started now is
  /// tried again as one that ended at once would be.
  func start(additions: [String: String]) {
    self.additions = additions
    start()
  }

  private func start() {
    restartAt = nil
    guard !ending else { return }
    guard let path = command.path else {
      log.error("host mode: no on-screen keyboard: \(command.problem ?? "cannot run it")")
      return
    }
    startedAt = now()
    do throws(SystemError) {
      let (user, environment) = try command.resolved(additions: additions)
      let started = try ChildProcess.spawn(
        path, command.arguments, environment: environment, as: user, ownProcessGroup: true)
      do throws(SystemError) {
        endWatch = try started.endWatch()
      } catch {
        // Not kept without a way to know it ended: ended here.
        started.sendToGroup(SIGKILL)
        _ = try? started.wait()
        throw error
      }
      child = started
      log.info("host mode: started the on-screen keyboard \(path) (pid \(started.pid))")
    } catch {
      let delay = pauses.afterEnd(lasted: 0)
      restartAt = now() + delay
      log.error(
        "host mode: cannot start the on-screen keyboard \(path): \(error.phrase); tried again in \(Int(delay)) s")
      return
    }
    told = nil
    saidItTakesNone = false
    tell()
  }

  /// A text field of the program's began (`active`) or ceased to take text.
  func textFieldChanged(active: Bool) {
    fieldActive = active
    tell()
  }

  /// Ends the keyboard for good (SIGTERM to its process group: what it
  /// started, a bus of its own, goes too): splashd is stopping or ends.
  func stop() {
    guard !ending else { return }
    ending = true
    restartAt = nil
    signalRetryAt = nil
    child?.sendToGroup(SIGTERM)
  }

  /// Tells the keyboard to show or hide as the field wants, once it takes
  /// the signal; until `signalGrace` after its start it is tried again
  /// every `signalRetry`, then at each change of the field, said once.
  private func tell() {
    signalRetryAt = nil
    guard popsUpBySignals, !ending, let child, told != fieldActive else { return }
    let signal = fieldActive ? SIGUSR2 : SIGUSR1
    guard Processes.takes(signal, pid: child.pid) else {
      if now() < startedAt + Self.signalGrace {
        signalRetryAt = now() + Self.signalRetry
      } else if !saidItTakesNone {
        saidItTakesNone = true
        log.error(
          "host mode: the on-screen keyboard \(command.path ?? "") takes neither SIGUSR1 nor SIGUSR2; "
            + "keyboard-popup = signals sends it none until it does")
      }
      return
    }
    child.send(signal)
    told = fieldActive
  }

  // MARK: The run loop's source

  var descriptors: [FileDescriptor] { endWatch.map { [$0.descriptor] } ?? [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    guard let endWatch, descriptor == endWatch.descriptor, endWatch.ended(), let child else { return }
    let status = (try? child.wait())?.status
    self.child = nil
    self.endWatch = nil
    guard !ending else { return }
    let delay = pauses.afterEnd(lasted: now() - startedAt)
    restartAt = now() + delay
    log.error(
      "host mode: the on-screen keyboard \(command.path ?? "") ended with status \(status.map(String.init) ?? "unknown")"
        + "; started again in \(Int(delay)) s")
  }

  var wakeTime: Double? { [restartAt, signalRetryAt].compactMap { $0 }.min() }

  func wake() {
    if let restartAt, now() >= restartAt { start() }
    if let signalRetryAt, now() >= signalRetryAt { tell() }
  }
}
