// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// Host mode's kiosk, for its whole life: the program (`HostedProgram`)
/// started behind the splash's first frame; after the splash, splashd as
/// its compositor until it ends, signals passed on to it; a program that
/// ends started again under the splash as `restart` says, and the splash
/// back with a line saying how it ended; a stop (SIGTERM, `splashctl quit`)
/// fading the program into the shutdown's picture. What a session does in
/// host mode goes through here.
final class KioskSupervisor {
  /// The program, the client of splashd's compositor.
  let program: HostedProgram
  private let settings: Settings
  /// The program's name, as the splash's message names it.
  private let name: String
  private let controller: Controller
  private let stage: Stage
  private let runLoop: RunLoop
  /// The player's clock over the run loop.
  private let clock: SessionClock
  private let lifecycle: Lifecycle
  private let dependencies: Dependencies
  private var log: Log { dependencies.log }
  /// Where splashd's own signals are read; their passing on is set here.
  private let signals: SignalSource?
  /// splashd was asked to stop (a stop signal, passed on to the program,
  /// or `splashctl quit` while it runs): the program is not started again,
  /// and the splash fades into the shutdown's picture.
  private var stopAsked = false {
    // Nothing beside the program is started again either.
    didSet { if stopAsked { program.keyboard?.stop() } }
  }
  /// The program was not started again after it ended (the limit, or a
  /// stop): the splash stays on the screen when splashd lets go of it.
  private(set) var keepsSplash = false
  /// How the program ended, each time (the tests look at them).
  private(set) var ends: [ProgramEnd] = []
  /// The program's starts, failures and hangs so far (`metrics-file`).
  private(set) var counts = FleetMetrics.ProgramCounts(starts: 0, failures: 0, hangs: 0)
  /// Told each time `counts` changes.
  var onCountsChanged: () -> Void = {}

  /// How long a program told to stop has before it is killed.
  static let stopWait = 5.0
  /// The longest a recording waits for the program's first frame without a timeout.
  static let recordedProgramWait = 30.0
  /// The longest a recorded frame waits for the program's next one.
  static let recordedFrameWait = 0.05

  /// Host mode for `program` on `stage`: its compositor is made and the
  /// program started once the splash has appeared, its window arranged
  /// on the stage's screens as they change and turn.
  init(
    program arguments: [String], settings: Settings, controller: Controller, stage: Stage, runLoop: RunLoop,
    clock: SessionClock, lifecycle: Lifecycle, signals: SignalSource?, dependencies: Dependencies
  ) {
    self.settings = settings
    name = Files.name(of: arguments.first ?? "the program")
    self.controller = controller
    self.stage = stage
    self.runLoop = runLoop
    self.clock = clock
    self.lifecycle = lifecycle
    self.signals = signals
    self.dependencies = dependencies
    program = HostedProgram(
      program: arguments, settings: settings, environment: dependencies.environment, controller: controller,
      stage: stage, makeHost: dependencies.makeWaylandHost, clock: dependencies.clock, log: dependencies.log,
      handlesCrashes: dependencies.handlesCrashes, stderrDestination: dependencies.programStderr)
    runLoop.add(program)
    runLoop.add(program.liveness)
    if let stderr = program.stderr { runLoop.add(stderr) }
    if let keyboard = program.keyboard { runLoop.add(keyboard) }
    program.hold.onStopAfterSplash = { [weak self] in self?.stopProgram() }
    // Its window follows the screens: turned, plugged in, moved.
    stage.onScreensChanged = { [weak program] screens, turned in
      program?.screensChanged(to: screens, turned: turned)
    }
    // The compositor loads, and the program starts, behind the first frame.
    controller.observe { [weak self] event in
      guard event == .appeared else { return }
      self?.startProgram()
    }
  }

  /// Whether the program was started (and has not been reaped).
  var programStarted: Bool { program.spawned != nil }

