// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// What an output's events ask for.
public struct OutputEvents: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The screen lost what was drawn (a window was exposed): draw it again.
  public static let redraw = OutputEvents(rawValue: 1)
  /// The user closed the window (or pressed Escape): end the splash.
  public static let closed = OutputEvents(rawValue: 2)
}

/// A display back end, open and ready: where frames are painted and how
/// they reach the screen. Offscreen, the desktop window, SDL's KMS and the
/// framebuffer are peers behind it; one `OutputSink` plays on any of them.
public protocol Output: AnyObject {
  /// The back end's name, as `--display` spells it.
  var name: String { get }
  /// What was opened, for the log ("/dev/fb0 800x480, 32 bpp …").
  var description: String { get }
  /// The physical size frames are painted at.
  var size: PixelSize { get }
  /// Whether `size` is the screen mode's (KMS, a framebuffer) rather than
  /// the one asked for (a window, offscreen).
  var sizeIsFixed: Bool { get }
  /// Paints a frame's layers.
  var painter: LayerPainter { get }
  /// Seconds between vsyncs.
  var refreshPeriod: Double { get }
  /// Descriptors that become readable when the output has events (a
  /// window's connection to its display server); empty for none.
  var eventDescriptors: [FileDescriptor] { get }
  /// Whether what was painted stays in the painter's target from one frame
  /// to the next (one surface, no page flips), so that a frame may repaint
  /// only what changed.
  var retainsFrame: Bool { get }
  /// Where the output's notes go (what it found it cannot do, once).
  var note: (String) -> Void { get set }
  /// Handles the events that are pending, without waiting.
  func handleEvents() -> OutputEvents
  /// Paints a frame with `draw` (through `painter`) and shows it; returns
  /// the time of the vsync it was shown at, when the output knows it.
  func present(_ draw: () -> Void) throws(RenderError) -> Double?
  /// What the screen shows now, in its own orientation and size, as a PNG
  /// file's bytes. An output that cannot read its screen back paints the
  /// last frame again with `repaintLast`, unpresented, and reads that.
  func readBack(repaintLast: () -> Void) throws(RenderError) -> [UInt8]
  /// Lets another program have the screen for now (Plymouth's
  /// `deactivate`); nothing is presented until `reactivate`.
  func deactivate()
  /// Takes the screen back; the caller then draws the frame again.
  func reactivate()
  /// Lets go of the screen; nothing is presented after. With
  /// `keepingLastFrame` (a program follows), the last frame stays on it
  /// until that program draws. `repaintLast` paints the last frame again
  /// through the output's own painter, unpresented, for an output that must read it back
  /// (SDL's KMS copies it into the framebuffer it gives the screen back to).
  func release(keepingLastFrame: Bool, repaintLast: () -> Void)
}

extension Output {
  public func deactivate() {}
  public func reactivate() {}
  public var retainsFrame: Bool { false }
  public var eventDescriptors: [FileDescriptor] { [] }
  public func handleEvents() -> OutputEvents { [] }
}

/// What a back end is asked to open.
public struct OutputRequest {
  /// The size asked for (`--size`), for outputs whose size is not their mode's.
  public var size: PixelSize
  /// `--device`, and how messages name it.
  public var device: String?
  public var deviceOrigin: String
  /// `--mode`.
  public var mode: DisplayModeRequest?
  /// `--fps`, for outputs paced by the clock.
  public var fps: Double
  /// The environment splashd runs in (DISPLAY, WAYLAND_DISPLAY).
  public var environment: [String: String]
  /// The clock vsync times are told on.
  public var clock: EventClock

  public init(
    size: PixelSize, device: String?, deviceOrigin: String, mode: DisplayModeRequest?, fps: Double,
    environment: [String: String], clock: EventClock
  ) {
    self.fps = fps
    self.size = size
    self.device = device
    self.deviceOrigin = deviceOrigin
    self.mode = mode
    self.environment = environment
    self.clock = clock
  }
}

/// Whether `auto` tries a back end here, and why.
public struct Probe: Equatable, Sendable {
  public var tried: Bool
  /// Why (or why not), such as "/dev/fb0 exists".
  public var reason: String

  public static func tried(_ reason: String) -> Probe { Probe(tried: true, reason: reason) }
  public static func skipped(_ reason: String) -> Probe { Probe(tried: false, reason: reason) }
}

/// A display back end as the registry lists it: its name, its help, how
/// `auto` decides whether to try it, and how it opens.
public struct BackEnd: Sendable {
  public let name: String
  /// One sentence for `--help`.
  public let help: String
  /// Whether `auto` tries it, judged without taking the display.
  public let probe: @Sendable (OutputRequest) -> Probe
  public let open: @Sendable (OutputRequest) throws(RenderError) -> Output

  public init(
    name: String, help: String, probe: @escaping @Sendable (OutputRequest) -> Probe,
    open: @escaping @Sendable (OutputRequest) throws(RenderError) -> Output
  ) {
    self.name = name
    self.help = help
    self.probe = probe
    self.open = open
  }
}

/// Plays a scene on any output: draws each frame with the scene, shows it
/// through the output, and keeps the last frame's progress and time for
/// redraws.
public final class OutputSink: FrameSink {
  public let output: Output
  /// What is drawn; replaced when the splash turns while it holds.
  public var scene: SceneRenderer
  private var lastProgress = 0.0
  private var lastTime = 0.0

  public init(output: Output, scene: SceneRenderer) {
    self.output = output
    self.scene = scene
  }

  public var refreshPeriod: Double { output.refreshPeriod }

  public func present(_ frame: FrameRequest) throws -> Double? {
    lastProgress = frame.progress
    lastTime = frame.time
    return try output.present { scene.draw(progress: frame.progress, time: frame.time) }
  }

  /// Draws the last frame again, with the current scene, and shows it.
  public func redraw() throws(RenderError) {
    _ = try output.present { scene.draw(progress: lastProgress, time: lastTime) }
  }

  /// Draws the held frame as it is `time` seconds after the first, and
  /// shows it; on an output that keeps its frame, only `area` (logical
  /// pixels) is painted when given. Returns the vsync it was shown at, when known.
  @discardableResult
  public func redrawHeld(at time: Double, area: PixelRect? = nil) throws(RenderError) -> Double? {
    lastTime = time
    let clip = output.retainsFrame ? area?.rect : nil
    return try output.present { scene.draw(progress: lastProgress, time: time, clip: clip) }
  }

  /// What the screen shows now, as a PNG file's bytes.
  public func snapshot() throws(RenderError) -> [UInt8] {
    try output.readBack { scene.draw(progress: lastProgress, time: lastTime) }
  }

  /// Lets go of the output, keeping the last frame on the screen or not.
  public func release(keepingLastFrame: Bool) {
    output.release(keepingLastFrame: keepingLastFrame) { scene.draw(progress: lastProgress, time: lastTime) }
  }
}
