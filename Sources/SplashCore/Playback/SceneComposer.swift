// SPDX-License-Identifier: Apache-2.0
/// The effect that reveals the background.
public enum TransitionKind: String, CaseIterable, Equatable, Sendable {
  /// The picture splits at the canvas's vertical centre line; the leaves slide out.
  case doors
  /// The picture's opacity goes from 1 to 0 over the background.
  case crossfade

  /// The default duration in seconds.
  public var defaultDuration: Double {
    switch self {
    case .doors: return 1.2
    case .crossfade: return 0.5
    }
  }
}

/// The splash's pictures: one picture, or a left and a right leaf.
public enum Artwork: Equatable, Sendable {
  case single(ImageInfo)
  case leaves(left: ImageInfo, right: ImageInfo)
}

/// What lies behind the splash.
public enum Backdrop: Equatable, Sendable {
  case color(Color)
  case image(ImageInfo)
}

/// Where every asset sits on the logical canvas. Computed once; the SDL side
/// prepares each asset to exactly its placement's destination size.
public struct SplashLayout: Equatable, Sendable {
  public let canvas: PixelSize
  /// The column where the doors part: left leaves end here, right leaves begin.
  public let split: Int
  public private(set) var placements: [AssetID: Placement]
  public let opaque: Set<AssetID>
  public private(set) var backdrop: Backdrop

  /// Lays out `artwork` with `fit` on a logical canvas of `canvas`; a
  /// background picture always covers the canvas.
  public init(canvas: PixelSize, artwork: Artwork, backdrop: Backdrop, fit: Fit) {
    self.canvas = canvas
    self.backdrop = backdrop
    split = canvas.width / 2
    let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    var placements: [AssetID: Placement] = [:]
    var opaque: Set<AssetID> = []
    switch artwork {
    case .single(let info):
      placements[.splash] = fit.placement(of: info.size, in: whole)
      if info.opaque { opaque.insert(.splash) }
    case .leaves(let left, let right):
      let leftBox = PixelRect(x: 0, y: 0, width: split, height: canvas.height)
      let rightBox = PixelRect(x: split, y: 0, width: canvas.width - split, height: canvas.height)
      placements[.left] = fit.placement(of: left.size, in: leftBox)
      placements[.right] = fit.placement(of: right.size, in: rightBox)
      if left.opaque { opaque.insert(.left) }
      if right.opaque { opaque.insert(.right) }
    }
    if case .image(let info) = backdrop {
      placements[.background] = Fit.cover.placement(of: info.size, in: whole)
    }
    self.placements = placements
    self.opaque = opaque
  }

  /// The same layout over `backdrop` instead (host mode: the program's
  /// frame, a picture of the canvas's size).
  public func over(_ backdrop: Backdrop) -> SplashLayout {
    var layout = self
    layout.backdrop = backdrop
    layout.placements[.background] = nil
    if case .image(let info) = backdrop {
      let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
      layout.placements[.background] = Fit.cover.placement(of: info.size, in: whole)
    }
    return layout
  }

  /// The prepared size of each asset (its destination on the canvas).
  public func preparedSize(of asset: AssetID) -> PixelSize? {
    placements[asset]?.destination.size
  }
}

/// Turns transition progress into the scene to draw.
public struct SceneComposer: Sendable {
  public let layout: SplashLayout
  public let transition: TransitionKind
  /// Snap every position to whole pixels and draw the background only where
  /// it shows (for renderers without filtering: software, fbdev). Otherwise
  /// leaves keep sub-pixel positions over a full background.
  public let exactPixels: Bool

  public init(layout: SplashLayout, transition: TransitionKind, exactPixels: Bool) {
    self.layout = layout
    self.transition = transition
    self.exactPixels = exactPixels
  }