  /// Whether the program runs now.
  var programRuns: Bool { program.spawned.map { !$0.ended } ?? false }

  /// How the program's frames reach each screen while it shows (`direct`,
  /// `software`); empty otherwise.
  var screenPaths: [String] { program.hold.state == .shown ? program.hold.screenPaths() : [] }

  /// A question on the splash is asked, or the last one answered.
  func questionAsked(_ asking: Bool) { program.questionAsked(asking) }

  /// The screen's power follows the program: idle-off and the schedule
  /// apply while it is shown after the splash and nothing is asked, its
  /// input wakes the screen, its idle inhibitors hold it on, and it gets no
  /// input while the screen is off.
  func follow(_ power: ScreenPowerKeeper) {
    power.applies = { [weak self] in
      guard let self else { return false }
      return controller.phase == .done && controller.successorHasScreen && program.hold.state == .shown
        && !controller.isAsking
    }
    power.inhibited = { [weak program] in program?.idleInhibited ?? false }
    power.onDarkChanged = { [weak program] in program?.screenDark($0) }
    program.onInput = { [weak power] in power?.inputSeen() }
    program.onIdleInhibition = { [weak power] in power?.inhibitionChanged() }
  }

  /// The compositor and the program, once the splash is on the screen;
  /// the program's window is the first screen's canvas.
  private func startProgram() {
    guard let output = stage.output else { return }
    do {
      try program.start(screen: output.size, screens: stage.shownScreens, takingInput: output.traits.hasFixedMode)
    } catch {
      log.error(error.message)
      _ = controller.execute(.stop, because: "the program cannot run")
      return
    }
    counts.starts += 1
    onCountsChanged()
    if let child = program.spawned?.child {
      passSignals(to: child)
      // The program runs: a crash of splashd must not start it again.
      if dependencies.handlesCrashes { CrashHandOff.stopRunningProgram() }
    }
  }

  // MARK: After the splash

  /// After the splash: splashd goes on as the program's compositor, its
  /// frames drawn as they come, signals passed on to it, until it ends;
  /// returns its exit status (128 + the signal when a signal ended it).
  ///
  /// With `restart`, a program that ends is started again under the
  /// splash (`RestartPolicy`): the splash comes back with a message saying
  /// how it ended, the program starts again after a pause, and the
  /// transition opens onto its new first frame; at the limit the splash
  /// stays (`keepsSplash`) and its status is returned.
  func superviseAfterSplash() -> Int32 {
    guard program.spawned != nil else { return ExitStatus.cannotRun }
    let handoff = settings.handoff
    controller.successorTakesScreen()
    // The splash is gone from the screen, which stays the compositor's:
    // who waits for did-disappear (`splashctl wait`, `plymouth --wait`,
    // `plymouth quit --retain-splash`) goes on now, not at the kiosk's end.
    controller.publish(.didDisappear)
    var restarts = 0
    while true {
      if Self.showsTheProgram(
        stopping: stopAsked, hung: program.liveness.hung, ended: program.ended, restart: handoff.restart,
        transitionEnded: stage.transitionReachedItsEnd)
      {
        stage.showTransitionEnd()
      }
      runLoop.run(until: .infinity) { program.ended || program.liveness.hung || stopAsked || controller.isAsking }
      // A frozen program that has not ended meanwhile is ended here.
      let hung = program.liveness.hung && !stopAsked
      if controller.isAsking && !program.ended && !stopAsked && !hung {
        askOverTheProgram()
        continue
      }
      if hung { endTheFrozenProgram() }
      if stopAsked {
        fadeToTheShutdownPicture()
        awaitTheEnd()
      }
      let endedAt = ThisMachine.localTime()
      // One that not even SIGKILL ended (stuck in the kernel) is not waited for.
      let status = program.ended ? program.exitStatus() : 128 + SIGKILL
      // Reaped: its PID is no longer its own.
      passSignals(to: nil)
      guard let status else {
        program.close()
        return ExitStatus.runtimeFailure
      }
      let end: ProgramEnd =
        hung ? .hung(timeout: program.liveness.check?.timeout ?? 0, status: status) : .exited(status: status)
      ends.append(end)
      // An end splashd asked for (a stop) is no failure of the program's.
      if end.failed && !stopAsked { counts.failures += 1 }
      if case .hung = end { counts.hangs += 1 }
      onCountsChanged()
      let decision = handoff.restart.decide(end, restarts: restarts, limit: handoff.restartLimit, stopping: stopAsked)
      guard decision != .end else {
        program.close()
        // A frozen program's splash, back over it, stays.
        keepsSplash = stopAsked || hung
        return status
      }
      let message = decision.message(program: name, end: end, restarts: restarts)
      if hung {
        // The splash came back as it froze: only its line changes; what
        // its end asked of the splash meanwhile (to end it) is forgotten,
        // so that the next start is revealed by its own first frame.
        beginAgain()
        say(message)
      } else {
        beginAgain()
        returnToTheSplash(saying: message)
      }
      if case .restart(let pause) = decision {
        runLoop.run(until: dependencies.clock.now() + pause) { stopAsked }
      }
      guard case .restart = decision, !stopAsked else {
        keepsSplash = true
        if !stopAsked {
          showFailure(
            end, at: endedAt, restarts: restarts,
            verdict: "not started again after \(restarts) restart\(restarts == 1 ? "" : "s")")
        }
        program.close()
        return status
      }
      restarts += 1
      do {
        try program.restart()
      } catch {
        log.error(error.message)
        keepsSplash = true
        showFailure(
          end, at: endedAt, restarts: restarts - 1, verdict: "it cannot be started again (\(error.message))")
        program.close()
        return status
      }
      counts.starts += 1
      onCountsChanged()
      if let child = program.spawned?.child { passSignals(to: child) }
      playAgain()
    }
  }

