// SPDX-License-Identifier: Apache-2.0
import CDRM
import SplashCore
import SplashSettings
import SplashSystem

/// A DRM card as the native KMS output drives it: its layout, dumb buffers,
/// modesets and page flips, DRM master, and what stays on the screen when
/// it is let go of. `DRMDevice` is the real one (libdrm); the tests drive
/// the same output on a card of their own, in process.
public protocol DRMCard: AnyObject {
  /// /dev/dri/cardN.
  var path: String { get }
  /// The card's open file: flip events make it readable, and it is what a
  /// handover passes on.
  var descriptor: FileDescriptor { get }
  /// What the log calls the way frames reach the screen.
  var modesetting: String { get }
  /// Whether the card's device node is still there (it may go away).
  var isPresent: Bool { get }

  /// Takes DRM master (the right to set modes).
  func becomeMaster() throws(DeviceError)
  /// Lets another program become master; what is on the screen stays.
  func dropMaster()
  /// Keeps the card open in the program this process `exec`s.
  func keepOpenAcrossExec()

  /// The card's CRTCs and connectors now (connectors probed: a plug is seen).
  func layout() throws(DeviceError) -> DRMLayout
  /// The primary plane that can show the CRTC at `index` of the card's
  /// CRTCs, and the pixel formats it scans out; nil when none is listed.
  func primaryPlane(forCRTCAt index: Int) -> (id: UInt32, formats: [UInt32])?
  /// The card's device number (`st_rdev` of its file); nil when it
  /// cannot be had.
  var deviceNumber: UInt64? { get }
  /// The layouts (formats with modifiers) plane `plane` lists in its
  /// IN_FORMATS property; none when it has none.
  func listedLayouts(ofPlane plane: UInt32) -> [ScanoutLayouts.Layout]
  /// The "panel orientation" property of connector `id` ("Left Side Up"),
  /// nil when it has none.
  func panelOrientation(ofConnector id: UInt32) -> String?

  /// A dumb buffer of `size` in `format` (a DRM fourcc of `bitsPerPixel`),
  /// mapped and registered as a framebuffer.
  func makeBuffer(_ size: PixelSize, format: UInt32, bitsPerPixel: Int) throws(DeviceError) -> DRMBuffer
  /// Unmaps `buffer` and removes its framebuffer (a plane showing it turns off).
  func free(_ buffer: DRMBuffer)
  /// Removes framebuffer `id` of this card's file (one another splashd made).
  func removeFramebuffer(_ id: UInt32)
  /// Unmaps `buffer`, which stays on the screen; true when its framebuffer
  /// could be freed without turning off its plane (CLOSEFB), else it lasts
  /// as long as the card's file.
  func release(keepingShown buffer: DRMBuffer) -> Bool

  /// The state of CRTC `id` now.
  func save(crtc id: UInt32) -> DRMCRTCState?
  /// Puts back what `saved` showed on `connector`; false when that failed.
  @discardableResult
  func restore(_ saved: DRMCRTCState, connector: UInt32) -> Bool
  /// Lights `pipe` with `buffer` at its mode; returns a note when it had to
  /// fall back (atomic refused).
  func modeset(_ pipe: DRMPipe, showing buffer: DRMBuffer) throws(DeviceError) -> String?
  /// Whether CRTC `crtc` (lit) has a vblank interrupt; without one a flip
  /// completes at once and is stamped then.
  func hasVblank(crtc: UInt32) -> Bool
  /// Queues a flip of `pipe` to framebuffer `framebuffer` (of `size`) at
  /// the next vblank; its event makes `descriptor` readable.
  func flip(_ pipe: DRMPipe, toFramebuffer framebuffer: UInt32, size: PixelSize) throws(DeviceError)
  /// A framebuffer of this card showing `dmabuf` (a program's GPU buffer)
  /// as it is: its planes imported (PRIME), the framebuffer made with its
  /// format and modifier (an ARGB buffer as XRGB: the program's window is
  /// opaque), the handles let go of (the framebuffer keeps the memory).
  /// `removeFramebuffer` frees it.
  func importFramebuffer(_ dmabuf: Dmabuf) throws(DeviceError) -> UInt32
  /// Whether `pipe`'s primary plane can show framebuffer `framebuffer` of
  /// `size` whole: nil when an atomic TEST_ONLY commit says it can (or the
  /// card has no atomic modesetting to ask: a flip's refusal says then),
  /// else why not.
  func canShow(framebuffer: UInt32, size: PixelSize, on pipe: DRMPipe) -> String?
  /// The flip events that have arrived, without waiting.
  func readEvents() -> [DRMFlipEvent]
  /// Switches the display of `pipe` off (its connector's DPMS: the CRTC
  /// inactive, the panel dark) or on again (showing what it showed); no
  /// flip may be queued while it is off.
  func setPower(_ pipe: DRMPipe, on: Bool) throws(DeviceError)
}

