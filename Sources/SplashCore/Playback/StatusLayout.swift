// SPDX-License-Identifier: Apache-2.0
/// What the status layers show now: the progress bar's value and the message.
public struct BootStatus: Equatable, Sendable {
  /// The bar's value in percent, −100…100 (a negative value fills the bar
  /// from the right by its size, as psplash does); nil while the bar is hidden.
  public var progress: Double?
  /// The message line; nil for none.
  public var message: String?
  /// The line of a question being asked (its prompt and what is typed),
  /// shown in the message's place while it is asked; nil for none. Not
  /// handed over: a question ends with the splash that asked it.
  public var prompt: String?
  /// Host mode's diagnostic screen, once the program has failed for good
  /// (`FailureReport.lines`): lines drawn over the splash, top left, on a
  /// dark panel; nil for none. Not handed over.
  public var report: [String]?

  /// The text the message's layer shows: the question's line, else the message.
  public var shownText: String? { prompt ?? message }

  /// The longest message, in bytes (a line of the control socket, psplash's
  /// `MSG`, the `message` setting).
  public static let maxMessageBytes = 1024

  public init(progress: Double? = nil, message: String? = nil) {
    self.progress = progress.map(BootStatus.clamped)
    self.message = message
  }

  /// `percent` clamped to −100…100.
  public static func clamped(_ percent: Double) -> Double { min(max(percent, -100), 100) }
}

/// Where the status layers sit on the logical canvas, and the layers they
/// add to a frame: the bar's track and fill, the message, the animation's
/// frame, all faded by one alpha.
public struct StatusLayout: Equatable, Sendable {
  public let canvas: PixelSize
  /// The whole bar.
  public let bar: PixelRect
  public let barColor: Color
  public let track: Color?
  /// The text's height in pixels.
  public let textHeight: Int
  /// The widest the message may be, in pixels: 90% of the canvas.
  public let textMaxWidth: Int
  /// Where the text's centre sits, in pixels.
  public let textCenterX: Double
  public let textCenterY: Double
  /// The box the animation is fitted into.
  public let animationBox: PixelRect

  /// The layout on `canvas`: the bar's rectangle and colours, the text's
  /// height (as a fraction of the canvas's shorter side) and centre (as
  /// fractions of the canvas), the animation's box.
  public init(
    canvas: PixelSize, bar: PixelRect, barColor: Color, track: Color?, textSize: Double,
    textCenter: (x: Double, y: Double),
    animationBox: PixelRect
  ) {
    self.canvas = canvas
    self.bar = bar
    self.barColor = barColor
    self.track = track
    textHeight = max(1, snap(textSize * Double(min(canvas.width, canvas.height))))
    textMaxWidth = max(1, canvas.width * 9 / 10)
    textCenterX = textCenter.x * Double(canvas.width)
    textCenterY = textCenter.y * Double(canvas.height)
    self.animationBox = animationBox
  }

  /// The filled part of the bar at `percent` (from the right when negative);
  /// nil when nothing is filled.
  public func filled(percent: Double) -> PixelRect? {
    let share = min(abs(BootStatus.clamped(percent)) / 100, 1)
    let width = Int((share * Double(bar.width)).rounded())
    guard width > 0 else { return nil }
    let x = percent < 0 ? bar.x + bar.width - width : bar.x
    return PixelRect(x: x, y: bar.y, width: width, height: bar.height)
  }

  /// The bar's layers at `percent`: the track where it is not filled, and the fill.
  public func barLayers(percent: Double, alpha: Double) -> [Layer] {
    guard let fill = filled(percent: percent) else {
      return track.map { [Layer(content: .color($0), destination: bar.rect, alpha: alpha)] } ?? []
    }
    var layers: [Layer] = []
    if let track {
      let rest =
        fill.x == bar.x
        ? PixelRect(x: fill.x + fill.width, y: bar.y, width: bar.width - fill.width, height: bar.height)
        : PixelRect(x: bar.x, y: bar.y, width: bar.width - fill.width, height: bar.height)
      if !rest.isEmpty { layers.append(Layer(content: .color(track), destination: rest.rect, alpha: alpha)) }
    }
    layers.append(Layer(content: .color(barColor), destination: fill.rect, alpha: alpha))
    return layers
  }

  /// Where a rendered message of `size` goes: centred on the message's centre.
  public func messageRect(size: PixelSize) -> PixelRect {
    PixelRect(
      x: snap(textCenterX - Double(size.width) / 2), y: snap(textCenterY - Double(size.height) / 2),
      width: size.width, height: size.height)
  }

