// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem

/// One splash on one output: the run loop and its event sources (signals,
/// the control socket, the followed sensor, the gate's watch, the spawned
/// program, the output's own events), the controller they all feed, and
/// the scene on the output. `open` takes the display and prepares the
/// pictures, `play` (or `record`) runs the splash, `finish` lets go.
final class Session: HeldScene, DisplayMover {
  let plan: Plan
  let controller: Controller
  let runLoop: RunLoop
  let clock: SessionClock
  private let dependencies: Dependencies
  private let lifecycle: Lifecycle
  private var log: Log { dependencies.log }
  private var settings: Settings { plan.settings }
  /// SIGTERM, SIGINT and SIGHUP, read while the splash runs.
  private var signals: SignalSource?
  /// The program of `--ready notify`.
  private(set) var spawned: SpawnedProgram?
  /// The control transports that opened (the control socket, …).
  private var transports: [ControlTransport] = []
  private var sink: OutputSink?
  private var outputEvents: OutputEventSource?
  /// The output's size (its mode's, for a screen).
  private var size: PixelSize
  /// The animation's frames as decoded, prepared again when the splash turns.
  private var animation: DecodedAnimation?
  /// The message's fonts, by text height, opened for the first message.
  private var fonts: [Int: Font] = [:]
  /// Redraws the held splash when its status changes or its animation steps.
  private var refresher: HoldRefresher?
  /// The output let go of with its last frame kept (keep-last-frame).
  private var released: Output?
  /// The cache files the scenes were made from or written to.
  private var cacheFiles: Set<String> = []
  /// The last "staying on" line the display follower caused, not to repeat it.
  private var lastStay: String?

  init(_ plan: Plan, dependencies: Dependencies, lifecycle: Lifecycle, started: Double) {
    self.plan = plan
    self.dependencies = dependencies
    self.lifecycle = lifecycle
    runLoop = RunLoop(clock: dependencies.clock)
    controller = Controller(
      rotation: plan.rotation, status: BootStatus(plan.settings), started: started, now: dependencies.clock.now,
      log: dependencies.log)
    controller.onRotation = dependencies.onRotation
    clock = SessionClock(runLoop: runLoop, controller: controller)
    size = plan.settings.splash.effectiveSize
    if let receiver = dependencies.signals {
      let source = SignalSource(receiver, controller: controller)
      runLoop.add(source)
      signals = source
    }
  }

  /// Starts the spawned program, opens the display and the control
  /// transports, starts watching, and prepares the pictures.
  func open() throws(Failure) {
    if settings.handoff.readyNotify, let program = plan.program {
      let spawned: SpawnedProgram
      do {
        spawned = try SpawnedProgram(
          program: program, searchPath: dependencies.environment["PATH"], controller: controller, log: log)
      } catch let failure as Failure {
        throw failure
      } catch {
        throw Failure.runtime("\(error)")
      }
      runLoop.add(spawned)
      signals?.passOn = { spawned.child.send($0) }
      self.spawned = spawned
    }
    // The display is opened before the pictures are decoded (an offscreen
    // frame buffer's memory is faulted in by a helper thread meanwhile).
    let output = try openOutput()
    output.note = { [log, name = output.name] in log.info("\(name): \($0)") }
    if settings.splash.record == nil { log.info("\(output.name): \(output.description)") }
    if output.sizeIsFixed, let asked = settings.splash.size, asked != output.size {
      log.info(
        "\(output.name): \(settings.origin(of: "size")) \(asked.description) does not apply; the mode is "
          + output.size.description)
    }
    size = output.size
    controller.display = settings.splash.record != nil ? "record" : output.name
    let crashes = dependencies.handlesCrashes
    let context = TransportContext(
      settings: settings, controller: controller, environment: dependencies.environment, clock: dependencies.clock,
      log: log, removeOnCrash: { if crashes { Program.removeOnCrash($0) } },
      keepOnCrash: { if crashes { Program.keepOnCrash($0) } })
    transports = Transports.all.compactMap { $0(context) }
    for transport in transports { runLoop.add(transport) }
    if let followed = plan.followed {
      runLoop.add(OrientationFollower(followed, controller: controller, log: log))
    }
    if movesBetweenDisplays(from: output) {
      do {
        if let events = try dependencies.displayEvents() {
          runLoop.add(DisplayFollower(events, mover: self, clock: dependencies.clock))
        }
      } catch {
        log.info("display: devices that appear later are not followed: \(error)")
      }
    }
    if let path = settings.handoff.untilFile {
      do {
        runLoop.add(try FileGate(path: path, controller: controller))
      } catch {
        throw Failure.runtime("\(settings.origin(of: "until-file")) \(path): cannot watch: \(error.phrase)")
      }
    }
    if let path = settings.animation.file {
      do {
        animation = try DecodedAnimation(
          path: path, what: settings.origin(of: "animation"), fps: settings.animation.fps)
      } catch {
        throw Failure.badInput(error.description)
      }
    }
    // The text library is loaded at start only for a first message; a font
    // chosen without one is checked to be there, and opened for the first message.
    do {
      if settings.message.text != nil {
        _ = try openFont(canvas: controller.rotation.logicalSize(ofPhysical: size))
      } else if settings.origins["message-font"] != nil {
        try Font.checkFile(settings.message.font, what: Session.fontOrigin(settings))
      }
    } catch {
      throw Failure.badInput(error.description)
    }
    let (scenes, _) = try makeScenes(for: output, rotation: controller.rotation)
    let sink = OutputSink(output: output, scenes: scenes)
    self.sink = sink
    let events = OutputEventSource(sink, controller: controller, log: log)
    runLoop.add(events)
    outputEvents = events
    let refresher = HoldRefresher(sink, controller: controller, log: log)
    runLoop.add(refresher)
    self.refresher = refresher
    switch settings.progress.source {
    case .client: break
    case .time: runLoop.add(TimedProgress(settings, controller: controller, log: log))
    case .systemd: runLoop.add(SystemdProgress(controller: controller, log: log))
    }
    controller.scene = self
    publishScreens()
  }

