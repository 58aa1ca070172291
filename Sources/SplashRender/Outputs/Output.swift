// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
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

/// What kind of display a back end shows on: what the session's policies
/// (where to move, whether to follow devices, what the initramfs may keep)
/// ask instead of back ends' names.
public struct OutputTraits: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// DRM cards (native KMS, SDL's KMSDRM): full screen at a mode.
  public static let card = OutputTraits(rawValue: 1)
  /// A Linux framebuffer device: full screen at its mode.
  public static let framebuffer = OutputTraits(rawValue: 2)
  /// A window on a desktop session, for previews.
  public static let desktop = OutputTraits(rawValue: 4)
  /// Memory only: nobody sees it (tests, recordings, the last resort).
  public static let memory = OutputTraits(rawValue: 8)

  /// Whether the size is the screen mode's rather than the one asked for
  /// (`--size`): on cards and framebuffers.
  public var hasFixedMode: Bool { !isDisjoint(with: [.card, .framebuffer]) }
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
  /// What the painter's target holds when the next frame is painted into
  /// it: the frame drawn `frameAge` frames before (1: the last one, as one
  /// surface without page flips keeps it; 2: the one before, as the page of
  /// two flipped in turn that is not on the screen), so that a frame may
  /// repaint only what changed since; nil when nothing is known of it.
  public var frameAge: Int?

  public init(
    name: String, size: PixelSize, painter: LayerPainter, panelRotation: Rotation? = nil, mode: String,
    frameAge: Int?
  ) {
    self.name = name
    self.size = size
    self.painter = painter
    self.panelRotation = panelRotation
    self.mode = mode
    self.frameAge = frameAge
  }
}

/// A display back end, open and ready: where frames are painted and how
/// they reach the screen. Offscreen, the desktop window, SDL's KMS, native
/// KMS and the framebuffer are peers behind it; the stage plays on any of
/// them. What only some can do is an ability of its own, asked for with
/// `as?`: `PausableOutput`, `AdoptableOutput`, `HotPluggableOutput`,
/// `LingeringOutput`.
public protocol Output: AnyObject {
  /// The back end's name, as `--display` spells it.
  var name: String { get }
  /// What kind of display it is.
  var traits: OutputTraits { get }
  /// What was opened, for the log ("/dev/fb0 800x480, 32 bpp …").
  var description: String { get }
  /// Every screen it drives; the first one's vsyncs pace the frames.
  var screens: [OutputScreen] { get }
  /// Seconds between the first screen's vsyncs.
  var refreshPeriod: Double { get }
  /// Descriptors that become readable when the output has events (a
  /// window's connection to its display server, a card's flip events);
  /// empty for none.
  var eventDescriptors: [FileDescriptor] { get }
  /// Handles the events that are pending, without waiting.
  func handleEvents() -> OutputEvents
  /// Paints a frame on every screen (`draw(i)` paints screen `i` through
  /// its painter) and shows them; returns the first screen's vsync, when
  /// the output knows it (nil: the caller paces by the clock).
  func present(_ draw: (Int) -> Void) throws(RenderError) -> Double?
  /// What the first screen shows now, in its own orientation and size: a
  /// copy of its pixels (`Pixels.copy`), the caller's to keep. An output
  /// that cannot read its screen back paints the last frame again with
  /// `repaintLast`, unpresented, and reads that.
  func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels
  /// Lets go of the screens; nothing is presented after. With
  /// `keepingLastFrame` (a program follows), the last frame stays on them
  /// until that program draws. `repaintLast` paints the first screen's last
  /// frame again through its painter, unpresented, for an output that must
  /// read it back (SDL's KMS copies it into the framebuffer it gives the
  /// screen back to).
  func release(keepingLastFrame: Bool, repaintLast: () -> Void)
}

extension Output {
  /// The first screen's size: what frames are paced and logged by.
  public var size: PixelSize { screens[0].size }
}

/// An output another program may have for a while (Plymouth's
/// `deactivate`): nothing is presented from `deactivate` to `reactivate`.
public protocol PausableOutput: Output {
  /// Lets another program have the screens for now.
  func deactivate()
  /// Takes the screens back; the caller then draws the frame again.
  func reactivate()
}

/// An output that can show a program's GPU buffer as it is (direct
/// scan-out: the buffer becomes its screen's framebuffer, neither composed
/// nor copied). The next `present` shows the output's own frames again,
/// and the buffer is let go of once that frame's flip is done.
public protocol ScanningOutOutput: Output {
  /// The render node of the GPU of the first screen's card (where a
  /// program's buffers are rendered to be shown here); nil for a card
  /// without one.
  var renderNode: String? { get }
  /// What the first screen shows as it is (its card and the layouts its
  /// primary plane takes): what a program's GPU is told to render into to
  /// be scanned out; nil when the card cannot say.
  var scanoutLayouts: ScanoutLayouts? { get }
  /// Shows `dmabuf` on the output's only screen, whole, at its next
  /// vblank, and waits for that flip: the vsync time it was shown at (nil
  /// when its event did not come in time). A buffer the card cannot show
  /// so (the driver cannot import it, an atomic TEST_ONLY commit refuses
  /// it, the flip fails) leaves the screen as it was, and says why.
  func scanOut(_ dmabuf: Dmabuf) -> Result<Double?, RenderError>
}

