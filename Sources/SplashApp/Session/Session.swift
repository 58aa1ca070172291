// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashDevices
import SplashRender
import SplashSettings
import SplashSystem

/// One splash: wires the run loop and its event sources (signals, the
/// control transports, the followed sensor, display devices, the gate's
/// watch, the spawned program, the progress sources, the stage), the
/// controller they all feed, and the stage that owns the screen. `open`
/// takes the display and prepares the pictures, `play` (or `record`) runs
/// the splash, `finish` lets go.
final class Session {
  let plan: Plan
  let controller: Controller
  let stage: Stage
  let runLoop: RunLoop
  let clock: SessionClock
  private let maker: SceneMaker
  private let dependencies: Dependencies
  private let lifecycle: Lifecycle
  private var log: Log { dependencies.log }
  private var settings: Settings { plan.settings }
  /// SIGTERM, SIGINT and SIGHUP, read while the splash runs.
  private var signals: SignalSource?
  /// The program of `--ready notify`.
  private(set) var spawned: SpawnedProgram?
  /// The program of host mode, the client of splashd's compositor.
  private(set) var hosted: HostedProgram?
  /// Host mode: splashd was asked to stop (a stop signal, passed on to the
  /// program, or `splashctl quit` while it runs): the program is not
  /// started again, and the splash fades into the shutdown's picture.
  private var stopAsked = false
  /// Host mode: the program was not started again after it ended (the
  /// limit): the splash stays on the screen when splashd lets go of it.
  private(set) var keepsSplash = false
  /// The control transports that opened (the control socket, …).
  private var transports: [ControlTransport] = []
  /// The questions asked of the person at the screen.
  private var questions: Questions?
  /// Where the splash goes when display devices come and go.
  private var moves: DisplayMoves?

  init(_ plan: Plan, dependencies: Dependencies, lifecycle: Lifecycle, started: Double) {
    self.plan = plan
    self.dependencies = dependencies
    self.lifecycle = lifecycle
    runLoop = RunLoop(clock: dependencies.clock)
    maker = SceneMaker(plan.settings, log: dependencies.log)
    stage = Stage(
      rotation: plan.rotation, status: BootStatus(plan.settings), maker: maker, clock: dependencies.clock,
      log: dependencies.log)
    controller = Controller(stage: stage, started: started, now: dependencies.clock.now, log: dependencies.log)
    controller.onRotation = dependencies.onRotation
    controller.recording = plan.settings.splash.record != nil
    // Snapshots are made into PNG files off the run loop (without a pipe for
    // their results, in place).
    controller.snapshots = dependencies.snapshotsOffTheLoop ? try? BackgroundWork() : nil
    if let snapshots = controller.snapshots { runLoop.add(snapshots) }
    controller.followedByProgram = plan.program != nil
    clock = SessionClock(runLoop: runLoop, controller: controller)
    if let receiver = dependencies.signals {
      let source = SignalSource(receiver, controller: controller)
      runLoop.add(source)
      signals = source
    }
  }

