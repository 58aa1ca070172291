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
  /// Host mode's kiosk: the program as the client of splashd's
  /// compositor, for the splash and after it.
  private(set) var kiosk: KioskSupervisor?
  /// The control transports that opened (the control socket, …).
  private var transports: [ControlTransport] = []
  /// The questions asked of the person at the screen.
  private var questions: Questions?
  /// Where the splash goes when display devices come and go.
  private var moves: DisplayMoves?
  /// systemd's watchdog, fed from the run loop while the display is not
  /// stuck; nil when systemd asked for none.
  private(set) var watchdog: WatchdogPinger?
  /// The figures for a fleet (`metrics-file`, the journal); nil where
  /// they go nowhere.
  private(set) var figures: FleetFigures?
  /// The screen's power (`splashctl screen`, `[screen-power]`).
  let screenPower: ScreenPowerKeeper

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
    controller.followedByProgram = plan.successor.keepsDisplay
    clock = SessionClock(runLoop: runLoop, controller: controller)
    if let receiver = dependencies.signals {
      let source = SignalSource(receiver, controller: controller)
      runLoop.add(source)
      signals = source
    }
    screenPower = ScreenPowerKeeper(
      plan.settings.screenPower, stage: stage, clock: dependencies.clock, secondOfDay: dependencies.localSecondOfDay,
      backlights: Backlights(folder: dependencies.backlightFolder, putBackOnCrash: dependencies.handlesCrashes),
      log: dependencies.log)
    runLoop.add(screenPower)
    controller.screenPower = screenPower
    var sinks: [(FleetMetrics) -> Void] = []
    if let path = plan.settings.handoff.metricsFile {
      sinks.append(MetricsFile(path: path, log: dependencies.log).write)
    }
    // Where splashd's output is the journal, the figures are fields there too.
    if Log.standardErrorIsTheJournal(environment: dependencies.environment),
      let journal = SystemdNotifier(socketPath: dependencies.journalSocket)
    {
      sinks.append { journal.send($0.journalEntry) }
    }
    if !sinks.isEmpty {
      figures = FleetFigures(controller: controller, stage: stage, wallClock: ThisMachine.unixTime, sinks: sinks)
      figures?.follow(screenPower)
    }
    if let asked = lifecycle.watchdog {
      let stage = stage
      let clock = dependencies.clock
      let pinger = WatchdogPinger(
        asked, clock: clock, send: { [lifecycle] in lifecycle.tellSystemd($0) },
        displayStuck: { (stage.output as? FlipWatchedOutput)?.flipStuck(at: clock.now()) ?? false },
        log: dependencies.log)
      runLoop.add(pinger)
      watchdog = pinger
    }
  }

  /// Starts the spawned program, opens the display and the control
  /// transports, starts watching, and prepares the pictures.
  func open() throws(Failure) {
    switch (plan.successor, plan.program) {
    case (.hosted, let program?):
      kiosk = KioskSupervisor(
        program: program, settings: settings, controller: controller, stage: stage, runLoop: runLoop, clock: clock,
        lifecycle: lifecycle, signals: signals, dependencies: dependencies)
      if let kiosk {
        figures?.follow(kiosk)
        kiosk.follow(screenPower)
      }
    case (.spawned, let arguments?):
      guard let program = HandOff(program: arguments, settings: settings.handoff, environment: dependencies.environment)
      else { break }
      let spawned = try SpawnedProgram(program, controller: controller, log: log)
      runLoop.add(spawned)
      signals?.passOn = { spawned.child.send($0) }
      self.spawned = spawned
    default:
      break
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
    questions.onAsking = { [weak kiosk, weak screenPower] asking in
      kiosk?.questionAsked(asking)
      // A question asked is seen: the screen comes on.
      if asking { screenPower?.splashShows() } else { screenPower?.decide() }
    }
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
            hosting: { [weak kiosk] in kiosk?.programRuns ?? false }, clock: dependencies.clock,
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
    // Host mode: the program's frames are recorded as they come.
    kiosk?.recordsFrames(of: &recorder)
    defer { kiosk?.endRecording() }
    try recorder.record(on: stage, into: directory)
  }

  /// Lets go of the display (keeping the last frame on it when a program
  /// follows); control clients hear did-disappear once it is released, if
  /// the transition was done, and the socket closes.
  func finish(keepingLastFrame: Bool) {
    // Questions still asked end with the splash (their terminal given back).
    questions?.endAll()
    screenPower.release()
    stage.release(keepingLastFrame: keepingLastFrame)
    runLoop.remove(stage)
    if controller.phase == .done || controller.stepsAside { controller.publish(.didDisappear) }
    for transport in transports { transport.close() }
    transports = []
    // By now the root file system is likely writable: what went to /run stays for the next boot.
    maker.keepWrittenCacheFiles()
    // The figures as splashd ends (host mode's program's last end counted).
    figures?.publish()
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
