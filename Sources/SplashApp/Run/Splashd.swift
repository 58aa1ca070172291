// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashConfigFile
import SplashCore
import SplashDevices
import SplashRender
import SplashSettings
import SplashSystem
import SplashWaylandHost

/// Exit statuses.
public enum ExitStatus {
  public static let done: Int32 = 0
  public static let runtimeFailure: Int32 = 1
  public static let badInput: Int32 = 2
  /// The program to hand off to could not be run.
  public static let cannotRun: Int32 = 127
}

/// A failure that ends the run with `status` after printing `message`.
struct Failure: Error {
  let status: Int32
  let message: String

  static func badInput(_ message: String) -> Failure { Failure(status: ExitStatus.badInput, message: message) }
  static func runtime(_ message: String) -> Failure { Failure(status: ExitStatus.runtimeFailure, message: message) }
}

/// What a run of splashd takes from the process it runs in; tests give
/// their own (a clock of theirs, a captured log, no signals, no crash
/// hand-off, no process environment changes).
public struct Dependencies {
  public var clock: EventClock
  /// The environment splashd was started with.
  public var environment: [String: String]
  public var log: Log
  /// The display back ends, in the order `auto` tries them.
  public var backEnds: [BackEnd]
  /// Where SIGTERM, SIGINT and SIGHUP are read; nil to take none.
  var signals: SignalReceiving?
  /// The config file read when `--config` is not given (if it exists).
  public var defaultConfig: String
  /// Resolves `rotate = auto` (the orientation sources, in order).
  public var resolveRotation: (OrientationSettings, EventClock) -> ResolvedRotation = RotationResolver.resolve
  /// Called with the splash's angle once it is known, and again each time it turns.
  public var onRotation: (Rotation) -> Void
  /// Whether a crash of splashd is handled: the program still run, the
  /// control socket removed (main only: it installs signal handlers).
  public var handlesCrashes: Bool
  /// Where `--help`, `--version` and `--check` print.
  public var print: (String) -> Void
  /// Where display devices' comings and goings are read while the splash
  /// runs (the kernel's uevents); nil when they cannot be.
  var displayEvents: () throws(SystemError) -> DisplayDeviceEvents? = { () throws(SystemError) in
    try KernelDisplayEvents()
  }
  /// Makes host mode's compositor (the tests give a fake of it).
  var makeWaylandHost: WaylandHostMaker = { size, screen, renderNode, log throws(SystemError) in
    try WaylandHost(size: size, screen: screen, renderNode: renderNode, log: log)
  }
  /// Told of the session once it is made (the tests look at its state).
  var sessionMade: (Session) -> Void = { _ in }
  /// When the program was last handed the screen (restart loops); nil
  /// outside systemd, where nothing restarts splashd in a loop.
  var handOffRecord: HandOffRecord?
  /// Where host mode's program's standard error is forwarded (splashd's
  /// own; the tests' may be elsewhere).
  var programStderr = FileDescriptor.standardError
  /// This process's ID (systemd's WATCHDOG_PID names the process its
  /// watchdog is meant for).
  var processID: Int32 = getpid()
  /// Where the machine's backlights are listed (`Backlights`; the tests'
  /// own folder).
  var backlightFolder = "/sys/class/backlight"
  /// systemd's journal's native socket: where splashd's figures go as
  /// fields of their own when its output is the journal (JOURNAL_STREAM).
  var journalSocket = "/run/systemd/journal/socket"
  /// Seconds since local midnight now, for `[screen-power]`'s schedule.
  var localSecondOfDay: () -> Double = ThisMachine.localSecondOfDay
  /// Whether snapshots are made into PNG files on threads of their own
  /// (tests on a clock of their own make them in place, in step with it).
  var snapshotsOffTheLoop = true

  public init(
    clock: EventClock, environment: [String: String], log: Log, backEnds: [BackEnd] = Outputs.registry,
    defaultConfig: String = ConfigFile.defaultPath, onRotation: @escaping (Rotation) -> Void = { _ in },
    handlesCrashes: Bool = false, print: @escaping (String) -> Void
  ) {
    self.clock = clock
    self.environment = environment
    self.log = log
    self.backEnds = backEnds
    self.defaultConfig = defaultConfig
    self.onRotation = onRotation
    self.handlesCrashes = handlesCrashes
    self.print = print
  }
}

/// How a run of splashd ends.
public enum Ending: Equatable {
  /// splashd exits with this status.
  case exit(Int32)
  /// splashd becomes the program, with these variables added to its environment.
  case handOff(HandOff, environment: [String: String])
}

/// The `splashd` command.
public enum Splashd {
  /// Runs splashd with the process's own arguments (`ThisProcess.arguments`:
  /// as the kernel gave them, /proc or not); as Plymouth's client when it
  /// was started under that name (`PlymouthClient`).
  public static func main() -> Int32 {
    let arguments = Array(ThisProcess.arguments.dropFirst())
    if PlymouthClient.isCalled(ThisProcess.arguments.first) {
      return PlymouthClient.main(arguments, environment: Environment.all())
    }
    return main(arguments)
  }

  /// Runs splashd with `arguments` (without the program name) and returns
  /// its exit status, or becomes the program given after `--` (or by `exec`
  /// in the config file's `[handoff]` section) once the splash is done. That
  /// program is found before anything else and runs whatever goes wrong
  /// with the splash, a crash included.
  public static func main(_ arguments: [String]) -> Int32 {
    // The main thread's stack for the crash handler, before any is installed.
    CrashHandOff.keepAStackForTheHandler()
    // Descriptors enough that clients cannot take them all (the programs
    // started get the limit splashd had).
    ThisProcess.raiseDescriptorLimit()
    let environment = Environment.all()
    let log = Log.standardError(environment: environment)
    Environment.set(HandOff.rotationVariable, "0")
    var dependencies = Dependencies(
      clock: MonotonicClock(), environment: environment, log: log,
      onRotation: {
        Environment.set(HandOff.rotationVariable, String($0.rawValue))
        CrashHandOff.setVariable(HandOff.rotationVariable, String($0.rawValue))
      }, handlesCrashes: true,
      print: printOut)
    // systemd names each start of a unit (INVOCATION_ID): only there can a
    // program's restarts loop.
    if environment["INVOCATION_ID"] != nil {
      dependencies.handOffRecord = HandOffRecord(path: HandOffRecord.systemPath)
    }
    do {
      dependencies.signals = try StopSignals()
    } catch {
      log.error("SIGTERM and SIGINT will end splashd at once: \(error)")
    }
    switch run(arguments, dependencies) {
    case .exit(let status): return status
    case .handOff(let handOff, let additions): return handOff.run(additions: additions, log: log)
    }
  }

  /// One run of splashd, in its steps: what ends the run, the plan, the
  /// session, the splash itself, and the finish.
  public static func run(_ arguments: [String], _ dependencies: Dependencies) -> Ending {
    let run = Run(arguments, dependencies)
    run.plan()
    run.openSession()
    run.showSplash()
    return run.finish()
  }

  /// The synopsis of the command line, as the README shows it.
  public static func synopsis(backEnds: [BackEnd] = Outputs.registry) -> String {
    Usage.synopsis(backEnds: backEnds.map(\.name))
  }
}
