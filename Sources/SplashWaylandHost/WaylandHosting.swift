// SPDX-License-Identifier: Apache-2.0
import CWaylandHostLoader
import Glibc
import SplashCore
import SplashSystem

/// Host mode's compositor as splashd drives it: the seam between the
/// decisions (SplashApp's host mode: when to reveal, what the screens show,
/// where the window lies, when a frame is done) and the compositor that
/// serves the program (`WaylandHost`, wlroots in a shared object; a fake
/// of it in the tests, so that the restart loop, the reveal on the first
/// frame and the return to the splash run in process on a test clock).
/// Every call comes from the run loop's thread.
public protocol WaylandHosting: AnyObject {
  /// The descriptor to poll: readable when a client sent something.
  var descriptor: FileDescriptor { get }
  /// Serves what clients sent, without blocking; what happened.
  func dispatch() -> WaylandHostEvents
  /// Serves the clients that connect to `listener` (bound and listening),
  /// which the host owns from now on.
  func serve(_ listener: FileDescriptor) throws(SystemError)
  /// A connection for the program, to pass it as WAYLAND_SOCKET (close it
  /// once the program has started).
  func connectClient() throws(SystemError) -> FileDescriptor
  /// Holds what the program's window shows now as the frame splashd draws
  /// from, until the next is held or `dropHeldFrame`; false when it has
  /// shown nothing yet.
  func holdCurrentFrame() -> Bool
  /// The held frame's pixels while `body` runs (only then); nil when none
  /// is held.
  func withHeldFrame<Result, Failure: Error>(_ body: (HostedBuffer) throws(Failure) -> Result) throws(Failure)
    -> Result?
  /// What changed in the held frame since the frame held before it (its
  /// client's damage), in its pixels; nil when all of it may have (the
  /// first frame, another size, a window of several surfaces).
  var heldFrameDamage: PixelRect? { get }
  /// Lets go of the held frame.
  func dropHeldFrame()
  /// The held frame as one GPU buffer shown as it is (a window of one
  /// surface, its buffer a dmabuf, no cursor over it): what a display may
  /// scan out; nil otherwise.
  var heldDmabuf: Dmabuf? { get }
  /// The held frame is on the screen as it is: its buffer is kept until
  /// another is shown so, or `shownComposed`.
  func shownAsIs()
  /// The screen shows splashd's own frames again: the buffer shown as it
  /// is goes back to its client.
  func shownComposed()
  /// Whether it composes splashd's frames on the GPU (`beginComposing`):
  /// the GPU variant.
  var composesOnGPU: Bool { get }
  /// Starts a frame of splashd's of `size`, composed on the GPU over the
  /// held frame (one GPU buffer), into a buffer of the compositor's that a
  /// display scans out: then `composeFill` and `composePicture`, and
  /// `endComposing`. False when none can be (no GPU, or no GPU buffer held).
  func beginComposing(size: PixelSize) -> Bool
  /// Fills `rect` with `color` at opacity `alpha`.
  func composeFill(_ rect: Rect, with color: Color, alpha: Double)
  /// Draws part `source` of `picture` (`heldFramePicture`: the held frame;
  /// else one `uploadPicture` made) at opacity `alpha`, placed by
  /// `placement`: the unit square, showing `source` upright, put on the
  /// frame (`Rotation.unitSquareMap`: a rectangle, or one turned).
  func composePicture(_ picture: Int32, source: PixelRect, placement: AffineMap, alpha: Double)
  /// The frame composed since `beginComposing`, drawn to its end (its
  /// descriptors the compositor's, valid until the third frame after it);
  /// nil when it could not be drawn.
  func endComposing() -> Dmabuf?
  /// A picture for `composePicture`, copied from `pixels`; nil when none
  /// can be made.
  func uploadPicture(_ pixels: HostedBuffer) -> Int32?
  /// Lets go of a picture `uploadPicture` made.
  func releasePicture(_ picture: Int32)
  /// Tells the program's window (now and each after it) that a display
  /// shows buffers of `layouts` as they are (linux-dmabuf's scan-out
  /// tranche), of those the GPU also renders: how many were offered (0
  /// without a GPU, or with none in common).
  func offerScanout(_ layouts: ScanoutLayouts) -> Int
  /// What the screen shows now, for the screencopy clients that asked;
  /// false when it could not be given.
  @discardableResult func showScreen(_ screen: HostedBuffer) -> Bool
  /// Tells the screencopy clients that asked that their copy failed.
  func failScreenCopies()
  /// Takes the machine's keyboards (in `layout`), pointers and touch
  /// screens for the windows; EINVAL when the layout does not compile,
  /// ENODEV when the devices cannot be had.
  func takeInputDevices(keyboardLayout layout: KeyboardLayout) throws(SystemError)
  /// With `withheld`, nothing typed or pressed reaches a client.
  func withholdInput(_ withheld: Bool)
  /// How many windows are mapped.
  var windowCount: Int { get }
  /// Serves X11 programs too (Xwayland); the display's name for DISPLAY.
  func startXwayland(lettingIn user: String?) throws(SystemError) -> String
  /// The process of each connected client; nil for the program's own
  /// connection.
  var clientProcesses: [pid_t?] { get }
  /// The program's window is `size` from now on.
  func resizeWindow(to size: PixelSize)
  /// Where a touch or tablet's point lands on the window: each named
  /// screen's map (nil: it shows none of the window), `standard` for the
  /// devices on no named screen.
  func mapInput(standard: AffineMap, screens: [(name: String, map: AffineMap?)])
  /// The frame that showed the program's buffer was presented at
  /// `monotonic` seconds, the screen refreshing every `refreshPeriod`.
  func frameDone(at monotonic: Double, refreshPeriod: Double)
  /// Asks the client of the program's window whether it still answers
  /// (xdg_wm_base's ping), its pong awaited `timeout` seconds: a pong not
  /// come by then is a dispatch's `pingMissed`. False when the program's
  /// window is no xdg-shell toplevel (none yet, or an X11 one).
  func ping(within timeout: Double) -> Bool
  /// Whether a client holds an idle inhibitor (a video playing): what
  /// `idle-off` waits for.
  var idleInhibited: Bool { get }
  /// Whether a text field of the surface with the keyboard's focus takes
  /// text (text-input-v3, enabled): when an on-screen keyboard that is no
  /// input method shows.
  var textFieldActive: Bool { get }
}