  /// The display: the one a splashd of the initramfs hands over (`--boot
  /// root`, when one answers on the control socket), else the first back
  /// end that opens.
  private func openOutput() throws(Failure) -> Output {
    let request = plan.outputRequest(dependencies)
    if plan.commandLine.bootStage == .root,
      let adopted = AdoptedSplash.request(at: settings.handoff.adoptionPath, clock: dependencies.clock, log: log),
      let output = adopted.output(settings, among: dependencies.backEnds, request: request, log: log)
    {
      controller.adopt(adopted.state.status)
      log.info(
        "adopt: took over from \(adopted.previous) on \(adopted.state.display)"
          + (adopted.state.cards.isEmpty ? "" : " (\(adopted.state.cards.joined(separator: ", ")))"))
      return output
    }
    let output = try Outputs.open(settings, among: dependencies.backEnds, request: request, log: log)
    if plan.commandLine.bootStage == .initramfs {
      // Only a display the root's splashd can take over; `auto`'s last
      // resort (memory) shows nobody anything.
      let inMemory = settings.splash.display == "auto" && output.name == OffscreenOutput.backEnd.name
      if inMemory || output.handover == nil {
        output.release(keepingLastFrame: false, repaintLast: {})
        throw Failure.runtime("--boot initramfs: no display to show the splash on here (\(output.name)); boot goes on")
      }
    }
    return output
  }

  /// Tells the controller the screens of an output that has named ones,
  /// with each one's mode and turn.
  private func publishScreens() {
    guard let sink else { return }
    let output = sink.output
    controller.screens =
      output.screens.count == 1 && output.screens[0].name == output.name
      ? [] : zip(output.screens, sink.scenes).map { "\($0.name):\($0.mode):\($1.rotation.rawValue)" }
  }

  /// Whether the splash follows display devices as they come and go: with
  /// `auto`, unless it plays in a desktop window or is recorded.
  private func movesBetweenDisplays(from output: Output) -> Bool {
    settings.splash.display == "auto" && settings.splash.record == nil && output.name != WindowOutput.backEnd.name
  }

  /// Moves the splash to a better display when one appears (a KMS card,
  /// while it shows on a framebuffer or offscreen), or away from the card
  /// it shows on when that goes; the current frame (progress, layers) is
  /// drawn on the new one at once, and the old one let go of.
  func displayChanged(_ event: DisplayDeviceEvent?, at time: Double) -> Bool {
    // Events lost: look at the first card that has a screen as if it changed.
    let event =
      event
      ?? DRMCards.firstConnected().map {
        DisplayDeviceEvent(change: .changed, kind: .card, node: "/dev/dri/card\($0.card)")
      }
    guard let sink, controller.phase != .done, let event, event.kind == .card else { return false }
    let current = sink.output
    let kms = KMSOutput.backEnd.name
    var request = plan.outputRequest(dependencies)
    if current.name == kms {
      guard event.change == .removed, event.node == current.deviceNode else {
        // A screen plugged in or unplugged, another card: each screen gets
        // its scene again. A card just added may not be usable yet.
        return refreshScreens(of: current, on: sink, after: event) ? false : event.change == .added
      }
      // The card drawn on went away: the next back end that opens.
      let left = [WindowOutput.backEnd.name, kms, SDLKMSOutput.backEnd.name]
      return move(
        from: current, to: dependencies.backEnds.filter { !left.contains($0.name) }, request: request, on: sink,
        because: "\(event.node) went away", at: time)
    }
    guard current.name != SDLKMSOutput.backEnd.name, event.change != .removed,
      let backEnd = dependencies.backEnds.first(where: { $0.name == kms })
    else { return false }
    request.device = event.node
    request.deviceOrigin = "the new card"
    return move(
      from: current, to: [backEnd], request: request, on: sink,
      because: "\(event.node) \(event.change == .added ? "appeared" : "changed")", at: time)
  }

