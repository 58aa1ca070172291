import SplashCore
import SplashRender
import SplashSystem

extension Splashd {
  /// Plays the splash on a framebuffer, with the VT in graphics mode. The
  /// last frame stays on the screen; without a program to hand off to, the
  /// VT goes back to text mode.
  static func playFramebuffer(
    _ settings: Settings, _ files: ArtworkFiles, on display: FramebufferDisplay, clock: StoppableClock,
    lifecycle: Lifecycle, program: SpawnedProgram?, keepsGraphics: Bool
  ) throws {
    display.onNote = { Log.info($0) }
    Log.info("fbdev: \(display.description)")
    var console: GraphicsConsole?
    do {
      console = try GraphicsConsole()
    } catch {
      Log.info("console text may draw over the splash: \(error.phrase)")
    }
    defer { if !keepsGraphics { console?.restore() } }
    defer { display.returnToStartPage() }
    let scene = try scene(settings, files, on: display.painter)
    let sink = FramebufferSink(display: display, scene: scene, clock: clock.now)
    allowTurning(settings, sink: sink, clock: clock, lifecycle: lifecycle)
    try playAndReport(
      try player(settings, clock: clock, lifecycle: lifecycle, program: program), on: sink, clock: clock,
      name: "fbdev")
  }

  /// The scene of `settings`' splash, its pictures prepared for `painter`.
  static func scene(_ settings: Settings, _ files: ArtworkFiles, on painter: LayerPainter) throws -> SceneRenderer {
    try runtime { () throws(SDLError) in
      try SceneRenderer(
        painter: painter, layout: layout(settings, files), transition: settings.transition, rotation: settings.rotate,
        images: files.images)
    }
  }

  /// Plays on `sink` and logs how it went: "NAME: 73 frames, 0 skipped",
  /// or "ended early: REASON" when it was stopped.
  static func playAndReport(_ player: Player, on sink: FrameSink, clock: PresentationClock, name: String) throws {
    do {
      let report = try player.play(on: sink, clock: clock)
      Log.info("\(name): \(report.frames.count) frames, \(report.skippedVsyncs) skipped")
    } catch let interrupted as PlaybackInterrupted {
      Log.info("ended early: \(interrupted.reason)")
    }
  }

  static func layout(_ settings: Settings, _ files: ArtworkFiles) -> SplashLayout {
    SplashLayout(
      canvas: settings.rotate.logicalSize(ofPhysical: settings.effectiveSize), artwork: files.artwork,
      backdrop: files.backdrop(settings), fit: settings.fit)
  }

  /// A player that logs the splash's lifecycle, with the reveal gate the
  /// settings ask for.
  static func player(
    _ settings: Settings, clock: StoppableClock, lifecycle: Lifecycle, program: SpawnedProgram?
  ) throws -> Player {
    var player = Player(timeline: settings.timeline) { lifecycle.report($0, settings) }
    if settings.hasGate {
      do {
        player.gate = try Gate(untilFile: settings.untilFile, program: program, clock: clock)
      } catch {
        throw Failure.runtime(
          "\(settings.origin(of: "until-file")) \(settings.untilFile ?? ""): cannot watch: \(error.phrase)")
      }
      player.gateTimeout = settings.timeout
    }
    return player
  }

  /// Lets `splashctl rotate` and a followed accelerometer turn the splash
  /// while it holds: the pictures are decoded again and prepared for the
  /// new angle on the sink's painter, the new scene replaces the sink's,
  /// and the still frame is drawn again. Once the doors move, the angle stays.
  static func allowTurning(_ settings: Settings, sink: SceneSink, clock: StoppableClock, lifecycle: Lifecycle) {
    func turn(to rotation: Rotation, by cause: String) -> String? {
      guard lifecycle.isHolding else {
        return "rotate: the transition has started; the angle stays \(lifecycle.rotation.rawValue)"
      }
      var turned = settings
      turned.rotate = rotation
      do {
        sink.scene = try scene(turned, try ArtworkFiles(settings: turned), on: sink.scene.painter)
        sink.redraw()
      } catch let failure as Failure {
        return "rotate: \(failure.message)"
      } catch {
        return "rotate: \(error)"
      }
      lifecycle.rotation = rotation
      Environment.set("SPLASHD_ROTATION", String(rotation.rawValue))
      let picture =
        settings.shapedArtwork.isEmpty ? "" : "; pictures: " + turned.artworkForCanvas.keys.joined(separator: ", ")
      Log.info("turned to \(rotation.rawValue) degrees (\(cause))\(picture)")
      return nil
    }
    clock.control?.rotate = { turn(to: $0, by: "splashctl rotate") }
    clock.follower?.turn = { rotation, cause in
      guard lifecycle.isHolding, rotation != lifecycle.rotation else { return }
      if let problem = turn(to: rotation, by: cause) { Log.error(problem) }
    }
  }

  /// Plays the splash in memory, paced by the clock, or records it.
  static func playOffscreen(
    _ settings: Settings, _ files: ArtworkFiles, on display: OffscreenDisplay, clock: StoppableClock,
    lifecycle: Lifecycle, program: SpawnedProgram?
  ) throws {
    let scene = try scene(settings, files, on: display.painter)
    if let directory = settings.record {
      try record(settings, scene: scene, display: display, into: directory, clock: clock)
      return
    }
    let sink = OffscreenSink(scene: scene, fps: settings.fps)
    allowTurning(settings, sink: sink, clock: clock, lifecycle: lifecycle)
    try playAndReport(
      try player(settings, clock: clock, lifecycle: lifecycle, program: program), on: sink, clock: clock,
      name: "offscreen")
  }

