// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings

/// The status layers of one scene: the progress bar, the message (rendered
/// again when it changes) and the animation's frames, prepared for the
/// scene's painter and rotation. The status itself is the stage's: each
/// frame is drawn with it.
public final class StatusLayers {
  public let layout: StatusLayout
  /// The message rendered into the painter's `.message` asset; nil for none.
  public private(set) var renderedMessage: String?
  /// The scene these layers belong to (which holds them).
  private unowned let renderer: SceneRenderer
  private let textColor: Color
  /// Opens the message's font when the first message is shown.
  private let openFont: () throws(RenderError) -> Font
  private var font: Font?
  /// Where the rendered message goes; nil while there is none.
  private var messageRect: PixelRect?
  /// The diagnostic screen's lines rendered into `.reportLine(n)`, and
  /// where they go (with the panel behind them); nil for none.
  public private(set) var renderedReport: [String]?
  private var reportPlacement: (panel: PixelRect, lines: [PixelRect])?
  /// The diagnostic screen's panel: black, mostly opaque, so that its
  /// lines read over any picture.
  static let reportPanel = (color: Color(red: 0, green: 0, blue: 0), alpha: 0.85)
  /// The animation's timeline and where it plays; nil without one.
  public let animation: (timeline: AnimationTimeline, rect: PixelRect)?

  /// Prepares `animation`'s frames for `renderer` and renders `message`.
  public init(
    _ settings: Settings, renderer: SceneRenderer, message: String?, font: @escaping () throws(RenderError) -> Font,
    animation decoded: DecodedAnimation?
  ) throws(RenderError) {
    self.renderer = renderer
    layout = StatusLayout(settings, canvas: renderer.layout.canvas)
    textColor = settings.message.color
    openFont = font
    if let decoded {
      let rect = layout.animationRect(frameSize: decoded.size)
      if let problem = decoded.preparedSizeProblem(shownAt: rect.size) {
        throw RenderError(
          call: "\(settings.origin(of: \.animation.file)) \(printable(settings.animation.file ?? ""))", reason: problem)
      }
      for (index, frame) in decoded.frames.enumerated() {
        try renderer.adopt(frame, as: .animationFrame(index), size: rect.size, opaque: false)
      }
      animation = (decoded.timeline, rect)
    } else {
      animation = nil
    }
    try render(message: message)
  }

  /// Renders `message` for the frames to come, when it is not the one
  /// rendered already. On an error the message stays as it was.
  public func render(message: String?) throws(RenderError) {
    if message != renderedMessage {
      if let text = message {
        let font: Font
        if let opened = self.font { font = opened } else { font = try openFont() }
        self.font = font
        if let pixels = try font.render(text, color: textColor, maxWidth: layout.textMaxWidth) {
          let size = PixelSize(width: pixels.width, height: pixels.height)
          try renderer.adopt(pixels, as: .message, size: size, opaque: false)
          messageRect = layout.messageRect(size: size)
        } else {
          messageRect = nil
        }
      } else {
        messageRect = nil
      }
    }
    renderedMessage = message
  }

  /// Renders the diagnostic screen's `lines` (nil: none) for the frames to
  /// come, when they are not the ones rendered already: each cut to the
  /// canvas's width (ended with "…"), as many as fit its height. On an
  /// error the screen stays as it was.
  public func render(report lines: [String]?) throws(RenderError) {
    guard lines != renderedReport else { return }
    guard let lines, !lines.isEmpty else {
      reportPlacement = nil
      renderedReport = lines
      return
    }
    let font: Font
    if let opened = self.font { font = opened } else { font = try openFont() }
    self.font = font
    var sizes: [PixelSize] = []
    let room = layout.reportPlacement(lineSizes: lines.map { _ in PixelSize(width: 1, height: font.height) })
    for (index, line) in lines.prefix(room.lines.count).enumerated() {
      let width = layout.canvas.width - 2 * room.lines[index].x
      guard let pixels = try font.render(line.isEmpty ? " " : line, color: textColor, maxWidth: width) else {
        sizes.append(PixelSize(width: 1, height: font.height))
        continue
      }
      let size = PixelSize(width: pixels.width, height: pixels.height)
      try renderer.adopt(pixels, as: .reportLine(index), size: size, opaque: false)
      sizes.append(size)
    }
    reportPlacement = layout.reportPlacement(lineSizes: sizes)
    renderedReport = lines
  }

  /// The layers showing `status` at `time` seconds after the first frame,
  /// at opacity `alpha`: the message as rendered last.
  public func layers(_ status: BootStatus, time: Double, alpha: Double) -> [Layer] {
    var layers: [Layer] = []
    if let progress = status.progress { layers += layout.barLayers(percent: progress, alpha: alpha) }
    if let messageRect {
      let whole = PixelRect(x: 0, y: 0, width: messageRect.width, height: messageRect.height)
      layers.append(Layer(content: .image(.message, source: whole), destination: messageRect.rect, alpha: alpha))
    }
    if let (timeline, rect) = animation {
      let whole = PixelRect(x: 0, y: 0, width: rect.width, height: rect.height)
      let frame = timeline.frame(at: time)
      layers.append(Layer(content: .image(.animationFrame(frame), source: whole), destination: rect.rect, alpha: alpha))
    }
    if let (panel, lines) = reportPlacement, status.report != nil {
      let (color, opacity) = Self.reportPanel
      layers.append(Layer(content: .color(color), destination: panel.rect, alpha: alpha * opacity))
      for (index, line) in lines.enumerated() where line.width > 1 {
        let whole = PixelRect(x: 0, y: 0, width: line.width, height: line.height)
        layers.append(Layer(content: .image(.reportLine(index), source: whole), destination: line.rect, alpha: alpha))
      }
    }
    return layers
  }
}
