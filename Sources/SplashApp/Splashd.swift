import SplashConfigFile
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem

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

/// The `splashd` command.
public enum Splashd {
  /// Runs splashd with `arguments` (without the program name) and returns
  /// its exit status, or becomes the program given after `--` (or by `exec`
  /// in the config file's `[handoff]` section) once the splash is done. That
  /// program is found before anything else and runs whatever goes wrong
  /// with the splash.
  public static func main(_ arguments: [String]) -> Int32 {
    let monotonic = MonotonicClock()
    let started = monotonic.now()
    var handOff = HandOff(program: ParsedCommandLine.splitProgram(arguments).program ?? [])
    let stopSignals: StopSignals?
    do {
      stopSignals = try StopSignals()
    } catch {
      Log.error("SIGTERM and SIGINT will end splashd at once: \(error)")
      stopSignals = nil
    }
    let clock = StoppableClock(monotonic, stopSignals: stopSignals)
    let lifecycle = Lifecycle(monotonic, started: started)
    Environment.set("SPLASHD_ROTATION", "0")
    var status = ExitStatus.done
    // For systemd's STATUS= when the splash never showed.
    var outcome = "Splash ended"
    var spawned: SpawnedProgram?
    do {
      let commandLine: ParsedCommandLine
      do { commandLine = try ParsedCommandLine.parse(arguments) } catch { throw Failure.badInput(error.message) }
      if commandLine.help || commandLine.version || commandLine.check { handOff = nil }
      if commandLine.help {
        printOut(usageText + "\n")
        return ExitStatus.done
      }
      if commandLine.version {
        printOut("splashd \(splashdVersion)\n")
        return ExitStatus.done
      }
      var settings = try resolveSettings(commandLine)
      var rotationSource: String?
      if settings.rotateAuto {
        let resolved = RotationResolver.resolve(settings, clock: monotonic)
        for miss in resolved.misses { Log.info("rotation: \(miss)") }
        Log.info("rotation \(resolved.rotation.rawValue) from \(resolved.source)")
        settings.rotate = resolved.rotation
        rotationSource = resolved.source
        if settings.follow, !commandLine.check, let device = resolved.followed {
          clock.follower = OrientationFollower(device, rotation: resolved.rotation)
        }
      }
      if handOff == nil && !commandLine.check, let program = settings.program {
        handOff = HandOff(program: program)
      }
      Environment.set("SPLASHD_ROTATION", String(settings.rotate.rawValue))
      lifecycle.rotation = settings.rotate
      if settings.readyNotify && !commandLine.check {
        // Spawn mode: the program starts now, as splashd's child.
        let program = commandLine.program.isEmpty ? settings.program ?? [] : commandLine.program
        guard !program.isEmpty else {
          throw Failure.badInput("--ready notify needs a program: -- PROGRAM, or exec = in [handoff]")
        }
        handOff = nil
        Program.stopReplacingProcessOnCrash()
        spawned = try SpawnedProgram(program: program)
      }
      // The display is opened before the pictures are decoded (an offscreen
      // frame buffer's memory is faulted in by a helper thread meanwhile).
      let display = commandLine.check ? nil : try openDisplay(settings, candidates: displayCandidates(settings))
      // A screen's size is its mode's, whatever --size says.
      if let display, let size = display.modeSize {
        if let asked = settings.size, asked != size {
          Log.info(
            "\(display.choice.rawValue): \(settings.origin(of: "size")) \(asked.description) does not apply; "
              + "the mode is \(size.description)")
        }
        settings.size = size
      }
      if let display, let path = settings.controlPath(runtimeDirectory: Environment.value("RUNTIME_DIRECTORY")) {
        do {
          let control = try ControlServer(path: path, group: settings.controlGroup)
          let name = settings.record != nil ? "record" : display.choice.rawValue
          control.status = { lifecycle.status(display: name) }
          clock.control = control
          lifecycle.control = control
        } catch {
          // The splash goes on without its control socket.
          Log.error("\(settings.origin(of: "control")) \(path): no control socket: \(error.phrase)")
        }
      }
      let artwork = try ArtworkFiles(settings: settings)
      if commandLine.check {
        printOut(describe(settings, artwork, rotationSource: rotationSource))
        return ExitStatus.done
      }
      switch display {
      case .fbdev(let framebuffer):
        try playFramebuffer(
          settings, artwork, on: framebuffer, clock: clock, lifecycle: lifecycle, program: spawned,
          keepsGraphics: handOff != nil)
      case .offscreen(let offscreen):
        try playOffscreen(settings, artwork, on: offscreen, clock: clock, lifecycle: lifecycle, program: spawned)
      case .window(let window):
        try playInWindow(settings, artwork, on: window, clock: clock, lifecycle: lifecycle, program: spawned)
      case .kmsdrm(let screen, let card):
        try playOnKMS(
          settings, artwork, on: screen, card: card, clock: clock, lifecycle: lifecycle, program: spawned,
          keepsGraphics: handOff != nil)
      case nil:
        break
      }
    } catch let failure as Failure {
      Log.error(failure.message)
      outcome = "Splash failed: \(failure.message)"
      status = failure.status
    } catch {
      Log.error("unexpected failure: \(error)")
      outcome = "Splash failed: \(error)"
      status = ExitStatus.runtimeFailure
    }
    lifecycle.finish(status: outcome)
    clock.control = nil
    if let spawned {
      return spawned.supervise(signals: stopSignals, pending: clock.signalsForProgram, clock: monotonic)
    }
    return handOff?.run() ?? status
  }