  /// Whether the stage shows the program from now on, after a splash
  /// (`Stage.showTransitionEnd`: the splash's pictures let go of, so that
  /// it can come back). A splash stopped before its transition shows the
  /// program too, unless splashd is stopping, the program is frozen, or it
  /// has ended already and may be started again: that splash stays. One
  /// whose doors opened (`transitionEnded`) shows the program whatever
  /// happened meanwhile: a program that ended as they finished opening
  /// still gets the splash back over its last frame.
  static func showsTheProgram(
    stopping: Bool, hung: Bool, ended: Bool, restart: RestartPolicy, transitionEnded: Bool
  ) -> Bool {
    guard !stopping && !hung else { return false }
    return transitionEnded || !ended || restart == .no
  }

  /// How long the diagnostic screen holds, with splashd answering
  /// `status`, before splashd exits with the program's status (for
  /// systemd's `Restart=`; the screen keeps the report); a stop ends it sooner.
  static let failureHold = 30.0

  /// The program froze (it did not answer a ping within `hang-timeout`):
  /// the splash comes back over its last frame with a line saying so, and
  /// it is ended: SIGTERM, then SIGKILL after `stopWait` seconds, each wait
  /// bounded.
  private func endTheFrozenProgram() {
    program.liveness.ending = true
    let timeout = program.liveness.check?.timeout ?? 0
    beginAgain()
    returnToTheSplash(saying: ProgramEnd.hung(timeout: timeout, status: 0).phrase(program: name) + "; ending it")
    guard !program.ended, let child = program.spawned?.child else { return }
    child.send(SIGTERM)
    let clock = dependencies.clock
    guard !runLoop.run(until: clock.now() + Self.stopWait, stopWhen: { program.ended }) else { return }
    log.error(
      "host mode: the frozen program did not end within \(formatNumber(Self.stopWait)) s of its SIGTERM; killing it")
    child.send(SIGKILL)
    if !runLoop.run(until: clock.now() + Self.stopWait, stopWhen: { program.ended }) {
      log.error("host mode: the frozen program did not end even when killed; it is not waited for")
    }
  }