extension DRMCard {
  /// Queues a flip of `pipe` to `buffer` at the next vblank.
  public func flip(_ pipe: DRMPipe, to buffer: DRMBuffer) throws(DeviceError) {
    try flip(pipe, toFramebuffer: buffer.framebuffer, size: buffer.size)
  }
}

/// How the native KMS output reaches cards and what lies around them: the
/// real devices, or the tests' own.
public struct DRMCardAccess: Sendable {
  /// Opens the card at a path.
  public var open: @Sendable (String) throws(DeviceError) -> DRMCard
  /// The card at a path through a descriptor handed over, open.
  public var adopt: @Sendable (FileDescriptor, String) throws(DeviceError) -> DRMCard
  /// Whether a device node exists.
  public var exists: @Sendable (String) -> Bool
  /// The VT, put in graphics mode while the splash shows; nil when there is none.
  public var console: @Sendable () -> GraphicsConsole?
  /// The fbdev emulation the kernel shows again at a card's last close
  /// (the last frame is copied there); nil for none.
  public var framebufferEmulation: String?
  /// The render node of the GPU of the card at a path, if it has one.
  public var renderNode: @Sendable (String) -> String?

  public init(
    open: @escaping @Sendable (String) throws(DeviceError) -> DRMCard,
    adopt: @escaping @Sendable (FileDescriptor, String) throws(DeviceError) -> DRMCard,
    exists: @escaping @Sendable (String) -> Bool, console: @escaping @Sendable () -> GraphicsConsole?,
    framebufferEmulation: String?, renderNode: @escaping @Sendable (String) -> String? = { _ in nil }
  ) {
    self.open = open
    self.adopt = adopt
    self.exists = exists
    self.console = console
    self.framebufferEmulation = framebufferEmulation
    self.renderNode = renderNode
  }

  /// The machine's own cards, through libdrm.
  public static let system = DRMCardAccess(
    open: { path throws(DeviceError) in try DRMDevice(path: path) },
    adopt: { descriptor, path throws(DeviceError) in try DRMDevice(adopting: descriptor, path: path) },
    exists: { Files.exists($0) }, console: { try? GraphicsConsole() },
    framebufferEmulation: Settings.defaultFramebuffer,
    renderNode: { path in DRMCards.cardNumber(ofDevice: path).flatMap { DRMCards.renderNode(ofCard: $0) } })
}

/// A page flip that completed: on which CRTC, at which vblank (seconds on
/// CLOCK_MONOTONIC, the run loop's clock).
public struct DRMFlipEvent: Equatable, Sendable {
  public var crtc: UInt32
  public var time: Double
  public var sequence: UInt32

  public init(crtc: UInt32, time: Double, sequence: UInt32) {
    self.crtc = crtc
    self.time = time
    self.sequence = sequence
  }
}

/// A connector of a card, with what it is plugged into.
public struct DRMConnector: Sendable {
  public var id: UInt32
  /// As the kernel names it: "HDMI-A-1", "Virtual-1", "DSI-1".
  public var name: String
  public var connected: Bool
  /// Its modes, the card's order (the preferred one flagged).
  public var modes: [DRMMode]
  /// The CRTC driving it now, if any.
  public var currentCRTC: UInt32?
  /// The CRTCs its encoders can use.
  public var possibleCRTCs: [UInt32]