  /// Starts the spawned program, opens the display and the control
  /// transports, starts watching, and prepares the pictures.
  func open() throws(Failure) {
    if settings.handoff.host == .wayland, let program = plan.program {
      let hosted = HostedProgram(
        program: program, settings: settings, environment: dependencies.environment, controller: controller,
        stage: stage, now: dependencies.clock.now, log: log, handlesCrashes: dependencies.handlesCrashes)
      runLoop.add(hosted)
      self.hosted = hosted
      // Its window turns with the screen.
      controller.onRotation = { [weak hosted, stage, onRotation = dependencies.onRotation] rotation in
        onRotation(rotation)
        hosted?.turn(to: stage.firstScreenRotation)
      }
      // Screens plugged in later show it too (`screens` arranges them).
      stage.onScreensChanged = { [weak hosted] in hosted?.screensChanged() }
      // The compositor loads, and the program starts, behind the first frame.
      controller.observe { [weak self] event in
        guard event == .appeared else { return }
        self?.startHostedProgram()
      }
    } else if settings.handoff.startsProgramFirst, let program = plan.program {
      let spawned = try SpawnedProgram(
        program: program, searchPath: dependencies.environment["PATH"], user: settings.handoff.user,
        group: settings.handoff.group, controller: controller, log: log)
      runLoop.add(spawned)
      signals?.passOn = { spawned.child.send($0) }
      self.spawned = spawned
    }
    // The display is opened before the pictures are decoded (an offscreen
    // frame buffer's memory is faulted in by a helper thread meanwhile).
    let output = try openOutput()
    if settings.splash.record == nil { log.info("\(output.name): \(output.description)") }
    if output.traits.hasFixedMode, let asked = settings.splash.size, asked != output.size {
      log.info(
        "\(output.name): \(settings.origin(of: \.splash.size)) \(asked.description) does not apply; the mode is "
          + output.size.description)
    }
    let crashes = dependencies.handlesCrashes
    let context = TransportContext(
      settings: settings, controller: controller, environment: dependencies.environment, clock: dependencies.clock,
      log: log, removeOnCrash: { if crashes { CrashHandOff.remove($0) } },
      keepOnCrash: { if crashes { CrashHandOff.keep($0) } })
    let questions = Questions(terminal: settings.handoff.promptTerminal, stage: stage, log: log)
    questions.onAsking = { [weak self] asking in self?.hosted?.questionAsked(asking) }
    controller.questions = questions
    runLoop.add(questions)
    self.questions = questions
    transports = Transports.all.compactMap { $0(context) }
    for transport in transports { runLoop.add(transport) }
    if let followed = plan.followed {
      runLoop.add(OrientationFollower(followed, controller: controller, log: log))
    }
    if DisplayMoves.follows(settings, on: output) {
      do {
        if let events = try dependencies.displayEvents() {
          let moves = DisplayMoves(
            stage: stage, backEnds: dependencies.backEnds,
            request: { [plan, dependencies] in
              plan.outputRequest(dependencies)
            }, showing: { [controller] in controller.phase != .done },
            hosting: { [weak self] in self?.hosted?.spawned.map { !$0.ended } ?? false }, clock: dependencies.clock,
            log: log)
          runLoop.add(DisplayFollower(events, mover: moves, clock: dependencies.clock))
          self.moves = moves
        }
      } catch {
        log.info("display: devices that appear later are not followed: \(error)")
      }
    }
    if let path = settings.handoff.untilFile {
      do {
        runLoop.add(try FileGate(path: path, controller: controller))
      } catch {
        throw Failure.runtime("\(settings.origin(of: \.handoff.untilFile)) \(path): cannot watch: \(error.phrase)")
      }
    }
    try maker.load(canvas: controller.rotation.logicalSize(ofPhysical: output.size))
    do {
      try stage.place(on: output)
    } catch {
      output.release(keepingLastFrame: false) {}
      throw error
    }
    // The controller owns the stage: the stage must not keep it alive.
    stage.onClosed = { [weak controller] in _ = controller?.execute(.stop, because: "the window was closed") }
    runLoop.add(stage)
    switch settings.progress.source {
    case .client: break
    case .time: runLoop.add(TimedProgress(settings, controller: controller, log: log))
    case .systemd: runLoop.add(SystemdProgress(controller: controller, log: log))
    }
  }

  /// Host mode: the compositor and the program, once the splash is on the
  /// screen; the program's window is the first screen's canvas.
  private func startHostedProgram() {
    guard let hosted, let output = stage.output else { return }
    do {
      try hosted.start(screen: output.size, takingInput: output.traits.hasFixedMode)
    } catch {
      log.error(error.message)
      _ = controller.execute(.stop, because: "the program cannot run")
      return
    }
    if let child = hosted.spawned?.child {
      passSignals(to: child)
      // The program runs: a crash of splashd must not start it again.
      if dependencies.handlesCrashes { CrashHandOff.stopRunningProgram() }
    }
  }

