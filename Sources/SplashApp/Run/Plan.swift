// SPDX-License-Identifier: Apache-2.0
import SplashConfigFile
import SplashCore
import SplashDevices
import SplashRender
import SplashSettings
import SplashSystem

/// What one run of splashd will do, decided from the command line, the
/// config file and the rotation sources, before any display is touched.
struct Plan {
  let commandLine: ParsedCommandLine
  var settings: Settings
  /// The config file that was read; nil when none was.
  let configFile: String?
  /// The angle the splash starts at.
  let rotation: Rotation
  /// Where the angle came from, for `rotate = auto`.
  let rotationSource: String?
  /// The orientation device to follow while the splash holds.
  let followed: AngleSource?
  /// The program to hand off to (or spawn): the command line's, else `exec`'s.
  let program: [String]?
  /// How messages name where the program came from.
  let programOrigin: String
  /// What follows the splash: the program run in place, spawned first,
  /// hosted, or nothing.
  let successor: Successor

  /// Reads `commandLine`'s settings (the config file first, then the
  /// options), checks them, and resolves the angle.
  init(_ commandLine: ParsedCommandLine, dependencies: Dependencies) throws(Failure) {
    self.commandLine = commandLine
    var settings = Settings()
    var configFile: String?
    do {
      if let path = commandLine.configPath {
        try ConfigFile.apply(path: path, to: &settings)
        configFile = path
      } else if Files.exists(dependencies.defaultConfig) {
        try ConfigFile.apply(path: dependencies.defaultConfig, to: &settings)
        configFile = dependencies.defaultConfig
      }
      for (key, value) in commandLine.settings {
        try settings.apply(key: key, value: value, from: .commandLine)
      }
      try settings.validate()
    } catch {
      throw Failure.badInput(error.message)
    }
    try Outputs.validate(settings, among: dependencies.backEnds)
    Self.adjust(&settings, for: commandLine.bootStage)
    if settings.splash.image == nil && settings.splash.left == nil {
      guard let demo = DemoImage.locate() else {
        throw Failure.badInput(
          "no --image given and the bundled demo picture \(DemoImage.fileName) was not found; looked in: "
            + DemoImage.candidates().joined(separator: ", "))
      }
      settings.splash.image = demo
    }
    if !commandLine.program.isEmpty {
      program = commandLine.program
      programOrigin = "the program after --"
    } else {
      program = settings.handoff.program
      programOrigin = settings.origin(of: \.handoff.program)
    }
    if settings.handoff.startsProgramFirst && program == nil {
      let what =
        settings.handoff.host != .none
        ? "\(settings.origin(of: \.handoff.host)) \(settings.handoff.host.rawValue)"
        : "\(settings.origin(of: \.handoff.ready)) \(settings.handoff.ready.rawValue)"
      throw Failure.badInput("\(what) needs a program: -- PROGRAM, or exec = in [handoff]")
    }
    if settings.handoff.ready == .firstFrame && settings.handoff.host == .none {
      throw Failure.badInput(
        "\(settings.origin(of: \.handoff.ready)) first-frame needs host mode (host = wayland): only splashd's own "
          + "compositor sees the program's frames")
    }
    successor = Successor(settings.handoff, program: program)
    switch settings.splash.rotate {
    case .fixed(let angle):
      rotation = angle
      rotationSource = nil
      followed = nil
    case .auto:
      let resolved = dependencies.resolveRotation(settings.orientation, dependencies.clock)
      for miss in resolved.misses { dependencies.log.info("rotation: \(miss)") }
      dependencies.log.info("rotation \(resolved.rotation.rawValue) from \(resolved.source)")
      rotation = resolved.rotation
      rotationSource = resolved.source
      followed = settings.orientation.follow && !commandLine.check ? resolved.followed : nil
    }
    self.settings = settings
    self.configFile = configFile
  }

  /// What a boot stage changes: the initramfs's splash holds until it is
  /// adopted (or its timeout), runs no `exec` program (the root's config,
  /// copied in, names one the initramfs does not have) and caches nothing
  /// (/run is memory, kept for the whole boot); the shutdown splash shows
  /// its own picture and holds until the machine goes down.
  static func adjust(_ settings: inout Settings, for stage: BootStage?) {
    switch stage {
    case .initramfs:
      settings.handoff.untilReveal = true
      settings.handoff.ready = .exec
      settings.handoff.host = .none
      settings.handoff.program = nil
      settings.splash.cache = []
    case .shutdown:
      if let picture = settings.splash.imageShutdown {
        settings.splash.image = picture
        settings.splash.left = nil
        settings.splash.right = nil
        settings.splash.shapedArtwork = [:]
      }
      settings.handoff.untilReveal = true
      settings.handoff.timeout = 0
      settings.handoff.ready = .exec
      settings.handoff.host = .none
      settings.handoff.program = nil
    case .root, nil: break
    }
  }

  /// The request every back end is opened with.
  func outputRequest(_ dependencies: Dependencies) -> OutputRequest {
    var request = OutputRequest(
      size: settings.splash.effectiveSize,
      device: settings.splash.device.map { RequestedDevice(path: $0, origin: settings.origin(of: \.splash.device)) },
      mode: settings.splash.mode, fps: settings.splash.fps, environment: dependencies.environment,
      clock: dependencies.clock)
    request.screens = settings.screens
    return request
  }
}
