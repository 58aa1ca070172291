// SPDX-License-Identifier: Apache-2.0
/// A size in whole pixels.
public struct PixelSize: Equatable, Hashable, Sendable {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The largest accepted side, for the display and for pictures.
  public static let maxSide = 16384

  /// The size with width and height exchanged.
  public var transposed: PixelSize { PixelSize(width: height, height: width) }

  /// `W×H`, as on the command line.
  public var description: String { "\(width)x\(height)" }
}

/// A rectangle in whole pixels.
public struct PixelRect: Equatable, Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var size: PixelSize { PixelSize(width: width, height: height) }
  public var isEmpty: Bool { width <= 0 || height <= 0 }
  public var rect: Rect {
    Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
  }

  /// The smallest rectangle holding both; an empty one adds nothing.
  public func union(_ other: PixelRect) -> PixelRect {
    guard !other.isEmpty else { return self }
    guard !isEmpty else { return other }
    let left = min(x, other.x)
    let top = min(y, other.y)
    return PixelRect(
      x: left, y: top, width: max(x + width, other.x + other.width) - left,
      height: max(y + height, other.y + other.height) - top)
  }

  /// Whether the two share a pixel.
  public func intersects(_ other: PixelRect) -> Bool {
    x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
  }

  /// Whether every pixel of `other` is in this one.
  public func contains(_ other: PixelRect) -> Bool {
    x <= other.x && other.x + other.width <= x + width && y <= other.y && other.y + other.height <= y + height
  }

  /// What of this rectangle `other` leaves: up to four rectangles (the
  /// bands above and below it, then those left and right of it), none empty.
  public func subtracting(_ other: PixelRect) -> [PixelRect] {
    guard intersects(other) else { return [self] }
    let top = max(y, other.y)
    let bottom = min(y + height, other.y + other.height)
    let left = max(x, other.x)
    let right = min(x + width, other.x + other.width)
    return [
      PixelRect(x: x, y: y, width: width, height: top - y),
      PixelRect(x: x, y: bottom, width: width, height: y + height - bottom),
      PixelRect(x: x, y: top, width: left - x, height: bottom - top),
      PixelRect(x: right, y: top, width: x + width - right, height: bottom - top),
    ].filter { !$0.isEmpty }
  }
}

/// A rectangle with sub-pixel position and size.
public struct Rect: Equatable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
}

/// A map of the plane: (x, y) goes to (a x + b y + c, d x + e y + f).
public struct AffineMap: Equatable, Sendable {
  public var a, b, c, d, e, f: Double

  public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
    (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
  }

  /// Where (x, y) goes.
  public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + c, d * x + e * y + f) }
}

/// How far the content is turned, clockwise, on the physical display.
public enum Rotation: Int, CaseIterable, Equatable, Sendable {
  case none = 0
  case quarter = 90
  case half = 180
  case threeQuarters = 270

  /// Whether the logical canvas has width and height swapped.
  public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

  /// The logical canvas for a physical display of `size`.
  public func logicalSize(ofPhysical size: PixelSize) -> PixelSize {
    swapsAxes ? size.transposed : size
  }

  /// The physical size of something `size` large on the logical canvas.
  public func physicalSize(ofLogical size: PixelSize) -> PixelSize {
    swapsAxes ? size.transposed : size
  }

  /// Maps a rectangle on a logical area of `size` to the physical area the
  /// same content occupies once turned clockwise by this rotation.
  ///
  /// A logical point (x, y) goes to (H − y, x) for 90°, (W − x, H − y) for
  /// 180° and (y, W − x) for 270°, with W × H the logical size.
  public func physicalRect(_ r: Rect, inLogical size: PixelSize) -> Rect {
    let w = Double(size.width)
    let h = Double(size.height)
    switch self {
    case .none: return r
    case .quarter: return Rect(x: h - r.maxY, y: r.x, width: r.height, height: r.width)
    case .half: return Rect(x: w - r.maxX, y: h - r.maxY, width: r.width, height: r.height)
    case .threeQuarters: return Rect(x: r.y, y: w - r.maxX, width: r.height, height: r.width)
    }
  }

  /// `physicalRect(_:inLogical:)` for whole-pixel rectangles.
  public func physicalRect(_ r: PixelRect, inLogical size: PixelSize) -> PixelRect {
    let w = size.width
    let h = size.height
    switch self {
    case .none: return r
    case .quarter:
      return PixelRect(x: h - r.y - r.height, y: r.x, width: r.height, height: r.width)
    case .half:
      return PixelRect(x: w - r.x - r.width, y: h - r.y - r.height, width: r.width, height: r.height)
    case .threeQuarters:
      return PixelRect(x: r.y, y: w - r.x - r.width, width: r.height, height: r.width)
    }
  }

  /// The turn that undoes this one.
  public var inverse: Rotation { Rotation(rawValue: (360 - rawValue) % 360) ?? .none }