  /// Host mode, after the splash: splashd goes on as the program's
  /// compositor, its frames drawn as they come, signals passed on to it,
  /// until it ends; returns its exit status (128 + the signal when a signal
  /// ended it).
  ///
  /// With `restart`, a program that ends is started again under the
  /// splash (`RestartPolicy`): the splash comes back with a message saying
  /// how it ended, the program starts again after a pause, and the
  /// transition opens onto its new first frame; at the limit the splash
  /// stays (`keepsSplash`) and its status is returned.
  func keepHosting() -> Int32 {
    guard let hosted, hosted.spawned != nil else { return ExitStatus.cannotRun }
    let handoff = settings.handoff
    controller.keepHosting()
    // The splash is gone from the screen, which stays the compositor's:
    // who waits for did-disappear (`splashctl wait`, `plymouth --wait`,
    // `plymouth quit --retain-splash`) goes on now, not at the kiosk's end.
    controller.publish(.didDisappear)
    var restarts = 0
    while true {
      // A splash stopped before its transition shows the program from now
      // on too (unless splashd is stopping, or the program has ended
      // already and may be started again: the splash stays).
      if !stopAsked && (!hosted.ended || handoff.restart == .no) { stage.showTransitionEnd() }
      runLoop.run(until: .infinity) { hosted.ended || stopAsked }
      if stopAsked {
        fadeToTheShutdownPicture()
        awaitTheEnd(of: hosted)
      }
      let status = hosted.exitStatus()
      // Reaped: its PID is no longer its own.
      passSignals(to: nil)
      guard let status else {
        hosted.close()
        return ExitStatus.runtimeFailure
      }
      let decision = handoff.restart.decide(
        status: status, restarts: restarts, limit: handoff.restartLimit, stopping: stopAsked)
      guard decision != .end else {
        hosted.close()
        keepsSplash = stopAsked
        return status
      }
      controller.beginAgain()
      let name = Files.name(of: plan.program?.first ?? "the program")
      returnToTheSplash(saying: decision.message(program: name, status: status, restarts: restarts))
      if case .restart(let pause) = decision {
        runLoop.run(until: dependencies.clock.now() + pause) { stopAsked }
      }
      guard case .restart = decision, !stopAsked else {
        keepsSplash = true
        hosted.close()
        return status
      }
      restarts += 1
      do {
        try hosted.restart()
      } catch {
        log.error(error.message)
        keepsSplash = true
        hosted.close()
        return status
      }
      if let child = hosted.spawned?.child { passSignals(to: child) }
      playAgain()
    }
  }

  /// Host mode, splashd stopping: the program, told, has `stopWait`
  /// seconds to end, then is killed (SIGKILL).
  private func awaitTheEnd(of hosted: HostedProgram) {
    guard !runLoop.run(until: dependencies.clock.now() + Self.stopWait, stopWhen: { hosted.ended }) else { return }
    log.error("host mode: the program did not end within \(formatNumber(Self.stopWait)) s of its SIGTERM; killing it")
    hosted.spawned?.child.send(SIGKILL)
    runLoop.run(until: .infinity) { hosted.ended }
  }

  /// How long a program told to stop has before it is killed.
  static let stopWait = 5.0

  /// Host mode, splashd asked to stop while the program runs (systemctl
  /// stop, SIGTERM, `splashctl quit`; the program is told too): the
  /// program's frames, live until it ends, cross-fade into what the
  /// shutdown splash shows (`image-shutdown`, else the boot's pictures),
  /// which stays on the display when splashd lets go of it, for the
  /// shutdown splash to take over without a gap.
  private func fadeToTheShutdownPicture() {
    var shutdown = settings
    Plan.adjust(&shutdown, for: .shutdown)
    // A second stop cuts the fade short.
    controller.beginAgain()
    _ = stage.show(BootStatus(shutdown))
    guard stage.prepareReturn(to: SceneMaker(shutdown, log: log)) else { return }
    log.info("host mode: stopping; the program fades into the shutdown's picture")
    playReturn()
  }

  /// Host mode, the program gone: the splash comes back with `message`
  /// (nil: none), cross-faded from the program's last frame over the
  /// transition's duration, and holds.
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

  /// Host mode, the program started again: the splash holds until its
  /// first frame (at most `timeout`), then the transition opens onto it.
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
  /// SIGINT, SIGHUP), or a stop asked otherwise while splashd keeps
  /// hosting (`splashctl quit`, which sends the program SIGTERM), means
  /// the program is not started again.
  private func passSignals(to child: ChildProcess?) {
    signals?.passOn = { [weak self] signal in
      child?.send(signal)
      if StopSignals.stops(signal) { self?.stopAsked = true }
    }
    controller.onStopWhileHosting = { [weak self] in
      guard let self, !stopAsked else { return }
      child?.send(SIGTERM)
      stopAsked = true
    }
  }

  /// The display: the one a splashd of the initramfs hands over (`--boot
  /// root`, when one answers on the control socket), else the first back
  /// end that opens.
  private func openOutput() throws(Failure) -> Output {
    let request = plan.outputRequest(dependencies)
    if plan.commandLine.bootStage == .root,
      let adopted = AdoptedSplash.request(at: settings.handoff.adoptionPath, clock: dependencies.clock, log: log),
      let output = adopted.output(among: dependencies.backEnds, request: request, log: log)
    {
      stage.adopt(adopted.state.status)
      log.info(
        "adopt: took over from \(adopted.previous) on \(adopted.state.display)"
          + (adopted.state.cards.isEmpty ? "" : " (\(adopted.state.cards.joined(separator: ", ")))"))
      return output
    }
    let output = try Outputs.open(settings, among: dependencies.backEnds, request: request, log: log)
    if plan.commandLine.bootStage == .initramfs {
      // Only a display the root's splashd can take over; `auto`'s last
      // resort (memory) shows nobody anything.
      let inMemory = settings.splash.display == "auto" && output.traits.contains(.memory)
      if inMemory || !(output is AdoptableOutput) {
        output.release(keepingLastFrame: false) {}
        throw Failure.runtime("--boot initramfs: no display to show the splash on here (\(output.name)); boot goes on")
      }
    }
    return output
  }

  /// `--prepare`: opens the display as a start would, prepares the pictures
  /// of each of its screens at each angle the splash may take (all four
  /// when `rotate = auto`) into the cache, and lets go of the display
  /// without drawing. Returns the cache files that now hold them.
  func prepare() throws(Failure) -> [String] {
    guard !settings.splash.cache.isEmpty else {
      throw Failure.badInput("--prepare: \(settings.origin(of: \.splash.cache)) is none: there is no cache to fill")
    }
    // The VT is left as it is: another program may have the screen meanwhile.
    var request = plan.outputRequest(dependencies)
    request.takesConsole = false
    let output = try Outputs.open(settings, among: dependencies.backEnds, request: request, log: log)
    defer { output.release(keepingLastFrame: false) {} }
    log.info("\(output.name): \(output.description)")
    let angles = settings.splash.rotate == .auto ? Rotation.allCases : [controller.rotation]
    for angle in angles { _ = try maker.scenes(for: output, rotation: angle, message: stage.status.message) }
    return maker.cacheFiles.sorted()
  }

  /// Plays the splash: the first frame, the hold, the gate, the transition.
  /// Logs how it went: "NAME: 73 frames, 0 skipped", or "ended early:
  /// REASON" when it was stopped.
  func play() throws(Failure) {
    // The output is the stage's alone: it may move to another meanwhile,
    // and the old one must be let go of then.
    guard stage.output != nil else { return }
    var player = Player(timeline: settings.splash.timeline) { [self] event in
      lifecycle.report(event, settings)
      controller.record(event)
    }
    if settings.handoff.hasGate {
      player.gate = SessionGate(runLoop: runLoop, controller: controller, timeout: settings.handoff.timeout)
      player.gateTimeout = settings.handoff.timeout
    }
    // A stop during the transition leaves the stage drawing on its own again.
    defer { stage.playbackEnded() }
    do {
      let report = try player.play(on: stage, clock: clock)
      controller.playback = report
      let vsyncs = report.medianVsyncInterval.map {
        "; vsyncs \(formatFixed($0 * 1000, decimals: 1)) ms apart (median), the mode's refresh "
          + formatFixed(stage.refreshPeriod * 1000, decimals: 1) + " ms"
      }
      log.info("\(stage.display): \(report.frames.count) frames, \(report.skippedVsyncs) skipped" + (vsyncs ?? ""))
    } catch let interrupted as PlaybackInterrupted {
      log.info("ended early: \(interrupted.reason)")
    } catch {
      throw Failure.runtime("\(stage.display): \(error)")
    }
  }

