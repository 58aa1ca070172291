// SPDX-License-Identifier: Apache-2.0
/// The pictures a splash is made of, each prepared once for the display
/// (the message's when its text changes).
public enum AssetID: Hashable, Sendable {
  /// One picture split into two leaves by the doors.
  case splash
  /// The left leaf, when it comes from its own picture.
  case left
  /// The right leaf, when it comes from its own picture.
  case right
  /// The picture revealed behind the splash.
  case background
  /// The message line, rendered.
  case message
  /// Frame `n` (from 0) of the animation.
  case animationFrame(Int)
  /// Line `n` (from 0) of host mode's diagnostic screen, rendered.
  case reportLine(Int)

  /// A name that orders the assets ("splash", "animation-3").
  public var name: String {
    switch self {
    case .splash: return "splash"
    case .left: return "left"
    case .right: return "right"
    case .background: return "background"
    case .message: return "message"
    case .animationFrame(let n): return "animation-\(n)"
    case .reportLine(let n): return "report-\(n)"
    }
  }
}

/// What the decoder learned about a picture.
public struct ImageInfo: Equatable, Sendable {
  public var size: PixelSize
  /// Every pixel is fully opaque.
  public var opaque: Bool

  public init(size: PixelSize, opaque: Bool) {
    self.size = size
    self.opaque = opaque
  }
}

/// One thing drawn in a frame, on the logical canvas.
public struct Layer: Equatable, Sendable {
  public enum Content: Equatable, Sendable {
    /// A solid colour.
    case color(Color)
    /// Part of a prepared asset, in the asset's own (logical) pixels.
    case image(AssetID, source: PixelRect)
  }

  public var content: Content
  /// Where the content goes on the logical canvas; sub-pixel unless the
  /// scene was composed for exact pixels.
  public var destination: Rect
  /// Opacity, 0 (invisible) to 1 (opaque).
  public var alpha: Double

  public init(content: Content, destination: Rect, alpha: Double = 1) {
    self.content = content
    self.destination = destination
    self.alpha = alpha
  }
}

/// A frame's worth of layers, drawn in order. Together they cover the whole
/// logical canvas, so a frame never shows what the previous one left.
public struct Scene: Equatable, Sendable {
  public var layers: [Layer]

  public init(layers: [Layer]) { self.layers = layers }
}