  /// The splash, on the screen, says `message` (nil: nothing) from now on.
  private func say(_ message: String?) {
    var next = stage.status
    next.message = message
    if let message { log.info("host mode: \(message)") }
    _ = stage.show(next)
  }

  /// The program has failed for good: the diagnostic screen
  /// (`FailureReport`: how it ended, when, after how many restarts, the
  /// last lines of its standard error, the machine's name and addresses)
  /// over the splash, the same in `status`, for `failureHold` seconds.
  private func showFailure(_ end: ProgramEnd?, at time: (text: String, field: String), restarts: Int, verdict: String) {
    program.stderr?.drain()
    let report = FailureReport(
      program: program.spawned?.path ?? name, end: end, verdict: verdict, when: time.text, whenField: time.field,
      restarts: restarts, stderr: program.stderr?.lastLines ?? [], hostname: ThisMachine.name(),
      addresses: ThisMachine.addresses())
    program.hold.failure = report
    var next = stage.status
    next.report = report.lines
    _ = stage.show(next)
    log.error("host mode: \(report.lines[0]); the diagnostic screen shows for \(formatNumber(Self.failureHold)) s")
    runLoop.run(until: dependencies.clock.now() + Self.failureHold) { stopAsked }
  }

  /// A question asked after the splash (a later unlock: a volume mounted
  /// later, a USB key): the splash comes back over the program with the
  /// prompt in the message's place, nothing typed reaching the program, and
  /// once every question is answered or withdrawn the doors open onto the
  /// program again.
  private func askOverTheProgram() {
    log.info("host mode: a question is asked; the splash comes back over the program for it")
    beginAgain()
    returnToTheSplash(saying: nil)
    // The program lies behind the splash again, for the doors to open onto.
    program.frames.showCurrent()
    runLoop.run(until: .infinity) { !controller.isAsking || program.ended || stopAsked }
    guard !program.ended, !stopAsked else { return }
    let player = Player(timeline: transitionWithoutHold) { [controller] in controller.record($0) }
    defer { stage.playbackEnded() }
    do {
      _ = try player.play(on: stage, clock: clock)
    } catch {
      log.info("host mode: the transition back to the program ended early: \(error)")
    }
  }

  /// The splash holds again: what revealed or stopped it is forgotten.
  private func beginAgain() {
    controller.beginAgain()
    program.hold.beginAgain()
  }

  /// splashd stopping: the program, told, has `stopWait` seconds to end,
  /// then is killed (SIGKILL).
  private func awaitTheEnd() {
    let clock = dependencies.clock
    guard !runLoop.run(until: clock.now() + Self.stopWait, stopWhen: { program.ended }) else { return }
    log.error("host mode: the program did not end within \(formatNumber(Self.stopWait)) s of its SIGTERM; killing it")
    program.spawned?.child.send(SIGKILL)
    runLoop.run(until: .infinity) { program.ended }
  }

  /// splashd asked to stop while the program runs (systemctl stop,
  /// SIGTERM, `splashctl quit`; the program is told too): the program's
  /// frames, live until it ends, cross-fade into what the shutdown splash
  /// shows (`image-shutdown`, else the boot's pictures), which stays on the
  /// display when splashd lets go of it, for the shutdown splash to take
  /// over without a gap.
  private func fadeToTheShutdownPicture() {
    var shutdown = settings
    Plan.adjust(&shutdown, for: .shutdown)
    // A second stop cuts the fade short.
    beginAgain()
    _ = stage.show(BootStatus(shutdown))
    guard stage.prepareReturn(to: SceneMaker(shutdown, log: log)) else { return }
    log.info("host mode: stopping; the program fades into the shutdown's picture")
    playReturn()
  }