  /// Where the diagnostic screen's lines go (`BootStatus.report`), each
  /// rendered at `sizes` (at most `textMaxWidth` wide): left-aligned from
  /// the canvas's top-left margin, a line's height and a quarter apart, as
  /// many as fit above the canvas's bottom margin (the rest are not
  /// shown); and the dark panel behind them.
  public func reportPlacement(lineSizes sizes: [PixelSize]) -> (panel: PixelRect, lines: [PixelRect]) {
    let margin = max(4, min(canvas.width, canvas.height) / 20)
    let pitch = max(1, textHeight + textHeight / 4)
    var lines: [PixelRect] = []
    var y = margin
    for size in sizes {
      guard y + size.height <= canvas.height - margin else { break }
      lines.append(PixelRect(x: margin, y: y, width: size.width, height: size.height))
      y += max(pitch, size.height)
    }
    let padding = max(2, margin / 2)
    let widest = lines.map(\.width).max() ?? 0
    let bottom = lines.last.map { $0.y + $0.height } ?? margin
    let panel = PixelRect(
      x: margin - padding, y: margin - padding, width: min(canvas.width, widest + 2 * padding),
      height: min(canvas.height, bottom - margin + 2 * padding))
    return (panel, lines)
  }

  /// Where an animation whose frames are `size` plays: fitted inside its box, centred.
  public func animationRect(frameSize size: PixelSize) -> PixelRect {
    let fitted = Fit.contain.fittedRect(of: size, in: animationBox)
    return PixelRect(
      x: snap(fitted.x), y: snap(fitted.y), width: max(1, snap(fitted.width)), height: max(1, snap(fitted.height)))
  }

  /// The status layers' opacity at eased transition `progress`: a
  /// cross-fade fades them with the picture; doors over their first quarter.
  public static func alpha(progress: Double, transition: TransitionKind) -> Double {
    switch transition {
    case .crossfade: return max(0, 1 - progress)
    case .doors: return max(0, 1 - progress * 4)
    }
  }
}

/// When each frame of an animation shows: frames loop, each for its delay.
public struct AnimationTimeline: Equatable, Sendable {
  /// Seconds each frame shows, in order.
  public let delays: [Double]
  /// One loop, in seconds.
  public let period: Double

  /// `delays` in seconds; a delay under 10 ms counts as 100 ms, as browsers
  /// do for GIFs that ask for none.
  public init(delays: [Double]) {
    self.delays = delays.map { $0 < 0.01 ? 0.1 : $0 }
    period = self.delays.reduce(0, +)
  }

  /// `count` frames at `fps`.
  public init(count: Int, fps: Double) { self.init(delays: Array(repeating: 1 / fps, count: count)) }

  /// The frame showing `time` seconds after the animation started.
  public func frame(at time: Double) -> Int {
    guard delays.count > 1, period > 0 else { return 0 }
    // A time on a frame's start (within rounding) shows that frame.
    var t = (time + 1e-9).truncatingRemainder(dividingBy: period)
    if t < 0 { t += period }
    for (index, delay) in delays.enumerated() {
      if t < delay { return index }
      t -= delay
    }
    return delays.count - 1
  }

  /// When, after `time`, the next frame starts (seconds from the start);
  /// nil for a single frame.
  public func nextChange(after time: Double) -> Double? {
    guard delays.count > 1, period > 0 else { return nil }
    let loops = (time / period).rounded(.down)
    var start = loops * period
    for delay in delays {
      start += delay
      if start > time + 1e-9 { return start }
    }
    return start + delays[0]
  }
}

extension Scene {
  /// The layers as far as they fall inside `clip`, each image's source cut
  /// in proportion: drawing it repaints only `clip`.
  public func clipped(to clip: Rect) -> Scene {
    Scene(
      layers: layers.compactMap { layer in
        let d = layer.destination
        let x0 = max(d.x, clip.x)
        let y0 = max(d.y, clip.y)
        let x1 = min(d.maxX, clip.maxX)
        let y1 = min(d.maxY, clip.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        var cut = layer
        cut.destination = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        if case .image(let asset, let source) = layer.content {
          let sx = Double(source.width) / d.width
          let sy = Double(source.height) / d.height
          let part = PixelRect(
            x: source.x + Int(((x0 - d.x) * sx).rounded()), y: source.y + Int(((y0 - d.y) * sy).rounded()),
            width: max(1, Int(((x1 - x0) * sx).rounded())), height: max(1, Int(((y1 - y0) * sy).rounded())))
          cut.content = .image(asset, source: part)
        }
        return cut
      })
  }
}