  /// Lets `current` look at its screens again after `event`; when they
  /// changed, each gets its scene and the frame is drawn on all. Whether
  /// they changed.
  private func refreshScreens(of current: Output, on sink: OutputSink, after event: DisplayDeviceEvent) -> Bool {
    guard current.screensChanged(on: event.node) else { return false }
    do {
      let (scenes, _) = try makeScenes(for: current, rotation: controller.rotation)
      try sink.move(to: current, scenes: scenes)
    } catch {
      log.error("display: \(event.node) \(event.change.rawValue): \(error)")
      return true
    }
    publishScreens()
    log.info("display: \(event.node) \(event.change.rawValue): the screens are now \(current.description)")
    return true
  }

  /// Moves the splash from `current` to the first of `candidates` that
  /// opens, drawing the current frame there before letting go of
  /// `current`; returns whether to look again shortly (nothing opened, and
  /// `current` is not a card that went away).
  private func move(
    from current: Output, to candidates: [BackEnd], request: OutputRequest, on sink: OutputSink,
    because reason: String, at time: Double
  ) -> Bool {
    var opened: Output?
    var failures: [String] = []
    for backEnd in candidates {
      do {
        opened = try backEnd.open(request)
        break
      } catch {
        failures.append("\(backEnd.name): \(error)")
      }
    }
    guard let output = opened else {
      // Said once, however often the card is looked at again.
      let said = "display: \(reason); staying on \(current.name): " + failures.joined(separator: "; ")
      if said != lastStay { log.info(said) }
      lastStay = said
      return current.name != KMSOutput.backEnd.name
    }
    lastStay = nil
    output.note = { [log, name = output.name] in log.info("\(name): \($0)") }
    let oldSize = size
    size = output.size
    do {
      let (scenes, _) = try makeScenes(for: output, rotation: controller.rotation)
      try sink.move(to: output, scenes: scenes)
    } catch {
      // What was shown stays where it was.
      size = oldSize
      output.release(keepingLastFrame: false) {}
      log.error("display: \(reason); cannot show the splash on \(output.name): \(error); staying on \(current.name)")
      return false
    }
    // The old device's screen is no longer looked at: let go of it as for a
    // program that follows (the VT stays in graphics mode).
    current.release(keepingLastFrame: true) {}
    controller.display = output.name
    publishScreens()
    let delay = formatFixed(max(0, dependencies.clock.now() - time) * 1000, decimals: 0)
    log.info(
      "display: moved from \(current.name) to \(output.name) (\(reason)), \(delay) ms later: \(output.description)")
    return false
  }

  /// The scene of each of `output`'s screens: its pictures and status
  /// layers prepared for the screen's canvas, its turn (`rotation`, unless
  /// the screen has its own) and its painter; and the keys of the first
  /// screen's pictures.
  private func makeScenes(for output: Output, rotation: Rotation) throws(Failure) -> ([SceneRenderer], [String]) {
    var scenes: [SceneRenderer] = []
    var keys: [String] = []
    for screen in output.screens {
      let turn = Session.rotation(of: screen, settings, global: rotation)
      var screenSettings = settings
      if let fit = settings.screen(named: screen.name).fit { screenSettings.splash.fit = fit }
      let canvas = turn.logicalSize(ofPhysical: screen.size)
      let pictures = try Pictures(screenSettings, canvas: canvas)
      let (scene, cacheUse) = try pictures.scene(
        screenSettings, size: screen.size, rotation: turn, on: screen.painter, cache: cache,
        problem: { [log, name = screen.name] in log.info("\(name): \($0)") })
      if let cacheUse {
        cacheFiles.insert(cacheUse.path)
        // A recording says only what goes wrong, as it does of its output.
        if settings.splash.record == nil { log.info("\(screen.name): \(cacheUse.description)") }
      }
      do {
        // The scene is the session's: it must not keep the session alive.
        scene.status = try StatusLayers(
          screenSettings, renderer: scene, status: controller.status,
          font: { [weak self] () throws(RenderError) in
            guard let self else { throw RenderError("the splash has ended", named: "message") }
            return try self.openFont(canvas: canvas)
          }, animation: animation)
      } catch {
        throw Failure.badInput(error.description)
      }
      if scenes.isEmpty { keys = pictures.keys }
      scenes.append(scene)
    }
    return (scenes, keys)
  }