  /// The pieces of the splash at rest: (asset, part of it, where on the canvas).
  private var leaves: [(AssetID, PixelRect, PixelRect)] {
    if let whole = layout.placements[.splash] {
      let d = whole.destination
      let cut = min(max(layout.split - d.x, 0), d.width)
      let left = PixelRect(x: 0, y: 0, width: cut, height: d.height)
      let right = PixelRect(x: cut, y: 0, width: d.width - cut, height: d.height)
      return [
        (.splash, left, PixelRect(x: d.x, y: d.y, width: cut, height: d.height)),
        (.splash, right, PixelRect(x: d.x + cut, y: d.y, width: d.width - cut, height: d.height)),
      ].filter { !$0.1.isEmpty }
    }
    return [AssetID.left, .right].compactMap { id in
      guard let p = layout.placements[id], !p.destination.isEmpty else { return nil }
      return (id, PixelRect(x: 0, y: 0, width: p.destination.width, height: p.destination.height), p.destination)
    }
  }

  /// The scene at eased `progress` (0: splash at rest, 1: background
  /// alone), in this composer's transition or `kind`.
  public func scene(progress: Double, as kind: TransitionKind? = nil) -> Scene {
    switch kind ?? transition {
    case .doors: return doorsScene(progress)
    case .crossfade: return crossfadeScene(progress)
    }
  }

  private func doorsScene(_ progress: Double) -> Scene {
    let width = layout.canvas.width
    var moved: [Layer] = []
    for (asset, source, rest) in leaves {
      let opensLeft = rest.x < layout.split
      let distance = opensLeft ? Double(layout.split) : Double(width - layout.split)
      var x = Double(rest.x) + (opensLeft ? -1 : 1) * progress * distance
      if exactPixels { x = Double(snap(x)) }
      let destination = Rect(x: x, y: Double(rest.y), width: Double(rest.width), height: Double(rest.height))
      if destination.maxX <= 0 || destination.x >= Double(width) { continue }
      moved.append(Layer(content: .image(asset, source: source), destination: destination))
    }
    return Scene(layers: backdropLayers(under: moved) + moved)
  }

  /// The splash at rest as one piece per picture: a single picture whole
  /// (it does not part, and a painter blends it over whole rows in one pass:
  /// as two halves, each over half of every row, a 2160p frame took three
  /// times as long), separate leaves each.
  private var pictures: [(AssetID, PixelRect, PixelRect)] {
    guard let whole = layout.placements[.splash] else { return leaves }
    let d = whole.destination
    return d.isEmpty ? [] : [(.splash, PixelRect(x: 0, y: 0, width: d.width, height: d.height), d)]
  }

  private func crossfadeScene(_ progress: Double) -> Scene {
    let alpha = 1 - progress
    guard alpha > 0 else { return Scene(layers: backdropLayers(under: [])) }
    let faded = pictures.map { asset, source, rest in
      Layer(content: .image(asset, source: source), destination: rest.rect, alpha: alpha)
    }
    return Scene(layers: backdropLayers(under: faded) + faded)
  }

  /// The background where it can show through `layers`: in exact mode only
  /// the columns that opaque, full-height layers leave open; otherwise all of it.
  private func backdropLayers(under layers: [Layer]) -> [Layer] {
    let width = Double(layout.canvas.width)
    let height = Double(layout.canvas.height)
    var open: [(Double, Double)] = [(0, width)]
    let hidesColumns = layers.allSatisfy { layer in
      guard case .image(let asset, _) = layer.content else { return false }
      return layer.alpha >= 1 && layout.opaque.contains(asset)
        && layer.destination.y <= 0 && layer.destination.maxY >= height
    }
    if exactPixels && hidesColumns {
      for layer in layers {
        let (a, b) = (layer.destination.x, layer.destination.maxX)
        open = open.flatMap { start, end -> [(Double, Double)] in
          [(start, min(end, a)), (max(start, b), end)].filter { $0.0 < $0.1 }
        }
      }
    }
    return open.map { start, end in
      let destination = Rect(x: start, y: 0, width: end - start, height: height)
      switch layout.backdrop {
      case .color(let color):
        return Layer(content: .color(color), destination: destination)
      case .image:
        let source = PixelRect(x: Int(start), y: 0, width: Int(end - start), height: Int(height))
        return Layer(content: .image(.background, source: source), destination: destination)
      }
    }
  }
}
