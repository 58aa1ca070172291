// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender

/// The decoded pictures of a splash, for one logical canvas.
struct Pictures {
  var images: [AssetID: DecodedImage] = [:]
  /// The keys of the splash pictures chosen ("image-portrait").
  let keys: [String]
  /// What they take decoded, of what they may.
  private(set) var budget: PixelBudget

  /// Decodes the pictures `settings` give for `canvas`'s shape, and the
  /// background picture if there is one.
  init(_ settings: Settings, canvas: PixelSize) throws(Failure) {
    let chosen = settings.splash.artwork(for: canvas)
    keys = chosen.keys
    budget = PixelBudget(limit: settings.splash.maxMegapixels * 1_000_000)
    do {
      for (asset, (path, key)) in zip(
        chosen.isLeaves ? [.left, .right] : [AssetID.splash], zip(chosen.paths, chosen.keys))
      {
        images[asset] = try DecodedImage(path: path, what: settings.origin(of: key), budget: &budget)
      }
      if case .image(let path) = settings.splash.background {
        images[.background] = try DecodedImage(
          path: path, what: settings.origin(of: "background"), budget: &budget)
      }
    } catch {
      throw Failure.badInput(error.description)
    }
  }

  /// The splash picture, or the two leaves.
  var artwork: Artwork {
    if let splash = images[.splash] { return .single(splash.info) }
    return .leaves(left: images[.left]!.info, right: images[.right]!.info)
  }

  /// What lies behind the splash.
  func backdrop(_ settings: Settings) -> Backdrop {
    switch settings.splash.background {
    case .color(let color): return .color(color)
    case .image: return .image(images[.background]!.info)
    }
  }

  /// The scene of this splash on a display of `size` turned by `rotation`,
  /// its pictures prepared once for `painter` (and let go of here).
  func scene(_ settings: Settings, size: PixelSize, rotation: Rotation, on painter: LayerPainter) throws(Failure)
    -> SceneRenderer
  {
    let layout = SplashLayout(
      canvas: rotation.logicalSize(ofPhysical: size), artwork: artwork, backdrop: backdrop(settings),
      fit: settings.splash.fit)
    do {
      return try SceneRenderer(
        painter: painter, layout: layout, transition: settings.splash.transition, rotation: rotation, images: images)
    } catch {
      throw Failure.runtime(error.description)
    }
  }
}
