// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashCore
import SplashSystem
import SplashWaylandHost

@testable import SplashApp

/// Host mode's compositor stood in for, in process: what the program
/// "commits" is said by the test (`commit`), and what splashd asked of it
/// is kept for the test to look at. Its descriptor (a pipe) turns
/// readable when the test has something to dispatch, as the real one's
/// event loop does when a client sent something.
final class FakeWaylandHost: WaylandHosting {
  let descriptor: FileDescriptor
  private let writer: Int32
  /// The first screen's size (what screencopy clients would see).
  let screen: PixelSize
  /// The program's window's size, as splashd configured it (the last resize).
  private(set) var window: PixelSize
  /// Every size the window was configured at after it was made.
  private(set) var resizes: [PixelSize] = []
  /// What happened since the last dispatch.
  private var pending: WaylandHostEvents = []
  /// The program's current frame: XRGB pixels of its size, and the GPU
  /// buffer they are in when the program rendered with the GPU.
  private var current: (pixels: [UInt32], size: PixelSize, hasAlpha: Bool, dmabuf: Dmabuf?)?
  /// The frame splashd holds (drawn from where it lies).
  private var held: (pixels: [UInt32], size: PixelSize, hasAlpha: Bool, dmabuf: Dmabuf?)?
  /// The GPU buffer the screen shows as it is (splashd said so), if any.
  private(set) var shownDmabuf: Dmabuf?
  /// How many times splashd said the screen shows its own frames again.
  private(set) var composedAgain = 0
  /// What changed since the frame held last: nil when all of it may have.
  private var pendingDamage: PixelRect? = nil
  private var pendingWhole = true
  private(set) var heldFrameDamage: PixelRect?
  /// The connected clients' processes; nil stands for the program's own
  /// connection.
  var clients: [pid_t?] = []
  /// The connections made for the program (WAYLAND_SOCKET), one a start;
  /// the other ends are kept open here.
  private(set) var connections = 0
  private var kept: [FileDescriptor] = []
  /// Told each time a connection is made for the program (a start or a restart).
  var onConnect: (FakeWaylandHost) -> Void = { _ in }
  /// How many frames splashd said were presented.
  private(set) var framesDone = 0
  /// Whether input is withheld from the windows (a question is asked).
  private(set) var inputWithheld = false
  /// The touch maps splashd gave, the last first.
  private(set) var inputMaps: [(standard: AffineMap, screens: [(name: String, map: AffineMap?)])] = []

  /// The render node it was made with (the GPU the program renders with).
  let renderNode: String?
  /// How many times the held frame's pixels were read (a GPU buffer's
  /// are read back to be).
  private(set) var heldFrameReads = 0

  init(size: PixelSize, screen: PixelSize, renderNode: String? = nil) {
    self.renderNode = renderNode
    var ends: [Int32] = [0, 0]
    precondition(pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0)
    descriptor = FileDescriptor(rawValue: ends[0])
    writer = ends[1]
    window = size
    self.screen = screen
  }

  deinit {
    for file in composedFiles { try? file.close() }
    close(writer)
    try? descriptor.close()
    for end in kept { try? end.close() }
  }

  // MARK: What the test makes happen

  /// The program commits a frame of `color` (XRGB; with `hasAlpha`, ARGB:
  /// 0 is nothing at all) at `size` (the window's when not given); with
  /// `damage`, only that part of its frame before changes to `color`, and
  /// it says so.
  func commit(color: UInt32, size: PixelSize? = nil, hasAlpha: Bool = false, damage: PixelRect? = nil) {
    let size = size ?? window
    if let damage, var frame = current, frame.size == size, frame.dmabuf == nil {
      for y in max(damage.y, 0)..<min(damage.y + damage.height, size.height) {
        for x in max(damage.x, 0)..<min(damage.x + damage.width, size.width) {
          frame.pixels[y * size.width + x] = color
        }
      }
      current = frame
      pendingDamage = pendingDamage.map { $0.union(damage) } ?? damage
    } else {
      current = ([UInt32](repeating: color, count: size.width * size.height), size, hasAlpha, nil)
      pendingWhole = true
    }
    note(.newBuffer)
  }

