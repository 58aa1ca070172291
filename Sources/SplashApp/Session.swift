// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem

/// One splash on one output: the run loop and its event sources (signals,
/// the control socket, the followed sensor, the gate's watch, the spawned
/// program, the output's own events), the controller they all feed, and
/// the scene on the output. `open` takes the display and prepares the
/// pictures, `play` (or `record`) runs the splash, `finish` lets go.
final class Session: Turning {
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

  init(_ plan: Plan, dependencies: Dependencies, lifecycle: Lifecycle, started: Double) {
    self.plan = plan
    self.dependencies = dependencies
    self.lifecycle = lifecycle
    runLoop = RunLoop(clock: dependencies.clock)
    controller = Controller(
      rotation: plan.rotation, started: started, now: dependencies.clock.now, log: dependencies.log)
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
    let pictures = try Pictures(settings, canvas: controller.rotation.logicalSize(ofPhysical: size))
    let scene = try pictures.scene(settings, size: size, rotation: controller.rotation, on: output.painter)
    let sink = OutputSink(output: output, scene: scene)
    self.sink = sink
    let events = OutputEventSource(sink, controller: controller, log: log)
    runLoop.add(events)
    outputEvents = events
    controller.turner = self
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
      log.info("\(sink.output.name): \(report.frames.count) frames, \(report.skippedVsyncs) skipped")
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
    outputEvents = nil
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
      let pictures = try Pictures(settings, canvas: rotation.logicalSize(ofPhysical: size))
      sink.scene = try pictures.scene(settings, size: size, rotation: rotation, on: sink.output.painter)
      keys = pictures.keys
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
}