  /// The map that puts the unit square on `destination`, a rectangle of
  /// the physical display, showing a picture turned by this rotation: the
  /// picture's point (u, v), in fractions of its width and height, goes
  /// where the turn puts it (its top left corner (0, 0) to the top right
  /// for 90°, the bottom right for 180°, the bottom left for 270°).
  public func unitSquareMap(onto destination: Rect) -> AffineMap {
    let (x, y, w, h) = (destination.x, destination.y, destination.width, destination.height)
    switch self {
    case .none: return AffineMap(a: w, b: 0, c: x, d: 0, e: h, f: y)
    case .quarter: return AffineMap(a: 0, b: -w, c: x + w, d: h, e: 0, f: y)
    case .half: return AffineMap(a: -w, b: 0, c: x + w, d: 0, e: -h, f: y + h)
    case .threeQuarters: return AffineMap(a: 0, b: w, c: x, d: -h, e: 0, f: y + h)
    }
  }

  /// Where a point of the physical display shows on a logical canvas of
  /// `size`, the point given as fractions (u, v) of the display's width and
  /// height: what a touch screen or tablet on the display reports, which
  /// turns with the panel, not with the content. The inverse of
  /// `physicalRect(_:inLogical:)`'s turn.
  public func logicalPointMap(inLogical size: PixelSize) -> AffineMap {
    let w = Double(size.width)
    let h = Double(size.height)
    switch self {
    case .none: return AffineMap(a: w, b: 0, c: 0, d: 0, e: h, f: 0)
    case .quarter: return AffineMap(a: 0, b: w, c: 0, d: -h, e: 0, f: h)
    case .half: return AffineMap(a: -w, b: 0, c: w, d: 0, e: -h, f: h)
    case .threeQuarters: return AffineMap(a: 0, b: -w, c: w, d: h, e: 0, f: 0)
    }
  }

  /// For a physical pixel (px, py) of an area whose logical size is `size`,
  /// the logical pixel it shows. Used to turn images once, at load.
  @inline(__always)
  public func logicalPixel(ofPhysical px: Int, _ py: Int, inLogical size: PixelSize) -> (Int, Int) {
    switch self {
    case .none: return (px, py)
    case .quarter: return (py, size.height - 1 - px)
    case .half: return (size.width - 1 - px, size.height - 1 - py)
    case .threeQuarters: return (size.width - 1 - py, px)
    }
  }
}

/// How a picture is fitted into its box.
public enum Fit: String, CaseIterable, Equatable, Sendable {
  /// Scaled to cover the whole box, keeping its aspect; the overflow is cut.
  case cover
  /// Scaled to fit inside the box, keeping its aspect; the rest shows background.
  case contain
  /// Scaled to the box exactly, aspect ignored.
  case stretch
  /// Not scaled; centred, cut where larger than the box.
  case center

  /// The picture's rectangle, in box coordinates, before any cutting.
  public func fittedRect(of image: PixelSize, in box: PixelRect) -> Rect {
    let iw = Double(image.width)
    let ih = Double(image.height)
    let bw = Double(box.width)
    let bh = Double(box.height)
    let (w, h): (Double, Double)
    switch self {
    case .cover:
      let s = max(bw / iw, bh / ih)
      (w, h) = (iw * s, ih * s)
    case .contain:
      let s = min(bw / iw, bh / ih)
      (w, h) = (iw * s, ih * s)
    case .stretch:
      (w, h) = (bw, bh)
    case .center:
      (w, h) = (iw, ih)
    }
    return Rect(x: Double(box.x) + (bw - w) / 2, y: Double(box.y) + (bh - h) / 2, width: w, height: h)
  }

  /// Where a picture lands in `box`: the whole pixels it covers there and the
  /// part of the picture that shows in them.
  public func placement(of image: PixelSize, in box: PixelRect) -> Placement {
    let fitted = fittedRect(of: image, in: box)
    let x0 = max(snap(fitted.x), box.x)
    let y0 = max(snap(fitted.y), box.y)
    let x1 = min(snap(fitted.maxX), box.x + box.width)
    let y1 = min(snap(fitted.maxY), box.y + box.height)
    let dest = PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    let sx = Double(image.width) / fitted.width
    let sy = Double(image.height) / fitted.height
    let source = Rect(
      x: (Double(x0) - fitted.x) * sx, y: (Double(y0) - fitted.y) * sy,
      width: Double(dest.width) * sx, height: Double(dest.height) * sy)
    return Placement(source: source, destination: dest)
  }
}

/// The part of a picture (`source`, in picture pixels) that is drawn into
/// whole pixels of the canvas (`destination`).
public struct Placement: Equatable, Sendable {
  public var source: Rect
  public var destination: PixelRect

  public init(source: Rect, destination: PixelRect) {
    self.source = source
    self.destination = destination
  }
}

/// Rounds to the nearest whole pixel, halves upwards, the same way at every
/// rotation so that turned renders agree pixel for pixel.
@inline(__always)
public func snap(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }
