// SPDX-License-Identifier: Apache-2.0
/// How host mode shows the program on several screens (`screens`).
public enum ScreenSharing: Equatable, Sendable {
  /// The window is the first screen's canvas; each other screen shows it
  /// scaled to fit its own (the aspect kept, centred, the background
  /// around it).
  case mirror
  /// One window across all the screens side by side, in the order they are
  /// listed (the first at the left, their tops in line): each shows its
  /// part, unscaled.
  case extend
  /// The window is the last screen's canvas and shows there alone; the
  /// others show the background.
  case last
  /// The window is the canvas of the screen of this name (`ScreenName`)
  /// and shows there alone, the others the background; while no such
  /// screen is connected, the first screen's.
  case only(String)

  /// The settings' words for the arrangements that name no screen.
  public static let keywords = ["mirror", "extend", "last"]

  /// The sharing a setting's `text` says: a keyword, or a screen's name
  /// (`ScreenName.isConnectorName`); nil for neither.
  public init?(text: String) {
    switch text {
    case "mirror": self = .mirror
    case "extend": self = .extend
    case "last": self = .last
    default:
      guard ScreenName.isConnectorName(text) else { return nil }
      self = .only(text)
    }
  }

  /// How a setting spells it.
  public var text: String {
    switch self {
    case .mirror: "mirror"
    case .extend: "extend"
    case .last: "last"
    case .only(let name): name
    }
  }

  /// Whether it names a screen that none of `names` is.
  public func namesAScreenOtherThan(_ names: [String]) -> Bool {
    guard case .only(let name) = self else { return false }
    return !names.contains { ScreenName.is($0, called: name) }
  }

  /// Where the program's window lies on `screens` (the first screen's
  /// first; each named as `status` lists it, with its logical canvas); nil
  /// for none.
  public func arrangement(of screens: [(name: String, canvas: PixelSize)]) -> ScreenArrangement? {
    let canvases = screens.map(\.canvas)
    guard let first = canvases.first else { return nil }
    switch self {
    case .mirror:
      let window = PixelRect(x: 0, y: 0, width: first.width, height: first.height)
      let views = canvases.enumerated().map { index, canvas -> Placement in
        let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        guard index > 0, canvas != first else { return Placement(source: window.rect, destination: whole) }
        return Fit.contain.placement(of: first, in: whole)
      }
      return ScreenArrangement(window: first, views: views, inputScreen: 0)
    case .extend:
      let width = canvases.reduce(0) { $0 + $1.width }
      let height = canvases.map(\.height).max() ?? 0
      var left = 0
      let views = canvases.map { canvas -> Placement? in
        defer { left += canvas.width }
        return Placement(
          source: PixelRect(x: left, y: 0, width: canvas.width, height: canvas.height).rect,
          destination: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
      }
      return ScreenArrangement(window: PixelSize(width: width, height: height), views: views, inputScreen: 0)
    case .last:
      return Self.alone(on: canvases.count - 1, of: canvases)
    case .only(let name):
      return Self.alone(on: screens.firstIndex { ScreenName.is($0.name, called: name) } ?? 0, of: canvases)
    }
  }

  /// The window the canvas of screen `index` of `canvases`, shown there
  /// alone.
  private static func alone(on index: Int, of canvases: [PixelSize]) -> ScreenArrangement {
    let canvas = canvases[index]
    let views = canvases.indices.map { other -> Placement? in
      guard other == index else { return nil }
      let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
      return Placement(source: whole.rect, destination: whole)
    }
    return ScreenArrangement(window: canvas, views: views, inputScreen: index)
  }
}

/// Where the program's window lies on each of several screens.
public struct ScreenArrangement: Equatable, Sendable {
  /// The size the program's window is configured at.
  public var window: PixelSize
  /// For each screen, in order: the part of the window it shows (in the
  /// window's pixels) and where on its canvas (scaled where the sizes
  /// differ); nil where it shows the background alone.
  public var views: [Placement?]
  /// The screen whose touch panel and tablets point into the window: its
  /// canvas lies at the window's origin, at its size.
  public var inputScreen: Int

  public init(window: PixelSize, views: [Placement?], inputScreen: Int) {
    self.window = window
    self.views = views
    self.inputScreen = inputScreen
  }

  /// Where a point of screen `index`'s touch panel or tablet (fractions of
  /// the panel's width and height) lies in the window: turned with the
  /// screen's content (`rotation`) onto its logical canvas `canvas`, then
  /// taken to the part of the window the screen shows there; nil where
  /// the screen shows none of the window (or there is no such screen).
  public func inputMap(ofScreen index: Int, canvas: PixelSize, rotation: Rotation) -> AffineMap? {
    guard views.indices.contains(index), let view = views[index] else { return nil }
    let onCanvas = rotation.logicalPointMap(inLogical: canvas)
    let source = view.source
    let destination = view.destination
    guard destination.width > 0, destination.height > 0 else { return nil }
    // From the canvas to the window: what the view scaled, scaled back.
    let scaleX = source.width / Double(destination.width)
    let scaleY = source.height / Double(destination.height)
    return AffineMap(
      a: onCanvas.a * scaleX, b: onCanvas.b * scaleX, c: (onCanvas.c - Double(destination.x)) * scaleX + source.x,
      d: onCanvas.d * scaleY, e: onCanvas.e * scaleY, f: (onCanvas.f - Double(destination.y)) * scaleY + source.y)
  }
}