/// The picture `composePicture` draws the held frame from.
public let heldFramePicture: Int32 = 0

/// What a dispatch of the compositor found.
public struct WaylandHostEvents: OptionSet, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
  /// The program's window has a new buffer.
  public static let newBuffer = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_NEW_BUFFER))
  /// A client's connection closed (the program's own, or another's).
  public static let clientGone = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_CLIENT_GONE))
  /// A client connected.
  public static let clientCame = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_CLIENT_CAME))
  /// A screencopy client (grim) asked for the screen: `showScreen`.
  public static let screenWanted = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_FRAME_WANTED))
  /// The program's window's client did not answer a ping in time (`ping`).
  public static let pingMissed = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_PING_MISSED))
  /// A key, a button, a touch or the pointer moving came (from the machine
  /// or a client's virtual device), reaching a window or withheld.
  public static let input = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_INPUT))
  /// A client's idle inhibitor came or went (`idleInhibited`).
  public static let idleInhibition = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_IDLE_INHIBITION))
  /// A text field of the focused surface began or ceased to take text
  /// (`textFieldActive`).
  public static let textField = WaylandHostEvents(rawValue: Int32(SPLASHD_HOST_TEXT_FIELD))
}

/// 32-bit pixels where they lie, 0xAARRGGBB as a native UInt32: a
/// program's buffer in the program's memory (shown opaque: the window is the
/// screen), or the screen's pixels for a screencopy client.
public struct HostedBuffer {
  public let pixels: UnsafeRawPointer
  public let size: PixelSize
  /// Bytes from one row to the next.
  public let stride: Int
  /// Whether the top byte of each pixel is its alpha (ARGB8888); without
  /// it (XRGB8888) the byte means nothing.
  public let hasAlpha: Bool

  public init(pixels: UnsafeRawPointer, size: PixelSize, stride: Int, hasAlpha: Bool = false) {
    self.pixels = pixels
    self.size = size
    self.stride = stride
    self.hasAlpha = hasAlpha
  }

  /// Whether it has nothing in it: every pixel fully transparent (an
  /// ARGB8888 buffer of zeroed alphas, as a program's freshly made
  /// buffer is until it draws). A buffer without alpha always shows
  /// something, black being a colour. Reads until the first pixel that is
  /// not transparent: at once, for a frame that was drawn.
  public var showsNothing: Bool {
    guard hasAlpha else { return false }
    for row in 0..<size.height {
      let pixels = (pixels + row * stride).assumingMemoryBound(to: UInt32.self)
      for column in 0..<size.width where pixels[column] & 0xFF00_0000 != 0 { return false }
    }
    return true
  }
}