  /// Plays the splash in a desktop window.
  static func playInWindow(
    _ settings: Settings, _ files: ArtworkFiles, on window: WindowDisplay, clock: StoppableClock,
    lifecycle: Lifecycle, program: SpawnedProgram?
  ) throws {
    Log.info(
      "window: \(settings.effectiveSize.description), renderer \(window.rendererName), "
        + "refresh \(formatFixed(1 / window.refreshPeriod, decimals: 2)) Hz")
    try play(settings, files, on: window, name: "window", clock: clock, lifecycle: lifecycle, program: program)
  }

  /// Plays the splash full screen through KMS. When a program follows and
  /// the card's fbdev emulation is there (/dev/fb0 at the same size), the
  /// last frame is also painted into it, with the VT in graphics mode: SDL
  /// gives the screen back to that framebuffer when it lets go, so the
  /// screen keeps the last frame until the program sets its own. Without a
  /// program the console comes back.
  static func playOnKMS(
    _ settings: Settings, _ files: ArtworkFiles, on screen: WindowDisplay, card: Int?, clock: StoppableClock,
    lifecycle: Lifecycle, program: SpawnedProgram?, keepsGraphics: Bool
  ) throws {
    Log.info(
      "kmsdrm: \(card.map { "/dev/dri/card\($0)" } ?? "the first connected card"), "
        + "\(screen.size.description)@\(formatNumber((1 / screen.refreshPeriod).rounded())), "
        + "renderer \(screen.rendererName)")
    try play(settings, files, on: screen, name: "kmsdrm", clock: clock, lifecycle: lifecycle, program: program)
    if keepsGraphics { leaveLastFrame(settings) }
  }

  /// Paints the splash's last frame into /dev/fb0 for `playOnKMS`, when
  /// it is there and the size of the KMS mode, and leaves the VT in
  /// graphics mode; says why not otherwise.
  static func leaveLastFrame(_ settings: Settings) {
    let path = Settings.defaultFramebuffer
    guard Files.exists(path) else { return }
    do {
      let framebuffer = try FramebufferDisplay(path: path)
      guard framebuffer.size == settings.effectiveSize else {
        Log.info("kmsdrm: \(path) is \(framebuffer.size.description), not the mode's size: the last frame is not kept")
        return
      }
      _ = try? GraphicsConsole()
      // The last frame is the background alone. The pictures were let go
      // once prepared: a background picture is decoded again.
      switch settings.background {
      case .color(let color):
        let whole = framebuffer.size
        framebuffer.painter.fill(
          Rect(x: 0, y: 0, width: Double(whole.width), height: Double(whole.height)), with: color)
      case .image:
        try scene(settings, try ArtworkFiles(settings: settings), on: framebuffer.painter).draw(progress: 1)
      }
      framebuffer.device.flush()
    } catch {
      Log.info("kmsdrm: the last frame is not kept in \(path): \(error)")
    }
  }

  /// Plays on an SDL window (desktop or KMS), its events handled while the
  /// gate holds.
  static func play(
    _ settings: Settings, _ files: ArtworkFiles, on window: WindowDisplay, name: String, clock: StoppableClock,
    lifecycle: Lifecycle, program: SpawnedProgram?
  ) throws {
    let scene = try scene(settings, files, on: window.painter)
    let sink = WindowSink(display: window, scene: scene, clock: clock.monotonic, stopCheck: clock.checkForStop)
    allowTurning(settings, sink: sink, clock: clock, lifecycle: lifecycle)
    let player = try player(settings, clock: clock, lifecycle: lifecycle, program: program)
    // While the gate holds, the window's events are still handled.
    (player.gate as? Gate)?.tend = sink.tend
    try playAndReport(player, on: sink, clock: sink, name: name)
  }

  /// Renders every frame of the recording schedule offscreen and writes
  /// them as PNG files, with frames.csv, into `directory`.
  static func record(
    _ settings: Settings, scene: SceneRenderer, display: OffscreenDisplay, into directory: String,
    clock: StoppableClock
  ) throws {
    do {
      try Files.makeDirectories(directory)
    } catch {
      throw Failure.badInput("--record \(directory): cannot create the directory: \(error.phrase)")
    }
    let timeline = settings.timeline
    var csv = "frame,time_s,phase,progress\n"
    let times = timeline.recordingTimes(fps: settings.fps)
    for (index, time) in times.enumerated() {
      do {
        try clock.checkForStop()
      } catch let interrupted as PlaybackInterrupted {
        throw Failure.runtime("--record \(directory): interrupted by \(interrupted.reason) after \(index) frames")
      }
      let progress = timeline.progress(at: time)
      scene.draw(progress: progress)
      let name = "frame-" + zeroPadded(index, width: 5) + ".png"
      try runtime { () throws(SDLError) in try display.savePNG(to: directory + "/" + name) }
      csv +=
        "\(index),\(formatFixed(time, decimals: 6)),\(timeline.phase(at: time).rawValue),"
        + "\(formatFixed(progress, decimals: 6))\n"
    }
    do {
      try Files.write(csv, to: directory + "/frames.csv")
    } catch {
      throw Failure.runtime("--record \(directory)/frames.csv: \(error.phrase)")
    }
    Log.info("recorded \(times.count) frames to \(directory)/ (frame-00000.png … and frames.csv)")
  }

  /// Runs an SDL step; its failure is a runtime failure.
  @discardableResult
  static func runtime<T>(_ body: () throws(SDLError) -> T) throws -> T {
    do { return try body() } catch { throw Failure.runtime(error.description) }
  }
}

/// `value` in decimal, left-padded with zeros to `width` digits.
func zeroPadded(_ value: Int, width: Int) -> String {
  let digits = String(value)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
