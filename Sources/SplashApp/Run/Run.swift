// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// The steps of one run, each a no-op once the run has ended or failed.
/// The program to hand off to is found first, so that it runs whatever
/// fails after that: options, config, pictures, display.
final class Run {
  private let arguments: [String]
  private let dependencies: Dependencies
  private var log: Log { dependencies.log }
  private let started: Double
  private let lifecycle: Lifecycle
  /// The program splashd becomes at the end; nil for none.
  private var handOff: HandOff?
  /// Set once the run's end is decided (help, check, a failure, …).
  private var ending: Ending?
  private var status = ExitStatus.done
  private var failed = false
  /// For systemd's STATUS= when the splash never showed.
  private var outcome = "Splash ended"
  private var planned: Plan?
  private var session: Session?
  /// keep-last-frame with `timeout = 0`: how long the last frame waits for
  /// the next program at most.
  static let keptFrameWait = 60.0
  /// How long the initramfs's script waits for the splash to be up.
  static let initramfsStartWait = 5.0
  /// The kernel command line said no to the boot splash: the program runs at once.
  private var noSplash = false

  /// What ends the run: the program after `--`, unless the options only
  /// ask for information (`--check`, `--help`, `--version`).
  init(_ arguments: [String], _ dependencies: Dependencies) {
    self.arguments = arguments
    self.dependencies = dependencies
    started = dependencies.clock.now()
    lifecycle = Lifecycle(
      started: started, notifySocket: dependencies.environment["NOTIFY_SOCKET"],
      environment: dependencies.environment, processID: dependencies.processID,
      handlesCrashes: dependencies.handlesCrashes, log: dependencies.log)
    let (options, program) = ParsedCommandLine.splitProgram(arguments)
    if !ParsedCommandLine.asksOnlyForInformation(options), let program { take(program) }
  }

  /// Hands off to `program` at the end (and on a crash from now on), as
  /// the user `handoff`'s settings name, if any.
  private func take(_ program: [String], _ handoff: HandoffSettings? = nil) {
    handOff = HandOff(program: program, settings: handoff, environment: dependencies.environment)
    if dependencies.handlesCrashes { handOff?.runOnCrash() }
  }

  /// The plan: the command line, the settings, the angle; `--help`,
  /// `--version`, `--check`, `--list-files` and `--prepare` end the run here.
  func plan() {
    attempt { () throws(Failure) in
      let commandLine: ParsedCommandLine
      do throws(SettingsError) {
        commandLine = try ParsedCommandLine.parse(arguments)
      } catch {
        throw Failure.badInput(error.message)
      }
      if commandLine.help {
        dependencies.print(Usage.text(backEnds: Outputs.help(dependencies.backEnds)))
        ending = .exit(ExitStatus.done)
        return
      }
      if commandLine.version {
        dependencies.print("splashd \(Build.version(splashdVersion))\n\(libraryVersions())\n")
        ending = .exit(ExitStatus.done)
        return
      }
      let plan = try Plan(commandLine, dependencies: dependencies)
      planned = plan
      if commandLine.check {
        let canvas = plan.rotation.logicalSize(ofPhysical: plan.settings.splash.effectiveSize)
        dependencies.print(
          try Check.describe(plan, try Pictures(plan.settings, canvas: canvas), dependencies: dependencies))
        ending = .exit(ExitStatus.done)
        return
      }
      if commandLine.listFiles {
        let files = (plan.configFile.map { [("config", $0)] } ?? []) + plan.settings.filesRead
        dependencies.print(files.map { "\($0) \($1)\n" }.joined())
        ending = .exit(ExitStatus.done)
        return
      }
      if commandLine.prepare {
        let session = Session(plan, dependencies: dependencies, lifecycle: lifecycle, started: started)
        let files = try session.prepare()
        dependencies.print(files.map { "prepared: \($0)\n" }.joined())
        ending = .exit(ExitStatus.done)
        return
      }
      // The program runs whatever happens from here on (no splash included),
      // as its user when the settings name one.
      if let program = handOff?.arguments ?? plan.program {
        take(program, plan.settings.handoff)
        sayWhatTheProgramDoesNotGet(plan.settings.handoff)
      }
      if let stage = commandLine.bootStage {
        let words = (try? Files.readText(plan.settings.orientation.cmdline)) ?? ""
        if let refusal = KernelCommandLineSplash.refusal(
          words, stage: stage, withoutSplashWord: plan.settings.splash.withoutSplashWord)
        {
          log.info("boot: \(refusal): no splash")
          outcome = "No splash: \(refusal)"
          noSplash = true
          return
        }
        // systemd spares a process whose argv[0] starts with '@' when it
        // switches root and when it kills what is left at shutdown.
        if stage != .root && dependencies.handlesCrashes { ThisProcess.surviveSwitchRootAndShutdown() }
        // The initramfs's script goes on once the splash is up (its files
        // read before the initramfs is switched away), at most 5 s from now.
        if stage == .initramfs && dependencies.handlesCrashes {
          lifecycle.parent = Detach.intoBackground(waitingAtMost: Self.initramfsStartWait)
        }
      }
      // The angle the program gets (in the environment too, for a crash hand-off).
      dependencies.onRotation(plan.rotation)
      if restartedInALoop(plan) { return }
      if plan.successor == .spawned {
        // The program starts with the session, as splashd's child. (Host
        // mode keeps the hand-off until the program is started: a splash
        // that never showed still runs the program.)
        handOff = nil
        if dependencies.handlesCrashes { CrashHandOff.stopRunningProgram() }
      }
    }
  }