  /// The program gone: the splash comes back with `message` (nil: none),
  /// cross-faded from the program's last frame over the transition's
  /// duration, and holds.
  private func returnToTheSplash(saying message: String?) {
    var next = stage.status
    next.message = message
    if let message { log.info("host mode: \(message)") }
    _ = stage.show(next)
    guard stage.prepareReturn() else { return }
    playReturn()
  }

  /// The splash's transition, with no hold before it: a restart's and a
  /// return's (the splash has been on the screen long enough).
  private var transitionWithoutHold: Timeline {
    let timeline = settings.splash.timeline
    return Timeline(hold: 0, duration: timeline.duration, easing: timeline.easing)
  }

  /// The return `Stage.prepareReturn` prepared: a cross-fade from what lies
  /// behind to the splash, over the transition's duration; then it holds.
  private func playReturn() {
    let player = Player(timeline: transitionWithoutHold) { [stage] in stage.record($0) }
    defer { stage.playbackEnded() }
    do {
      _ = try player.play(on: stage, clock: clock)
    } catch {
      log.info("host mode: the return to the splash ended early: \(error)")
    }
    stage.holdAgain()
  }

  /// The program started again: the splash holds until its first frame
  /// (at most `timeout`), then the transition opens onto it.
  private func playAgain() {
    var player = Player(timeline: transitionWithoutHold) { [self] event in
      // The splash appeared long ago: the rest is said as the first time.
      if case .appeared = event {} else { lifecycle.report(event, settings) }
      controller.record(event)
    }
    player.gate = SessionGate(runLoop: runLoop, controller: controller, timeout: settings.handoff.timeout)
    player.gateTimeout = settings.handoff.timeout
    defer { stage.playbackEnded() }
    do {
      _ = try player.play(on: stage, clock: clock)
    } catch {
      log.info("ended early: \(error)")
    }
  }

  /// Signals to splashd go on to the program `child` (nil: it has ended
  /// and been reaped, nothing to pass them to); a stop signal (SIGTERM,
  /// SIGINT, SIGHUP) means the program is not started again.
  private func passSignals(to child: ChildProcess?) {
    signals?.passOn = { [weak self] signal in
      child?.send(signal)
      if StopSignals.stops(signal) { self?.stopAsked = true }
    }
  }

  /// A stop asked otherwise while splashd keeps the screen (`splashctl
  /// quit`): the program is sent SIGTERM and not started again.
  private func stopProgram() {
    guard !stopAsked else { return }
    if programRuns { program.spawned?.child.send(SIGTERM) }
    stopAsked = true
  }

  // MARK: A recording

  /// A recording of the splash in host mode: the program starts first,
  /// its first frame is waited for (at most `timeout`, else
  /// `recordedProgramWait`), and each recorded frame waits a moment for
  /// the program's next one.
  func recordsFrames(of recorder: inout Recorder) {
    startProgram()
    let clock = dependencies.clock
    let timeout = settings.handoff.timeout > 0 ? settings.handoff.timeout : Self.recordedProgramWait
    let program = program
    runLoop.run(until: clock.now() + timeout) { program.frames.showedAFrame || program.ended }
    recorder.beforeEachFrame = { [runLoop] in
      let shown = program.frames.buffersShown
      runLoop.run(until: clock.now() + Self.recordedFrameWait) {
        program.frames.buffersShown != shown || program.ended
      }
    }
  }

  /// A recording's program ends with it: SIGTERM, then SIGKILL after 5 s.
  func endRecording() {
    program.close()
    guard let spawned = program.spawned, !spawned.ended else { return }
    spawned.child.send(SIGTERM)
    let clock = dependencies.clock
    if !runLoop.run(until: clock.now() + Self.stopWait, stopWhen: { spawned.ended }) { spawned.child.send(SIGKILL) }
    _ = try? spawned.child.wait()
  }
}