  /// Where prepared pictures are kept; nil for no cache.
  private var cache: PreparedPictureCache? {
    settings.splash.cache.isEmpty ? nil : PreparedPictureCache(folders: settings.splash.cache)
  }

  /// `--prepare`: opens the display as a start would, prepares the pictures
  /// of each of its screens at each angle the splash may take (all four
  /// when `rotate = auto`) into the cache, and lets go of the display
  /// without drawing. Returns the cache files that now hold them.
  func prepare() throws(Failure) -> [String] {
    guard let cache else {
      throw Failure.badInput("--prepare: \(settings.origin(of: "cache")) is none: there is no cache to fill")
    }
    let output = try Outputs.open(
      settings, among: dependencies.backEnds, request: plan.outputRequest(dependencies), log: log)
    defer { output.release(keepingLastFrame: false) {} }
    log.info("\(output.name): \(output.description)")
    let angles = settings.splash.rotate == .auto ? Rotation.allCases : [controller.rotation]
    for angle in angles { _ = try makeScenes(for: output, rotation: angle) }
    return cacheFiles.sorted()
  }

  /// The turn of `screen`: its `[screen NAME]` section's; else, when the
  /// splash's rotate was set explicitly to an angle, that; else the screen's
  /// panel orientation; else `global` (the splash's rotation, resolved).
  static func rotation(of screen: OutputScreen, _ settings: Settings, global: Rotation) -> Rotation {
    if let own = settings.screen(named: screen.name).rotate { return own }
    if case .fixed = settings.splash.rotate, settings.origins["rotate"] != nil { return global }
    return screen.panelRotation ?? global
  }

  /// The message's font at the text height of `canvas`, opened once.
  private func openFont(canvas: PixelSize) throws(RenderError) -> Font {
    let height = StatusLayout(settings, canvas: canvas).textHeight
    if let font = fonts[height] { return font }
    let font = try Session.messageFont(settings, canvas: canvas)
    fonts[height] = font
    return font
  }

  /// The message's font, at the text height of `canvas`.
  static func messageFont(_ settings: Settings, canvas: PixelSize) throws(RenderError) -> Font {
    try Font(
      path: settings.message.font, pixels: StatusLayout(settings, canvas: canvas).textHeight,
      what: fontOrigin(settings))
  }

  /// How messages name the font: "--message-font /x.ttf".
  static func fontOrigin(_ settings: Settings) -> String {
    "\(settings.origin(of: "message-font")) \(printable(settings.message.font))"
  }

  /// Plays the splash: the first frame, the hold, the gate, the transition.
  /// Logs how it went: "NAME: 73 frames, 0 skipped", or "ended early:
  /// REASON" when it was stopped.
  func play() throws(Failure) {
    guard let sink else { return }
    var player = Player(timeline: settings.splash.timeline) { [self] event in
      lifecycle.report(event, settings)
      controller.record(event)
    }
    if settings.handoff.hasGate {
      player.gate = SessionGate(runLoop: runLoop, controller: controller)
      player.gateTimeout = settings.handoff.timeout
    }
    do {
      let report = try player.play(on: sink, clock: clock)
      let vsyncs = report.medianVsyncInterval.map {
        "; vsyncs \(formatFixed($0 * 1000, decimals: 1)) ms apart (median), the mode's refresh "
          + formatFixed(sink.refreshPeriod * 1000, decimals: 1) + " ms"
      }
      log.info("\(sink.output.name): \(report.frames.count) frames, \(report.skippedVsyncs) skipped" + (vsyncs ?? ""))
    } catch let interrupted as PlaybackInterrupted {
      log.info("ended early: \(interrupted.reason)")
    } catch {
      throw Failure.runtime("\(sink.output.name): \(error)")
    }
  }

  /// Records the splash into `directory` instead of playing it.
  func record(into directory: String) throws(Failure) {
    guard let sink, let output = sink.output as? OffscreenOutput else { return }
    try Recorder(settings: settings, clock: clock, log: log).record(sink.scene, on: output, into: directory)
  }