/// An output whose screens can be switched off, really dark (the panel
/// powered down, not a black frame), and on again (`splashctl screen`,
/// `[screen-power]`).
public protocol PowerSwitchedOutput: Output {
  /// Switches every screen off or on; nothing is presented while they are
  /// off, and on again each shows its last frame until the next is
  /// presented. Nil when it was done, else why not (the screens as they
  /// were where it failed).
  func setPowered(_ on: Bool) -> String?
}

/// An output one splashd can hand to the splashd that adopts it (`--boot
/// root` taking over the initramfs's splash).
public protocol AdoptableOutput: Output {
  /// What the adopter gets: the cards shown on, open; none for a back end
  /// the adopter opens again as it is (a framebuffer keeps its pixels).
  var handover: OutputHandover { get }
  /// The display went to another splashd: what this output no longer needs
  /// is freed (the buffers not on the screen), nothing on the screen
  /// changes, and nothing more may be drawn.
  func handedOver()
}

/// An output whose screens come and go with its device: connectors plugged
/// and unplugged, cards that appear and go.
public protocol HotPluggableOutput: Output {
  /// Whether `node` (/dev/dri/card0) is the device its first screen is on.
  func showsOn(_ node: String) -> Bool
  /// Looks again at the display device `node`; true when `screens`
  /// changed, and the caller then prepares a scene for each again.
  func screensChanged(on node: String) -> Bool
}

/// An output whose last frame, after `release(keepingLastFrame: true)`,
/// lasts only as long as this process holds the device (the kernel takes a
/// framebuffer down with the last file of its card).
public protocol LingeringOutput: Output {
  /// Whether the screen still shows the last frame only because this
  /// process holds the device, and no other program has shown a frame yet.
  var lastFrameNeedsThisProcess: Bool { get }
}

/// An output whose frames reach the screen by page flips that the display
/// completes (a DRM card): whether one is overdue. splashd's liveness asks
/// it: while a flip is stuck, systemd's watchdog is not fed, and a stuck
/// display becomes a restart by systemd.
public protocol FlipWatchedOutput: Output {
  /// Whether a page flip queued on one of its screens has waited for its
  /// completion longer than its timeout, at `now` (the run loop's clock).
  func flipStuck(at now: Double) -> Bool
}

/// The display as one splashd hands it to another: the DRM cards it shows
/// on, with their open descriptors (master and the frame on the screen go
/// with them). Empty for a back end the adopter opens again as it is
/// (a framebuffer keeps its pixels; offscreen has none to keep).
public struct OutputHandover {
  public var cards: HandedOverCards

  public init(cards: HandedOverCards = []) { self.cards = cards }
}

/// DRM cards as one splashd hands them to another: each one's path and its
/// open descriptor.
public typealias HandedOverCards = [(path: String, descriptor: FileDescriptor)]

/// The device `--device` names, and how messages name where it was given.
public struct RequestedDevice {
  public var path: String
  /// `--device`, or the config file's line.
  public var origin: String

  public init(path: String, origin: String) {
    self.path = path
    self.origin = origin
  }
}

/// What a back end is asked to open.
public struct OutputRequest {
  /// The size asked for (`--size`), for outputs whose size is not their mode's.
  public var size: PixelSize
  /// `--device`.
  public var device: RequestedDevice?
  /// `--mode`.
  public var mode: DisplayModeRequest?
  /// `--fps`, for outputs paced by the clock.
  public var fps: Double
  /// The environment splashd runs in (DISPLAY, WAYLAND_DISPLAY).
  public var environment: [String: String]
  /// The run loop's clock: vsync times are told on it, and waits for a
  /// display's events go through it.
  public var clock: EventClock
  /// The `[screen NAME]` sections, for outputs that drive several screens.
  public var screens: [String: ScreenSettings] = [:]
  /// Where the output's notes go (what it found it cannot do, once).
  public var note: (String) -> Void = { _ in }
  /// Whether the output puts the VT in graphics mode while it shows (and
  /// back at the end): not when it is opened only to prepare pictures for
  /// (`--prepare`, which may run while another program has the screen).
  public var takesConsole = true

  public init(
    size: PixelSize, device: RequestedDevice?, mode: DisplayModeRequest?, fps: Double,
    environment: [String: String], clock: EventClock
  ) {
    self.fps = fps
    self.size = size
    self.device = device
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

/// A display back end as the registry lists it: its name, what kind of
/// display it is, its help, how `auto` decides whether to try it, how it
/// opens, and how it takes over cards another splashd handed over.
public struct BackEnd: Sendable {
  public let name: String
  public let traits: OutputTraits
  /// One sentence for `--help`.
  public let help: String
  /// Whether `auto` tries it, judged without taking the display.
  public let probe: @Sendable (OutputRequest) -> Probe
  public let open: @Sendable (OutputRequest) throws(RenderError) -> Output
  /// Opens the output on cards handed over open (`OutputHandover.cards`);
  /// nil for a back end that cannot take cards.
  public let adopt: (@Sendable (HandedOverCards, OutputRequest) throws(RenderError) -> Output)?

  public init(
    name: String, traits: OutputTraits, help: String, probe: @escaping @Sendable (OutputRequest) -> Probe,
    open: @escaping @Sendable (OutputRequest) throws(RenderError) -> Output,
    adopt: (@Sendable (HandedOverCards, OutputRequest) throws(RenderError) -> Output)? = nil
  ) {
    self.name = name
    self.traits = traits
    self.help = help
    self.probe = probe
    self.open = open
    self.adopt = adopt
  }
}