  /// The program commits a frame of `color` it rendered with the GPU: a
  /// dmabuf (of `format`, the window's size when `size` is not given)
  /// whose plane is `descriptor` (a test's file: its number stands for
  /// the buffer). `patterned`: each pixel `color` with its column in red
  /// and its row in green, so that a turn shows.
  func commitDmabuf(
    color: UInt32, descriptor: Int32, size: PixelSize? = nil, format: UInt32 = Dmabuf.xrgb8888,
    patterned: Bool = false
  ) {
    let size = size ?? window
    let dmabuf = Dmabuf(
      size: size, format: format, modifier: Dmabuf.invalidModifier,
      planes: [Dmabuf.Plane(descriptor: descriptor, offset: 0, stride: UInt32(size.width * 4))])
    let pixels = (0..<size.width * size.height).map { index in
      patterned ? color | UInt32(index % size.width & 0xFF) << 16 | UInt32(index / size.width & 0xFF) << 8 : color
    }
    current = (pixels, size, format == Dmabuf.argb8888, dmabuf)
    pendingWhole = true
    note(.newBuffer)
  }

  /// Every client's connection closes: the program's window goes, and
  /// the frame held is kept as pixels (its GPU buffer goes with its client).
  func disconnectAll() {
    clients = []
    current = nil
    held = held.map { ($0.pixels, $0.size, $0.hasAlpha, nil) }
    note(.clientGone)
  }

  /// A client of process `pid` (nil: the program's own connection) connects.
  func connect(_ pid: pid_t?) {
    clients.append(pid)
    note(.clientCame)
  }

  private func note(_ events: WaylandHostEvents) {
    pending.formUnion(events)
    var byte: UInt8 = 1
    _ = write(writer, &byte, 1)
  }

  // MARK: WaylandHosting

  func dispatch() -> WaylandHostEvents {
    var byte: UInt8 = 0
    while read(descriptor.rawValue, &byte, 1) == 1 {}
    defer { pending = [] }
    return pending
  }

  func serve(_ listener: FileDescriptor) throws(SystemError) { kept.append(listener) }

  func connectClient() throws(SystemError) -> FileDescriptor {
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      throw SystemError("socketpair", code: errno)
    }
    kept.append(FileDescriptor(rawValue: ends[0]))
    connections += 1
    clients.append(nil)
    onConnect(self)
    return FileDescriptor(rawValue: ends[1])
  }

  func holdCurrentFrame() -> Bool {
    guard let current else { return false }
    heldFrameDamage =
      pendingWhole || held?.size != current.size ? nil : pendingDamage ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
    pendingDamage = nil
    pendingWhole = false
    held = current
    return true
  }

  func withHeldFrame<Result, Failure: Error>(_ body: (HostedBuffer) throws(Failure) -> Result) throws(Failure)
    -> Result?
  {
    guard let held else { return nil }
    heldFrameReads += 1
    var result: Swift.Result<Result, Failure>?
    held.pixels.withUnsafeBytes { bytes in
      result = Swift.Result { () throws(Failure) -> Result in
        try body(
          HostedBuffer(
            pixels: bytes.baseAddress!, size: held.size, stride: held.size.width * 4, hasAlpha: held.hasAlpha))
      }
    }
    return try result?.get()
  }

  func dropHeldFrame() { held = nil }

  var heldDmabuf: Dmabuf? { held?.dmabuf }

  func shownAsIs() { shownDmabuf = held?.dmabuf }

  func shownComposed() {
    if shownDmabuf != nil { composedAgain += 1 }
    shownDmabuf = nil
  }

  @discardableResult func showScreen(_ screen: HostedBuffer) -> Bool { true }
  func failScreenCopies() {}
  func takeInputDevices(keyboardLayout layout: KeyboardLayout) throws(SystemError) {}
  func withholdInput(_ withheld: Bool) { inputWithheld = withheld }
  var windowCount: Int { current == nil ? 0 : 1 }

  func startXwayland(lettingIn user: String?) throws(SystemError) -> String {
    throw SystemError("Xwayland", code: ENOSYS)
  }

  var clientProcesses: [pid_t?] { clients }

  func resizeWindow(to size: PixelSize) {
    window = size
    resizes.append(size)
  }

  func mapInput(standard: AffineMap, screens: [(name: String, map: AffineMap?)]) {
    inputMaps.insert((standard, screens), at: 0)
  }

  func frameDone(at monotonic: Double, refreshPeriod: Double) { framesDone += 1 }

  // MARK: Composing on the GPU (stood in: drawn here, in memory, as GL
  // blends: pictures premultiplied when uploaded, then ONE,
  // ONE_MINUS_SRC_ALPHA)

  /// Whether frames can be composed (with a render node); false makes each
  /// `beginComposing` fail.
  var composes = true
  var composesOnGPU: Bool { renderNode != nil }
  /// The pictures uploaded and not let go of: XRGB, or premultiplied ARGB.
  private(set) var pictures: [Int32: (pixels: [UInt32], size: PixelSize, hasAlpha: Bool)] = [:]
  private var lastPicture: Int32 = 0
  /// The frame being composed.
  private var composing: (pixels: [UInt32], size: PixelSize)?
  /// The buffers composed frames go round (files: their descriptors stand
  /// for them), and what each shows now.
  private var composedFiles: [FileDescriptor] = []
  private(set) var composed: [Int32: (pixels: [UInt32], size: PixelSize)] = [:]
  /// How many frames were composed.
  private(set) var framesComposed = 0

  func beginComposing(size: PixelSize) -> Bool {
    guard composesOnGPU, composes, held?.dmabuf != nil, composing == nil else { return false }
    composing = ([UInt32](repeating: 0, count: size.width * size.height), size)
    return true
  }

  func composeFill(_ rect: Rect, with color: Color, alpha: Double) {
    let pixel = UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
    compose(into: rect, alpha: alpha) { _, _ in (pixel, 1) }
  }

  func composePicture(_ picture: Int32, source: PixelRect, placement: AffineMap, alpha: Double) {
    let from: (pixels: [UInt32], size: PixelSize, hasAlpha: Bool)? =
      picture == heldFramePicture ? held.map { ($0.pixels, $0.size, false) } : pictures[picture]
    guard let from else { return }
    // Where the unit square lies, and, at a target pixel's centre, the
    // point of the square there (the placement undone: a quarter-turned
    // rectangle's map is invertible when its sides are not 0).
    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map { placement.apply($0.0, $0.1) }
    let (left, top) = (corners.map(\.x).min() ?? 0, corners.map(\.y).min() ?? 0)
    let bounds = Rect(
      x: left, y: top, width: (corners.map(\.x).max() ?? 0) - left, height: (corners.map(\.y).max() ?? 0) - top)
    let determinant = placement.a * placement.e - placement.b * placement.d
    guard determinant != 0 else { return }
    // Nearest pixel: the source pixel under each target pixel's centre.
    compose(into: bounds, alpha: alpha) { x, y in
      let (dx, dy) = (x - placement.c, y - placement.f)
      let u = (placement.e * dx - placement.b * dy) / determinant
      let v = (placement.a * dy - placement.d * dx) / determinant
      let sx = min(max(Int(Double(source.x) + u * Double(source.width)), 0), from.size.width - 1)
      let sy = min(max(Int(Double(source.y) + v * Double(source.height)), 0), from.size.height - 1)
      let pixel = from.pixels[sy * from.size.width + sx]
      return (pixel & 0xFF_FFFF, from.hasAlpha ? Double(pixel >> 24) / 255 : 1)
    }
  }

  /// Blends what `sample` gives (a premultiplied pixel and its own opacity,
  /// at a target pixel's centre) into `rect` of the frame being composed,
  /// at `alpha`: the pixel times `alpha` over what lies under it times one
  /// less the pixel's opacity times `alpha`.
  private func compose(into rect: Rect, alpha: Double, _ sample: (Double, Double) -> (UInt32, Double)) {
    guard var frame = composing else { return }
    let size = frame.size
    let (x0, x1) = (max(Int(rect.x.rounded()), 0), min(Int((rect.x + rect.width).rounded()), size.width))
    let (y0, y1) = (max(Int(rect.y.rounded()), 0), min(Int((rect.y + rect.height).rounded()), size.height))
    // A rectangle wholly off the frame draws nothing (no backwards range).
    guard x1 > x0, y1 > y0 else { return }
    for y in y0..<y1 {
      for x in x0..<x1 {
        let (pixel, own) = sample(Double(x) + 0.5, Double(y) + 0.5)
        let under = frame.pixels[y * size.width + x]
        func channel(_ shift: UInt32) -> UInt32 {
          let mixed = Double(pixel >> shift & 0xFF) * alpha + Double(under >> shift & 0xFF) * (1 - own * alpha)
          return UInt32(min(mixed.rounded(), 255)) << shift
        }
        frame.pixels[y * size.width + x] = channel(16) | channel(8) | channel(0)
      }
    }
    composing = frame
  }

  func endComposing() -> Dmabuf? {
    guard let frame = composing else { return nil }
    composing = nil
    if composedFiles.isEmpty {
      composedFiles = (0..<3).map { _ in FileDescriptor(rawValue: open("/dev/null", O_RDONLY | O_CLOEXEC)) }
    }
    let file = composedFiles[framesComposed % composedFiles.count].rawValue
    framesComposed += 1
    composed[file] = frame
    return Dmabuf(
      size: frame.size, format: Dmabuf.xrgb8888, modifier: Dmabuf.invalidModifier,
      planes: [Dmabuf.Plane(descriptor: file, offset: 0, stride: UInt32(frame.size.width * 4))])
  }

  func uploadPicture(_ buffer: HostedBuffer) -> Int32? {
    // As wlroots, which makes no texture while it renders.
    guard composing == nil else { return nil }
    var pixels: [UInt32] = []
    for row in 0..<buffer.size.height {
      let line = (buffer.pixels + row * buffer.stride).assumingMemoryBound(to: UInt32.self)
      pixels += UnsafeBufferPointer(start: line, count: buffer.size.width)
    }
    if buffer.hasAlpha {
      pixels = pixels.map { pixel in
        let alpha = pixel >> 24
        let times = { (channel: UInt32) in (channel * alpha + 127) / 255 }
        return alpha << 24 | times(pixel >> 16 & 0xFF) << 16 | times(pixel >> 8 & 0xFF) << 8 | times(pixel & 0xFF)
      }
    }
    lastPicture += 1
    pictures[lastPicture] = (pixels, buffer.size, buffer.hasAlpha)
    return lastPicture
  }

  func releasePicture(_ picture: Int32) { pictures[picture] = nil }

  /// What was last offered for scan-out (`offerScanout`), as the GPU
  /// variant keeps it; nil before any offer.
  private(set) var offeredScanout: ScanoutLayouts?

  func offerScanout(_ layouts: ScanoutLayouts) -> Int {
    guard composesOnGPU else { return 0 }
    offeredScanout = layouts
    return layouts.layouts.count
  }

  // MARK: Input and idling

  /// Whether a client holds an idle inhibitor (a change is a dispatch's).
  var idleInhibited = false {
    didSet { if idleInhibited != oldValue { note(.idleInhibition) } }
  }
  /// Whether the focused field takes text (a change is a dispatch's).
  var textFieldActive = false {
    didSet { if textFieldActive != oldValue { note(.textField) } }
  }
  /// Input that came while it was withheld, and input that reached the
  /// program, in presses.
  private(set) var withheldPresses = 0
  private(set) var deliveredPresses = 0

  /// A touch (or a key) from the machine: the program gets it unless input
  /// is withheld; the dispatch says input came either way.
  func press() {
    if inputWithheld { withheldPresses += 1 } else { deliveredPresses += 1 }
    note(.input)
  }

  // MARK: Pings

  /// Whether the program stopped answering: a ping then goes unanswered,
  /// and its timeout (on `clock`) is a dispatch's `pingMissed`.
  var frozen = false
  /// The test's clock, for the pings' timeouts; without it no ping misses.
  var clock: TestClock?
  /// When each ping went out.
  private(set) var pings: [Double] = []
  /// Whether a ping awaits its pong (as wlroots sends no second meanwhile).
  private var awaiting = false

  func ping(within timeout: Double) -> Bool {
    guard current != nil, let clock else { return false }
    guard !awaiting else { return true }
    pings.append(clock.now())
    guard frozen else { return true }
    awaiting = true
    clock.atTime(clock.now() + timeout) { [weak self] in
      guard let self, awaiting else { return }
      awaiting = false
      if frozen { note(.pingMissed) }
    }
    return true
  }
}