  /// Names, once, what of splashd's environment the program does not get
  /// (`ProgramEnvironment`): a variable an integrator meant for the program
  /// (a unit's `Environment=`) is then found at once, and named in
  /// `pass-environment`.
  private func sayWhatTheProgramDoesNotGet(_ handoff: HandoffSettings) {
    let withheld = ProgramEnvironment.withheld(from: dependencies.environment, passing: handoff.passEnvironment)
    guard !withheld.isEmpty else { return }
    log.info(
      "program: not passed from splashd's environment: \(withheld.map(printable).joined(separator: ", ")) "
        + "(pass-environment names those it should get)")
  }

  /// Whether this start comes within `restart-window` of the last hand-off
  /// to the same program (it failed at once and was started again): then it
  /// hands off at once, without the splash, and says so.
  private func restartedInALoop(_ plan: Plan) -> Bool {
    let window = plan.settings.handoff.restartWindow
    guard window > 0, plan.commandLine.bootStage != .shutdown, let record = dependencies.handOffRecord,
      let path = handOff?.path,
      let since = record.secondsSinceLastHandOff(to: path, now: dependencies.clock.now()), since < window
    else { return false }
    log.info(
      "restart: \(path) was handed the screen \(formatFixed(since, decimals: 1)) s ago; handing off at once, without "
        + "the splash (\(plan.settings.origin(of: \.handoff.restartWindow)) \(formatNumber(window)))")
    outcome = "No splash: \(path) restarted within \(formatNumber(window)) s"
    noSplash = true
    return true
  }

  /// The session: the spawned program, the display, the control socket,
  /// the watches, the pictures.
  func openSession() {
    guard let plan = planned, !noSplash else { return }
    attempt { () throws(Failure) in
      let session = Session(plan, dependencies: dependencies, lifecycle: lifecycle, started: started)
      self.session = session
      dependencies.sessionMade(session)
      try session.open()
    }
  }

  /// The splash itself: played, or recorded.
  func showSplash() {
    guard let session else { return }
    attempt { () throws(Failure) in
      if let directory = session.plan.settings.splash.record {
        try session.record(into: directory)
      } else {
        try session.play()
      }
    }
  }

  /// The finish: the display let go of (its last frame kept when a program
  /// follows), systemd told, then what follows the splash (`Successor`):
  /// the hosted program's compositor until it ends, the spawned program
  /// supervised, the program run in place, or nothing.
  func finish() -> Ending {
    if let ending { return ending }
    let successor = (planned?.successor ?? .execInPlace).afterSplash(
      programStarted: session?.kiosk?.programStarted ?? (session?.spawned != nil), handOff: handOff != nil)
    if successor == .hosted, let session, let kiosk = session.kiosk {
      // splashd stays the program's compositor until it ends, then lets go
      // of the screen (a recording's program ended with the recording).
      lifecycle.finish(status: outcome)
      let ended = session.plan.settings.splash.record == nil ? kiosk.superviseAfterSplash() : status
      session.finish(keepingLastFrame: kiosk.keepsSplash)
      return .exit(ended)
    }
    // With no program, the splash's own settings may keep its last frame:
    // Plymouth's --retain-splash, the shutdown splash (it stays until the
    // machine goes down, even when stopped), keep-last-frame (for the
    // kiosk's own unit). A splash that steps aside gives the screen to the
    // console, nothing kept.
    let keeps =
      successor.keepsLastFrame || session?.controller.retainsSplash == true
      || planned?.commandLine.bootStage == .shutdown || planned?.settings.handoff.keepLastFrame == true
    session?.finish(keepingLastFrame: keeps && session?.controller.stepsAside != true)
    lifecycle.finish(status: outcome)
    switch successor {
    case .spawned:
      guard let spawned = session?.spawned else { break }
      dependencies.handOffRecord?.handingOff(to: spawned.path, now: dependencies.clock.now())
      return .exit(
        spawned.supervise(signals: dependencies.signals, clock: dependencies.clock, watchdog: session?.watchdog))
    case .execInPlace:
      guard let handOff else { break }
      if let path = handOff.path { dependencies.handOffRecord?.handingOff(to: path, now: dependencies.clock.now()) }
      lifecycle.stopWatchdog()
      let rotation = session?.controller.rotation ?? planned?.rotation ?? .none
      return .handOff(handOff, environment: [HandOff.rotationVariable: String(rotation.rawValue)])
    case .nothing, .hosted:  // (a hosted program's supervision ended the run above)
      if let session, session.plan.settings.handoff.keepLastFrame {
        let timeout = session.plan.settings.handoff.timeout
        session.awaitNextProgram(until: dependencies.clock.now() + (timeout > 0 ? timeout : Self.keptFrameWait))
      }
    }
    return .exit(status)
  }

  /// Runs a step unless the run has ended or failed; a failure is logged
  /// and decides the exit status (the program still runs).
  private func attempt(_ step: () throws(Failure) -> Void) {
    guard ending == nil, !failed else { return }
    do {
      try step()
    } catch {
      log.error(error.message)
      outcome = "Splash failed: \(error.message)"
      status = error.status
      failed = true
    }
  }
}
