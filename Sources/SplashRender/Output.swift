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

/// One screen an output drives: the splash is drawn for each at its size,
/// through its painter, turned its own way.
public struct OutputScreen {
  /// The connector's name as the kernel gives it ("HDMI-A-1"); the output's
  /// name for an output of one screen.
  public var name: String
  public var size: PixelSize
  public var painter: LayerPainter
  /// The turn its panel needs, from the display (DRM's "panel
  /// orientation"), when it says.
  public var panelRotation: Rotation?
  /// Its mode, for `splashctl status` ("1920x1080@60").
  public var mode: String

  public init(name: String, size: PixelSize, painter: LayerPainter, panelRotation: Rotation? = nil, mode: String) {
    self.name = name
    self.size = size
    self.painter = painter
    self.panelRotation = panelRotation
    self.mode = mode
  }
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
  /// The device node it draws on (/dev/dri/card0, /dev/fb0); nil for none.
  var deviceNode: String? { get }
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
  /// Every screen it drives; the first is `size` and `painter`'s, and its
  /// vsyncs pace the frames.
  var screens: [OutputScreen] { get }
  /// Paints a frame on every screen (`draw(i)` paints screen `i` through
  /// its painter) and shows them; returns the first screen's vsync, when known.
  func presentScreens(_ draw: (Int) -> Void) throws(RenderError) -> Double?
  /// What the screen shows now, in its own orientation and size, as a PNG
  /// file's bytes. An output that cannot read its screen back paints the
  /// last frame again with `repaintLast`, unpresented, and reads that.
  func readBack(repaintLast: () -> Void) throws(RenderError) -> [UInt8]
  /// Looks again at the display device `node` (a connector plugged or
  /// unplugged, a card that appeared or went); true when `screens` changed,
  /// and the caller then prepares a scene for each again.
  func screensChanged(on node: String) -> Bool
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
  /// What a splashd that adopts this one gets (`handover`): the cards it
  /// shows on, open; nil when this back end cannot be handed over (a
  /// window, SDL's KMSDRM).
  var handover: OutputHandover? { get }
  /// The display went to another splashd with `handover`: what this output
  /// no longer needs is freed (the buffers not on the screen), nothing on
  /// the screen changes, and nothing more may be drawn.
  func handedOver()
  /// After `release(keepingLastFrame: true)`: whether the screen still shows
  /// the last frame only as long as this process holds the display (the
  /// kernel takes it down with the last file of the card), and no other
  /// program has shown a frame of its own yet.
  var lastFrameNeedsThisProcess: Bool { get }
}

/// The display as one splashd hands it to another: the DRM cards it shows
/// on, with their open descriptors (master and the frame on the screen go
/// with them). Empty for a back end the adopter opens again as it is
/// (a framebuffer keeps its pixels; offscreen has none to keep).
public struct OutputHandover {
  public var cards: [(path: String, descriptor: FileDescriptor)]

  public init(cards: [(path: String, descriptor: FileDescriptor)] = []) { self.cards = cards }
}

extension Output {
  public var deviceNode: String? { nil }
  public func screensChanged(on node: String) -> Bool { false }
  public var screens: [OutputScreen] {
    [OutputScreen(name: name, size: size, painter: painter, mode: size.description)]
  }
  public func presentScreens(_ draw: (Int) -> Void) throws(RenderError) -> Double? { try present { draw(0) } }
  public func deactivate() {}
  public func reactivate() {}
  public var retainsFrame: Bool { false }
  public var eventDescriptors: [FileDescriptor] { [] }
  public func handleEvents() -> OutputEvents { [] }
  public var handover: OutputHandover? { nil }
  public func handedOver() {}
  public var lastFrameNeedsThisProcess: Bool { false }
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
  /// The `[screen NAME]` sections, for outputs that drive several screens.
  public var screens: [String: ScreenSettings] = [:]

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

/// Plays a scene on any output: draws each frame with the scene of each of
/// its screens, shows it through the output, and keeps the last frame's
/// progress and time for redraws.
public final class OutputSink: FrameSink {
  /// Where it plays; replaced when the splash moves to another display.
  public private(set) var output: Output
  /// What is drawn on each of the output's screens, in its order; replaced
  /// when the splash turns while it holds.
  public var scenes: [SceneRenderer]
  private var lastProgress = 0.0
  private var lastTime = 0.0

  public init(output: Output, scenes: [SceneRenderer]) {
    precondition(scenes.count == output.screens.count, "one scene a screen")
    self.output = output
    self.scenes = scenes
  }

  /// The first screen's scene (the one snapshots read).
  public var scene: SceneRenderer { scenes[0] }

  public var refreshPeriod: Double { output.refreshPeriod }

  /// Plays on `output` with `scenes` (prepared for its screens) from now
  /// on, and shows the last frame there; the caller lets go of the old output.
  public func move(to output: Output, scenes: [SceneRenderer]) throws(RenderError) {
    precondition(scenes.count == output.screens.count, "one scene a screen")
    self.output = output
    self.scenes = scenes
    try redraw()
  }

  public func present(_ frame: FrameRequest) throws -> Double? {
    lastProgress = frame.progress
    lastTime = frame.time
    return try output.presentScreens { scenes[$0].draw(progress: frame.progress, time: frame.time) }
  }

  /// Draws the last frame again, with the current scenes, and shows it.
  public func redraw() throws(RenderError) {
    _ = try output.presentScreens { scenes[$0].draw(progress: lastProgress, time: lastTime) }
  }

  /// Draws the held frame as it is `time` seconds after the first, and
  /// shows it; on an output that keeps its frame, only `area` (logical
  /// pixels of the first screen) is painted when given. Returns the vsync
  /// it was shown at, when known.
  @discardableResult
  public func redrawHeld(at time: Double, area: PixelRect? = nil) throws(RenderError) -> Double? {
    lastTime = time
    let clip = output.retainsFrame && scenes.count == 1 ? area?.rect : nil
    return try output.presentScreens { scenes[$0].draw(progress: lastProgress, time: time, clip: clip) }
  }

  /// What the first screen shows now, as a PNG file's bytes.
  public func snapshot() throws(RenderError) -> [UInt8] {
    try output.readBack { scene.draw(progress: lastProgress, time: lastTime) }
  }

  /// Lets go of the output, keeping the last frame on the screen or not.
  public func release(keepingLastFrame: Bool) {
    output.release(keepingLastFrame: keepingLastFrame) { scene.draw(progress: lastProgress, time: lastTime) }
  }
}
