// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// Makes the scene of each screen of an output: its pictures chosen for
/// the screen's canvas and taken from the prepared-picture cache or decoded
/// and prepared (and stored there), its status layers with the message's
/// font and the animation's frames, turned its own way.
final class SceneMaker {
  private let settings: Settings
  private let log: Log
  /// Whether the splash is recorded: the cache's doings are not logged then.
  private let recording: Bool
  /// The animation's frames as decoded, prepared again for every scene.
  private var animation: DecodedAnimation?
  /// The message's fonts, by text height, opened for the first message.
  private var fonts: [Int: Font] = [:]
  /// The cache files the scenes were made from or written to.
  private(set) var cacheFiles: Set<String> = []
  /// The cache files written by this start.
  private var written: Set<String> = []
  /// Whether the pictures depend on the canvas's shape (portrait and
  /// landscape artwork): a turn then says which were chosen.
  var choosesByShape: Bool { !settings.splash.shapedArtwork.isEmpty }

  init(_ settings: Settings, log: Log) {
    self.settings = settings
    self.log = log
    recording = settings.splash.record != nil
  }

  /// Decodes the animation, when there is one, and checks the message's
  /// font: opened at once for a first message; a font chosen without one
  /// must be there (it is opened for the first message).
  func load(canvas: PixelSize) throws(Failure) {
    do {
      if let path = settings.animation.file {
        animation = try DecodedAnimation(
          path: path, what: settings.origin(of: \.animation.file), fps: settings.animation.fps)
      }
      if settings.message.text != nil {
        _ = try openFont(canvas: canvas)
      } else if settings.isGiven(\.message.font) {
        try Font.checkFile(settings.message.font, what: Self.fontOrigin(settings))
      }
    } catch {
      throw Failure.badInput(error.description)
    }
  }

  /// The scene of each of `output`'s screens: its pictures and status
  /// layers prepared for the screen's canvas, its turn (`rotation`, unless
  /// the screen has its own) and its painter, showing `message`; and the
  /// keys of the first screen's pictures.
  func scenes(for output: Output, rotation: Rotation, message: String?) throws(Failure) -> (
    scenes: [SceneRenderer], keys: [String]
  ) {
    var scenes: [SceneRenderer] = []
    var keys: [String] = []
    let cache = settings.splash.cache.isEmpty ? nil : PreparedPictureCache(folders: settings.splash.cache)
    for screen in output.screens {
      let turn = Self.rotation(of: screen, settings, global: rotation)
      var screenSettings = settings
      if let fit = settings.screen(named: screen.name).fit { screenSettings.splash.fit = fit }
      let canvas = turn.logicalSize(ofPhysical: screen.size)
      let pictures = try Pictures(screenSettings, canvas: canvas)
      let (scene, cacheUse) = try pictures.scene(
        screenSettings, size: screen.size, rotation: turn, on: screen.painter, cache: cache,
        problem: { [log, name = screen.name] in log.info("\(name): \($0)") })
      if let cacheUse {
        cacheFiles.insert(cacheUse.path)
        if case .written(let path) = cacheUse { written.insert(path) }
        // A recording says only what goes wrong, as it does of its output.
        if !recording { log.info("\(screen.name): \(cacheUse.description)") }
      }
      do {
        // The scene is the stage's: it must not keep the maker alive.
        scene.status = try StatusLayers(
          screenSettings, renderer: scene, message: message,
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

  /// The cache files this start wrote to a later folder (/run/splashd,
  /// while /var/cache/splashd could not be written), moved to an earlier one
  /// that can be written now, so that the next boot is warm too.
  func keepWrittenCacheFiles() {
    guard !settings.splash.cache.isEmpty else { return }
    let cache = PreparedPictureCache(folders: settings.splash.cache)
    for path in written.sorted() {
      if let kept = cache.keepInEarlierFolder(path) { log.info("cache: \(path) kept as \(kept) for the next boot") }
    }
    written = []
  }

  /// The turn of `screen`: its `[screen NAME]` section's; else, when the
  /// splash's rotate was set explicitly to an angle, that; else the screen's
  /// panel orientation; else `global` (the splash's rotation, resolved).
  static func rotation(of screen: OutputScreen, _ settings: Settings, global: Rotation) -> Rotation {
    if let own = settings.screen(named: screen.name).rotate { return own }
    if case .fixed = settings.splash.rotate, settings.isGiven(\.splash.rotate) { return global }
    return screen.panelRotation ?? global
  }

  /// The message's font at the text height of `canvas`, opened once.
  private func openFont(canvas: PixelSize) throws(RenderError) -> Font {
    let height = StatusLayout(settings, canvas: canvas).textHeight
    if let font = fonts[height] { return font }
    let font = try Self.messageFont(settings, canvas: canvas)
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
    "\(settings.origin(of: \.message.font)) \(printable(settings.message.font))"
  }
}