  /// Settings from the config file, then the command line, validated.
  static func resolveSettings(_ commandLine: ParsedCommandLine) throws -> Settings {
    var settings = Settings()
    do {
      if let path = commandLine.configPath {
        try ConfigFile.apply(path: path, to: &settings)
      } else if Files.exists(ConfigFile.defaultPath) {
        try ConfigFile.apply(path: ConfigFile.defaultPath, to: &settings)
      }
      for (key, value) in commandLine.settings {
        try settings.apply(key: key, value: value, from: .commandLine)
      }
      try settings.validate()
    } catch {
      throw Failure.badInput(error.message)
    }
    if settings.image == nil && settings.left == nil {
      guard let demo = DemoImage.locate() else {
        throw Failure.badInput(
          "no --image given and the bundled demo picture \(DemoImage.fileName) was not found; looked in: "
            + DemoImage.candidates().joined(separator: ", "))
      }
      settings.image = demo
    }
    return settings
  }

  /// The settings as a config file would give them, with what was derived.
  static func describe(_ settings: Settings, _ artwork: ArtworkFiles, rotationSource: String?) -> String {
    var lines = ["[splash]"]
    func add(_ key: String, _ value: String?) {
      if let value { lines.append("\(key) = \(value)") }
    }
    add("image", settings.image)
    add("left", settings.left)
    add("right", settings.right)
    for (key, path) in settings.shapedArtwork.sorted(by: { $0.key < $1.key }) { add(key, path) }
    add("background", settings.background.text)
    add("transition", settings.transition.rawValue)
    add("duration", formatNumber(settings.effectiveDuration))
    add("hold", formatNumber(settings.hold))
    add("easing", settings.easing.name)
    add("rotate", settings.rotateAuto ? "auto" : String(settings.rotate.rawValue))
    add("fit", settings.fit.rawValue)
    add("display", settings.display.rawValue)
    add("device", settings.device)
    add("mode", settings.mode?.description)
    add("size", settings.effectiveSize.description)
    add("record", settings.record)
    add("fps", formatNumber(settings.fps))
    lines += ["", "[handoff]"]
    add("exec", settings.program?.joined(separator: " "))
    add("until-file", settings.untilFile)
    add("timeout", formatNumber(settings.timeout))
    if settings.rotateAuto {
      lines += ["", "[orientation]"]
      add("sources", settings.orientationSources.map(\.rawValue).joined(separator: " "))
      add("evdev", settings.evdev)
      add("switch", settings.switchDevice)
      add("switch-map", settings.switchMap?.description)
      add("settle", formatNumber(settings.settle))
      add("follow", settings.follow ? "yes" : "no")
      add("iio", settings.iio)
      add("panel", settings.panel)
      add("cmdline", settings.cmdline)
      add(
        "mount-matrix",
        settings.mountMatrix.map {
          $0.rows.map { $0.map(formatNumber).joined(separator: ", ") }.joined(separator: "; ")
        })
    }
    if let rotationSource { lines.append("; rotation \(settings.rotate.rawValue) from \(rotationSource)") }
    let canvas = settings.rotate.logicalSize(ofPhysical: settings.effectiveSize)
    lines.append("; logical canvas \(canvas.description)")
    for (asset, image) in artwork.images.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let opacity = image.info.opaque ? "opaque" : "with transparency"
      lines.append("; \(asset.rawValue) picture \(image.info.size.description), \(opacity)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// The decoded pictures of a run.
struct ArtworkFiles {
  var images: [AssetID: DecodedImage] = [:]

  init(settings: Settings) throws {
    do {
      let chosen = settings.artworkForCanvas
      for (asset, (path, key)) in zip(
        chosen.isLeaves ? [.left, .right] : [AssetID.splash], zip(chosen.paths, chosen.keys))
      {
        images[asset] = try DecodedImage(path: path, what: settings.origin(of: key))
      }
      if case .image(let path) = settings.background {
        images[.background] = try DecodedImage(path: path, what: settings.origin(of: "background"))
      }
    } catch {
      throw Failure.badInput(error.message)
    }
  }

  var artwork: Artwork {
    if let splash = images[.splash] { return .single(splash.info) }
    return .leaves(left: images[.left]!.info, right: images[.right]!.info)
  }

  func backdrop(_ settings: Settings) -> Backdrop {
    switch settings.background {
    case .color(let color): return .color(color)
    case .image: return .image(images[.background]!.info)
    }
  }
}
