// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// The pictures of a splash for one logical canvas: chosen and checked
/// (their headers, sizes and the budget) at once, decoded only when no
/// cache holds them prepared for the display.
struct Pictures {
  /// The files chosen, checked, by asset.
  let files: [AssetID: PictureFile]
  /// The keys of the splash pictures chosen ("image-portrait").
  let keys: [String]
  /// What they take decoded, of what they may.
  let budget: PixelBudget

  /// Chooses and checks the pictures `settings` give for `canvas`'s shape,
  /// and the background picture if there is one.
  init(_ settings: Settings, canvas: PixelSize) throws(Failure) {
    let chosen = settings.splash.artwork(for: canvas)
    keys = chosen.keys
    var budget = PixelBudget(limit: settings.splash.maxMegapixels * 1_000_000)
    var files: [AssetID: PictureFile] = [:]
    do {
      for (asset, (path, key)) in zip(
        chosen.isLeaves ? [.left, .right] : [AssetID.splash], zip(chosen.paths, chosen.keys))
      {
        files[asset] = try PictureFile(path: path, what: settings.origin(of: key), budget: &budget)
      }
      if case .image(let path) = settings.splash.background {
        files[.background] = try PictureFile(
          path: path, what: settings.origin(of: \.splash.background), budget: &budget)
      }
    } catch {
      throw Failure.badInput(error.description)
    }
    self.files = files
    self.budget = budget
  }

  /// Decodes every picture.
  func decode() throws(Failure) -> [AssetID: DecodedImage] {
    var images: [AssetID: DecodedImage] = [:]
    do {
      for (asset, file) in files { images[asset] = try file.decode() }
    } catch {
      throw Failure.badInput(error.description)
    }
    return images
  }

  /// The layout of the splash on `canvas` for pictures that are `infos`.
  static func layout(_ settings: Settings, canvas: PixelSize, infos: [AssetID: ImageInfo]) -> SplashLayout? {
    let artwork: Artwork
    if let splash = infos[.splash] {
      artwork = .single(splash)
    } else if let left = infos[.left], let right = infos[.right] {
      artwork = .leaves(left: left, right: right)
    } else {
      return nil
    }
    let backdrop: Backdrop
    switch settings.splash.background {
    case .color(let color): backdrop = .color(color)
    case .image:
      guard let background = infos[.background] else { return nil }
      backdrop = .image(background)
    }
    return SplashLayout(canvas: canvas, artwork: artwork, backdrop: backdrop, fit: settings.splash.fit)
  }

  /// The part of a cache key that does not depend on the display: this
  /// build, each picture's identity, and the settings the layout takes (and
  /// the same without the identities, the key's slot); nil when a picture's
  /// identity cannot be read (it is decoded then, and says why).
  func cacheKey(_ settings: Settings) -> (pictures: String, slot: String)? {
    var lines: [(String, identity: String)] = [("splashd \(splashdVersion) prepared pictures", "")]
    // This binary, through the kernel's link to it (no path to resolve).
    if let identity = try? Files.identity(of: "/proc/self/exe", edge: 0) { lines.append(("build", identity)) }
    for (asset, file) in files.sorted(by: { $0.key.name < $1.key.name }) {
      guard let identity = try? Files.identity(of: file.path) else { return nil }
      lines.append(("picture \(asset.name) \(file.path)", identity))
    }
    switch settings.splash.background {
    case .color(let color): lines.append(("background \(color.hex)", ""))
    case .image: lines.append(("background picture", ""))
    }
    lines.append(("fit \(settings.splash.fit.rawValue)", ""))
    return (
      lines.map { $0.identity.isEmpty ? $0.0 + "\n" : "\($0.0) \($0.identity)\n" }.joined(),
      lines.map { $0.0 + "\n" }.joined()
    )
  }

