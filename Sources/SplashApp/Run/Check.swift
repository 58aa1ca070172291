// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashConfigFile
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// `--check`: the resolved settings as a config file, then what was derived
/// from them, as comments: the config file read, the program, the angle,
/// the canvas, each picture, and which back ends `auto` would try (judged
/// without taking the display).
enum Check {
  static func describe(_ plan: Plan, _ pictures: Pictures, dependencies: Dependencies) throws(Failure) -> String {
    let settings = plan.settings
    var lines = [SettingsTable.configText(settings)]
    if let file = plan.configFile {
      lines.append("; config file: \(file)")
    } else {
      lines.append("; config file: none (\(dependencies.defaultConfig) does not exist)")
    }
    if let program = plan.program {
      guard let handOff = HandOff(program: program, environment: dependencies.environment),
        let path = handOff.path
      else {
        throw Failure.badInput(
          "\(plan.programOrigin): cannot run \(printable(program[0])): \(Executables.whyNotFound(program[0]))")
      }
      let mode: String
      switch plan.successor {
      case .hosted:
        let window = plan.rotation.logicalSize(ofPhysical: settings.splash.effectiveSize)
        mode =
          "spawned once the splash shows, as the client of splashd's Wayland compositor (host = wayland: "
          + "WAYLAND_SOCKET, its window full screen, \(window.description) at this size; other clients and grim "
          + "at WAYLAND_DISPLAY=wayland-N in its XDG_RUNTIME_DIR"
          + (settings.handoff.xwayland ? "; X11 programs at DISPLAY, through Xwayland" : "")
          + "), revealed at its first "
          + (settings.handoff.ready == .notify ? "frame and READY=1" : "frame")
      case .spawned: mode = "spawned first (ready = notify)"
      case .execInPlace, .nothing: mode = "run after the splash"
      }
      lines.append("; program: \(path), \(mode) (\(plan.programOrigin))")
      let withheld = ProgramEnvironment.withheld(
        from: dependencies.environment, passing: settings.handoff.passEnvironment)
      if !withheld.isEmpty {
        lines.append(
          "; program's environment: not passed from splashd's: \(withheld.map(printable).joined(separator: ", "))")
      }
      if let name = settings.handoff.user {
        // Looked up as the hand-off will, the runtime directory left alone.
        do {
          let user = try ProgramUser.lookUp(name, group: settings.handoff.group)
          let groups = user.groups.map { getgrgid($0).map { String(cString: $0.pointee.gr_name) } ?? String($0) }
          lines.append(
            "; program's user: \(user.name) (uid \(user.uid), gid \(user.gid); groups "
              + "\(groups.joined(separator: ", "))), HOME=\(user.home), XDG_RUNTIME_DIR=/run/user/\(user.uid)")
        } catch {
          throw Failure(
            status: ExitStatus.cannotRun,
            message:
              "\(settings.origin(of: \.handoff.user)) \(printable(name)): \(error.reason): the program would not run")
        }
      }
    } else {
      lines.append("; program: none")
    }
    if let source = plan.rotationSource { lines.append("; rotation \(plan.rotation.rawValue) from \(source)") }
    let canvas = plan.rotation.logicalSize(ofPhysical: settings.splash.effectiveSize)
    lines.append("; logical canvas \(canvas.description)")
    for (asset, image) in try pictures.decode().sorted(by: { $0.key.name < $1.key.name }) {
      let opacity = image.info.opaque ? "opaque" : "with transparency"
      let size = image.info.size
      let cost = DecodedImage.decodingCost(size.width, size.height, image.format)
      lines.append(
        "; \(asset.name) picture \(size.description) \(image.format.rawValue), \(opacity), "
          + "\(megapixels(size.width * size.height)), \(mebibytes(cost * 4)) to decode")
    }
    lines.append(
      "; decoding the pictures takes \(mebibytes(pictures.budget.used * 4)) of the "
        + "\(mebibytes(pictures.budget.limit * 4)) they may take (--max-megapixels)")
    lines += cacheLines(settings, pictures)
    lines += try statusLines(settings, canvas: canvas)
    let request = plan.outputRequest(dependencies)
    let candidates = Outputs.candidates(settings, among: dependencies.backEnds, request: request)
    if settings.splash.display == "auto" && settings.splash.record == nil {
      lines.append("; display auto tries, in order:")
      for (backEnd, probe) in candidates {
        lines.append(";   \(backEnd.name): \(probe.tried ? "tried" : "skipped"): \(probe.reason)")
      }
    } else if let (backEnd, probe) = candidates.first {
      lines.append("; display \(backEnd.name): \(probe.reason)")
    }
    let control = settings.handoff.controlPath(runtimeDirectory: dependencies.environment["RUNTIME_DIRECTORY"])
    lines.append("; control socket: \(control ?? "none")")
    if settings.handoff.compat.contains(.psplash) {
      lines.append("; psplash FIFO: \(PsplashFIFO.path(environment: dependencies.environment))")
    }
    if settings.handoff.compat.contains(.plymouth) {
      lines.append("; Plymouth socket: @\(settings.handoff.plymouthSocket) (abstract)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Whether the cache is warm: the files it holds for these pictures, with
  /// the display each was prepared for.
  private static func cacheLines(_ settings: Settings, _ pictures: Pictures) -> [String] {
    guard !settings.splash.cache.isEmpty else { return ["; cache: none (pictures are decoded at every start)"] }
    let folders = settings.splash.cache.joined(separator: " ")
    guard let key = pictures.cacheKey(settings) else { return ["; cache: cold (a picture's identity cannot be read)"] }
    let entries = PreparedPictureCache(folders: settings.splash.cache).entries(
      forPictures: key.pictures, slot: key.slot)
    guard !entries.isEmpty else {
      return ["; cache: cold: no prepared pictures for these pictures in \(folders) (splashd --prepare fills it)"]
    }
    return ["; cache: warm for \(entries.count) display\(entries.count == 1 ? "" : "s"):"]
      + entries.map { ";   \($0.path): \($0.display.dropFirst("display ".count).dropLast())" }
  }

  /// The status layers: the bar, the message's font (opened, as at start)
  /// and the animation (decoded, as at start).
  private static func statusLines(_ settings: Settings, canvas: PixelSize) throws(Failure) -> [String] {
    let layout = StatusLayout(settings, canvas: canvas)
    var lines: [String] = []
    var refused: String?
    let bar = layout.bar
    let shown =
      settings.progress.show ? "shown from \(formatNumber(settings.progress.value))%" : "hidden until a value comes"
    lines.append(
      "; progress bar \(bar.width)x\(bar.height) at \(bar.x),\(bar.y), \(shown), from \(settings.progress.source.rawValue)"
    )
    do {
      // Opened as at the first message; at start only a first message opens it.
      if settings.message.text != nil || settings.isGiven(\.message.font) {
        let font = try SceneMaker.messageFont(settings, canvas: canvas)
        lines.append(
          "; message font \(settings.message.font): lines \(font.height) px, at most \(layout.textMaxWidth) px wide")
      } else {
        lines.append("; message font \(settings.message.font): opened for the first message")
      }
      if let path = settings.animation.file {
        let animation = try DecodedAnimation(
          path: path, what: settings.origin(of: \.animation.file), fps: settings.animation.fps)
        let rect = layout.animationRect(frameSize: animation.size)
        // Judged as the run judges it: prepared for this canvas.
        if let problem = animation.preparedSizeProblem(shownAt: rect.size) {
          refused = "\(settings.origin(of: \.animation.file)) \(printable(path)): \(problem)"
        }
        let bytes = animation.frames.count * animation.size.width * animation.size.height * 4
        lines.append(
          "; animation \(animation.frames.count) frames of \(animation.size.description) (\(mebibytes(bytes)) decoded), "
            + "\(formatNumber((animation.timeline.period * 1000).rounded() / 1000)) s a loop, "
            + "shown \(rect.width)x\(rect.height) at \(rect.x),\(rect.y)")
      }
    } catch {
      throw Failure.badInput(error.description)
    }
    if let refused { throw Failure.badInput(refused) }
    return lines
  }
}