  /// Records the splash into `directory` instead of playing it.
  func record(into directory: String) throws(Failure) {
    guard stage.output != nil else { return }
    var recorder = Recorder(settings: settings, clock: clock, log: log)
    if let hosted {
      // The program's frames are recorded as they come: it starts first,
      // and each recorded frame waits a moment for its next one.
      startHostedProgram()
      let clock = dependencies.clock
      let timeout = settings.handoff.timeout > 0 ? settings.handoff.timeout : Self.recordedProgramWait
      runLoop.run(until: clock.now() + timeout) { hosted.showedAFrame || hosted.ended }
      recorder.beforeEachFrame = { [runLoop] in
        let shown = hosted.buffersShown
        runLoop.run(until: clock.now() + Self.recordedFrameWait) { hosted.buffersShown != shown || hosted.ended }
      }
    }
    defer { endHostedProgram() }
    try recorder.record(on: stage, into: directory)
  }

  /// The longest a recording waits for the program's first frame without a timeout.
  static let recordedProgramWait = 30.0
  /// The longest a recorded frame waits for the program's next one.
  static let recordedFrameWait = 0.05

  /// A recording's program ends with it: SIGTERM, then SIGKILL after 5 s.
  private func endHostedProgram() {
    hosted?.close()
    guard let spawned = hosted?.spawned, !spawned.ended else { return }
    spawned.child.send(SIGTERM)
    let clock = dependencies.clock
    if !runLoop.run(until: clock.now() + 5, stopWhen: { spawned.ended }) { spawned.child.send(SIGKILL) }
    _ = try? spawned.child.wait()
  }

  /// Lets go of the display (keeping the last frame on it when a program
  /// follows); control clients hear did-disappear once it is released, if
  /// the transition was done, and the socket closes.
  func finish(keepingLastFrame: Bool) {
    // Questions still asked end with the splash (their terminal given back).
    questions?.endAll()
    stage.release(keepingLastFrame: keepingLastFrame)
    runLoop.remove(stage)
    if controller.phase == .done || controller.stepsAside { controller.publish(.didDisappear) }
    for transport in transports { transport.close() }
    transports = []
    // By now the root file system is likely writable: what went to /run stays for the next boot.
    maker.keepWrittenCacheFiles()
  }

  /// keep-last-frame, with no program to become: stays while the screen's
  /// last frame lasts only as long as this process holds the card, until
  /// another program (the kiosk's own unit) shows a frame of its own, a
  /// stop (SIGTERM) or `deadline`; says which.
  func awaitNextProgram(until deadline: Double) {
    guard stage.lastFrameNeedsThisProcess, controller.stopReason == nil else { return }
    let since = dependencies.clock.now()
    while stage.lastFrameNeedsThisProcess && controller.stopReason == nil && dependencies.clock.now() < deadline {
      _ = runLoop.run(until: min(dependencies.clock.now() + 0.05, deadline)) { controller.stopReason != nil }
    }
    let waited = formatFixed(dependencies.clock.now() - since, decimals: 1)
    if stage.lastFrameNeedsThisProcess {
      log.info(
        "keep-last-frame: no other program showed a frame in \(waited) s"
          + (controller.stopReason.map { " (\($0))" } ?? "") + "; the display goes back to the console")
    } else {
      log.info("keep-last-frame: the last frame stayed until another program showed its own (\(waited) s)")
    }
  }
}