  /// Lets go of the display (keeping the last frame on it when a program
  /// follows); control clients hear did-disappear once it is released, if
  /// the transition was done, and the socket closes.
  func finish(keepingLastFrame: Bool) {
    sink?.release(keepingLastFrame: keepingLastFrame)
    released = keepingLastFrame ? sink?.output : nil
    stopDrawing()
    if controller.phase == .done { controller.publish(.didDisappear) }
    for transport in transports { transport.close() }
    transports = []
  }

  /// keep-last-frame, with no program to become: stays while the screen's
  /// last frame lasts only as long as this process holds the card, until
  /// another program (the kiosk's own unit) shows a frame of its own, a
  /// stop (SIGTERM) or `deadline`; says which.
  func awaitNextProgram(until deadline: Double) {
    guard let output = released, output.lastFrameNeedsThisProcess, controller.stopReason == nil else { return }
    let since = dependencies.clock.now()
    while output.lastFrameNeedsThisProcess && controller.stopReason == nil && dependencies.clock.now() < deadline {
      _ = runLoop.run(until: min(dependencies.clock.now() + 0.05, deadline)) { controller.stopReason != nil }
    }
    let waited = formatFixed(dependencies.clock.now() - since, decimals: 1)
    if output.lastFrameNeedsThisProcess {
      log.info(
        "keep-last-frame: no other program showed a frame in \(waited) s"
          + (controller.stopReason.map { " (\($0))" } ?? "") + "; the display goes back to the console")
    } else {
      log.info("keep-last-frame: the last frame stayed until another program showed its own (\(waited) s)")
    }
  }

  /// Turns the held splash: the pictures for the new canvas are decoded and
  /// prepared again on the output's painter, and the still frame redrawn.
  func turn(to rotation: Rotation, by cause: String) -> String? {
    guard let sink else { return "this splash cannot turn" }
    let keys: [String]
    do {
      (sink.scenes, keys) = try makeScenes(for: sink.output, rotation: rotation)
      try sink.redraw()
    } catch let failure as Failure {
      return failure.message
    } catch {
      return "\(error)"
    }
    let note = settings.splash.shapedArtwork.isEmpty ? "" : "; pictures: " + keys.joined(separator: ", ")
    publishScreens()
    log.info("turned to \(rotation.rawValue) degrees (\(cause))\(note)")
    return nil
  }

  /// Shows `status` on the scene; the held splash is redrawn with it.
  func show(_ status: BootStatus) -> String? {
    guard let sink, let layers = sink.scene.status else { return nil }
    // A bar that was shown and moved changes only inside its rectangle.
    let onlyTheBar = status.message == layers.status.message && status.progress != nil && layers.status.progress != nil
    do {
      for scene in sink.scenes { try scene.status?.show(status) }
    } catch {
      log.error("\(error): the message is not shown")
      return error.description
    }
    refresher?.statusChanged(area: onlyTheBar ? layers.layout.bar : nil)
    return nil
  }

  func setActive(_ active: Bool) {
    guard let sink else { return }
    if active {
      sink.output.reactivate()
      refresher?.statusChanged(area: nil)
    } else {
      sink.output.deactivate()
    }
  }

  func handoverState() -> Result<(HandoverState, [FileDescriptor]), ControlError> {
    guard let sink else { return .failure(ControlError("the display has been let go of")) }
    guard plan.program == nil else {
      return .failure(ControlError("this splash hands the display to its program"))
    }
    guard let handover = sink.output.handover else {
      return .failure(ControlError("the \(sink.output.name) display cannot be handed over"))
    }
    let state = HandoverState(
      display: sink.output.name, cards: handover.cards.map(\.path), rotation: controller.rotation,
      status: controller.status)
    return .success((state, handover.cards.map(\.descriptor)))
  }

  func didHandOver() {
    // Nothing more is drawn, and nothing on the screen let go of: the output
    // is kept until the process ends (its descriptors' files live on in the
    // adopter), with only the buffers off the screen freed.
    if let sink {
      sink.output.handedOver()
      _ = Unmanaged.passRetained(sink)
    }
    stopDrawing()
  }

  /// Nothing is drawn from now on: the output's events and the refresher
  /// leave the run loop, and the sink goes.
  private func stopDrawing() {
    if let outputEvents { runLoop.remove(outputEvents) }
    if let refresher { runLoop.remove(refresher) }
    outputEvents = nil
    refresher = nil
    sink = nil
  }

  func snapshot() -> Result<[UInt8], ControlError> {
    guard let sink else { return .failure(ControlError("the display has been let go of")) }
    do {
      return .success(try sink.snapshot())
    } catch {
      return .failure(ControlError(error.description))
    }
  }
}
