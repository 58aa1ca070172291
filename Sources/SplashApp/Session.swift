// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem

/// One splash on one output: the run loop and its event sources (signals,
/// the control socket, the followed sensor, the gate's watch, the spawned
/// program, the output's own events), the controller they all feed, and
/// the scene on the output. `open` takes the display and prepares the
/// pictures, `play` (or `record`) runs the splash, `finish` lets go.
final class Session: HeldScene {
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
  /// The message's font, opened for the first message.
  private var font: Font?
  /// Redraws the held splash when its status changes or its animation steps.
  private var refresher: HoldRefresher?

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
    let output = try Outputs.open(
      settings, among: dependencies.backEnds, request: plan.outputRequest(dependencies), log: log)
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
        font = try Session.messageFont(settings, canvas: controller.rotation.logicalSize(ofPhysical: size))
      } else if settings.origins["message-font"] != nil {
        try Font.checkFile(settings.message.font, what: Session.fontOrigin(settings))
      }
    } catch {
      throw Failure.badInput(error.description)
    }
    let (scene, _) = try makeScene(rotation: controller.rotation, painter: output.painter)
    let sink = OutputSink(output: output, scene: scene)
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
  }

  /// The scene for the canvas `rotation` gives, its pictures and status
  /// layers prepared for `painter`; and the keys of the pictures chosen.
  private func makeScene(rotation: Rotation, painter: LayerPainter) throws(Failure) -> (SceneRenderer, [String]) {
    let pictures = try Pictures(settings, canvas: rotation.logicalSize(ofPhysical: size))
    let scene = try pictures.scene(settings, size: size, rotation: rotation, on: painter)
    do {
      // The scene is the session's: it must not keep the session alive.
      scene.status = try StatusLayers(
        settings, renderer: scene, status: controller.status,
        font: { [weak self] () throws(RenderError) in
          guard let self else { throw RenderError("the splash has ended", named: "message") }
          return try self.openFont()
        }, animation: animation)
    } catch {
      throw Failure.badInput(error.description)
    }
    return (scene, pictures.keys)
  }

  /// The message's font, opened once, at the text height of this display.
  private func openFont() throws(RenderError) -> Font {
    if let font { return font }
    let font = try Session.messageFont(settings, canvas: controller.rotation.logicalSize(ofPhysical: size))
    self.font = font
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
    if let outputEvents { runLoop.remove(outputEvents) }
    if let refresher { runLoop.remove(refresher) }
    outputEvents = nil
    refresher = nil
    sink = nil
    if controller.phase == .done { controller.publish(.didDisappear) }
    for transport in transports { transport.close() }
    transports = []
  }

  /// Turns the held splash: the pictures for the new canvas are decoded and
  /// prepared again on the output's painter, and the still frame redrawn.
  func turn(to rotation: Rotation, by cause: String) -> String? {
    guard let sink else { return "this splash cannot turn" }
    let keys: [String]
    do {
      (sink.scene, keys) = try makeScene(rotation: rotation, painter: sink.output.painter)
      try sink.redraw()
    } catch let failure as Failure {
      return failure.message
    } catch {
      return "\(error)"
    }
    let note = settings.splash.shapedArtwork.isEmpty ? "" : "; pictures: " + keys.joined(separator: ", ")
    log.info("turned to \(rotation.rawValue) degrees (\(cause))\(note)")
    return nil
  }

  /// Shows `status` on the scene; the held splash is redrawn with it.
  func show(_ status: BootStatus) -> String? {
    guard let layers = sink?.scene.status else { return nil }
    // A bar that was shown and moved changes only inside its rectangle.
    let onlyTheBar = status.message == layers.status.message && status.progress != nil && layers.status.progress != nil
    do {
      try layers.show(status)
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

  func snapshot() -> Result<[UInt8], ControlError> {
    guard let sink else { return .failure(ControlError("the display has been let go of")) }
    do {
      return .success(try sink.snapshot())
    } catch {
      return .failure(ControlError(error.description))
    }
  }
}