  public init(
    id: UInt32, name: String, connected: Bool, modes: [DRMMode], currentCRTC: UInt32?, possibleCRTCs: [UInt32]
  ) {
    self.id = id
    self.name = name
    self.connected = connected
    self.modes = modes
    self.currentCRTC = currentCRTC
    self.possibleCRTCs = possibleCRTCs
  }
}

/// A card's CRTCs, in its order, and its connectors.
public struct DRMLayout: Sendable {
  public var crtcs: [UInt32]
  public var connectors: [DRMConnector]

  public init(crtcs: [UInt32], connectors: [DRMConnector]) {
    self.crtcs = crtcs
    self.connectors = connectors
  }
}

/// A display mode as the kernel gives it, kept whole for the modeset.
public struct DRMMode: Sendable {
  public var info: drmModeModeInfo

  public init(info: drmModeModeInfo) { self.info = info }

  /// A mode of `size` at `refreshRate` Hz (a plain timing: no blanking).
  public init(size: PixelSize, refreshRate: Int, preferred: Bool = false) {
    var info = drmModeModeInfo()
    info.hdisplay = UInt16(size.width)
    info.vdisplay = UInt16(size.height)
    info.htotal = UInt16(size.width)
    info.vtotal = UInt16(size.height)
    info.vrefresh = UInt32(refreshRate)
    info.clock = UInt32(size.width * size.height * refreshRate / 1000)
    info.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
    self.info = info
  }

  public var size: PixelSize { PixelSize(width: Int(info.hdisplay), height: Int(info.vdisplay)) }
  /// Whole hertz, as the kernel rounds them.
  public var refreshRate: Int { Int(info.vrefresh) }
  /// Seconds between vblanks, from the pixel clock and the totals.
  public var refreshPeriod: Double {
    let total = Double(info.htotal) * Double(info.vtotal)
    guard info.clock > 0, total > 0 else { return 1 / Double(max(info.vrefresh, 60)) }
    return total / (Double(info.clock) * 1000)
  }
  public var preferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
  public var description: String { "\(size.description)@\(refreshRate)" }
}

/// One screen's pipe: a connector, the CRTC driving it, its primary plane.
public struct DRMPipe: Sendable {
  public var connector: UInt32
  public var crtc: UInt32
  public var plane: UInt32?
  public var mode: DRMMode

  public init(connector: UInt32, crtc: UInt32, plane: UInt32?, mode: DRMMode) {
    self.connector = connector
    self.crtc = crtc
    self.plane = plane
    self.mode = mode
  }
}

/// A dumb buffer mapped into this process, registered as a framebuffer.
public final class DRMBuffer {
  public let handle: UInt32
  public let framebuffer: UInt32
  public let size: PixelSize
  /// Bytes a row.
  public let pitch: Int
  public let pixels: UnsafeMutableRawPointer
  /// The bytes mapped.
  public let length: Int

  public init(
    handle: UInt32, framebuffer: UInt32, size: PixelSize, pitch: Int, pixels: UnsafeMutableRawPointer, length: Int
  ) {
    self.handle = handle
    self.framebuffer = framebuffer
    self.size = size
    self.pitch = pitch
    self.pixels = pixels
    self.length = length
  }
}

/// What a CRTC shows: put back when splashd lets go without a program to follow.
public struct DRMCRTCState: Sendable {
  public var crtc: UInt32
  /// The framebuffer it shows (0: none).
  public var framebuffer: UInt32
  public var x: UInt32
  public var y: UInt32
  /// Its mode; nil when it has none (off).
  public var mode: DRMMode?

  public init(crtc: UInt32, framebuffer: UInt32, x: UInt32 = 0, y: UInt32 = 0, mode: DRMMode?) {
    self.crtc = crtc
    self.framebuffer = framebuffer
    self.x = x
    self.y = y
    self.mode = mode
  }

  /// Whether it shows a framebuffer at a mode (not off).
  public var showedSomething: Bool { framebuffer != 0 && mode != nil }
}

/// DRM's fourcc codes (drm_fourcc.h's macros do not reach Swift).
public enum DRMFormat {
  public static let xrgb8888: UInt32 = 0x3432_5258  // "XR24"
  public static let rgb565: UInt32 = 0x3631_4752  // "RG16"
}