  /// The whole cache key of these pictures on a screen.
  func cacheKey(_ settings: Settings, size: PixelSize, rotation: Rotation, painter: LayerPainter) -> PreparedCacheKey? {
    cacheKey(settings).map {
      PreparedCacheKey(
        pictures: $0.pictures, slot: $0.slot, display: Self.displayKey(size: size, rotation: rotation, painter: painter)
      )
    }
  }

  /// The scene of this splash on a screen of `size` turned by `rotation`,
  /// its pictures prepared once for `painter`: taken from `cache` when it
  /// holds them for this display, else decoded, prepared and stored there.
  /// Why a cache file was not used, or could not be written, is said
  /// through `problem`; what the cache did comes back with the scene.
  func scene(
    _ settings: Settings, size: PixelSize, rotation: Rotation, on painter: LayerPainter,
    cache: PreparedPictureCache?, problem: (String) -> Void
  ) throws(Failure) -> (SceneRenderer, cache: CacheUse?) {
    let canvas = rotation.logicalSize(ofPhysical: size)
    let key = cache == nil ? nil : cacheKey(settings, size: size, rotation: rotation, painter: painter)
    do {
      if let cache, let key {
        let (entry, problems) = cache.load(key)
        for reason in problems { problem("cache: \(reason); preparing the pictures again") }
        if let entry, let scene = try Self.scene(from: entry, settings, canvas: canvas, rotation: rotation, on: painter)
        {
          return (scene, .read(entry.path))
        }
      }
      let images = try decode()
      guard let layout = Self.layout(settings, canvas: canvas, infos: images.mapValues(\.info)) else {
        throw Failure.runtime("the pictures do not make a splash")
      }
      var kept: [(asset: AssetID, pixels: Pixels, opaque: Bool)] = []
      let scene = try SceneRenderer(
        painter: painter, layout: layout, transition: settings.splash.transition, rotation: rotation, images: images,
        kept: cache == nil ? nil : { kept.append(($0, $1, $2)) })
      guard let cache, let key else { return (scene, nil) }
      switch cache.store(key, sources: images.mapValues(\.info), pictures: kept) {
      case .success(let path):
        return (scene, .written(path))
      case .failure(let reason):
        problem("cache: \(reason)")
        return (scene, nil)
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure.runtime("\(error)")
    }
  }

  /// What the cache did for a scene: the file its pictures came from, or
  /// the one they were written to.
  enum CacheUse: Equatable {
    case read(String)
    case written(String)

    var path: String {
      switch self {
      case .read(let path), .written(let path): return path
      }
    }

    /// "cache: prepared pictures from PATH".
    var description: String {
      switch self {
      case .read(let path): return "cache: prepared pictures from \(path)"
      case .written(let path): return "cache: prepared pictures written to \(path)"
      }
    }
  }

  /// The display part of a cache key.
  static func displayKey(size: PixelSize, rotation: Rotation, painter: LayerPainter) -> String {
    "display \(size.description) \(painter.adoptedForm) rotate \(rotation.rawValue)\n"
  }

  /// The scene from a cache entry; nil when the entry does not fit the
  /// layout its own sources give (then the pictures are prepared again).
  private static func scene(
    from entry: PreparedPictureCache.Entry, _ settings: Settings, canvas: PixelSize, rotation: Rotation,
    on painter: LayerPainter
  ) throws(RenderError) -> SceneRenderer? {
    guard let layout = layout(settings, canvas: canvas, infos: entry.sources) else { return nil }
    let assets = SceneRenderer.preparedAssets(of: layout)
    guard Set(assets) == Set(entry.pictures.keys) else { return nil }
    for asset in assets {
      let picture = entry.pictures[asset]!
      let size = rotation.physicalSize(ofLogical: layout.preparedSize(of: asset)!)
      guard picture.opaque == SceneRenderer.isOpaque(asset, in: layout), picture.pixels.width == size.width,
        picture.pixels.height == size.height
      else { return nil }
    }
    return try SceneRenderer(
      painter: painter, layout: layout, transition: settings.splash.transition, rotation: rotation,
      prepared: entry.pictures.mapValues(\.pixels))
  }
}
