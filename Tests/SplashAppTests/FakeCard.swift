// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem

/// A DRM card in process, on the test clock: connectors the test plugs and
/// unplugs, dumb buffers in memory, CRTCs that show framebuffers, and page
/// flips that complete at the next vblank of a 60 Hz timer (or at once,
/// for a card without a vblank interrupt), their events making a pipe
/// readable as the kernel's make the card's file readable. What the native
/// KMS output did to it is left for the test to look at.
final class FakeCard: DRMCard {
  let path: String
  let descriptor: FileDescriptor
  private let writer: Int32
  private let clock: TestClock
  var modesetting: String { "fake modesetting" }
  var isPresent = true
  /// Its CRTCs and connectors, as the test sets them.
  var crtcs: [UInt32] = [31, 32]
  var connectors: [DRMConnector]
  /// Whether its CRTCs have a vblank interrupt.
  var vblank = true
  /// Whether flips complete (false: their events never come).
  var flipsComplete = true
  /// Whether the kernel has CLOSEFB (a shown framebuffer outlives its file).
  var closesFramebuffers = false
  /// Whether another program holds DRM master.
  var masterElsewhere = false
  /// The panel orientation of connectors, by id.
  var panels: [UInt32: String] = [:]
  /// What each CRTC shows: its framebuffer (0: off).
  private(set) var shown: [UInt32: UInt32] = [:]
  /// The framebuffers alive, and every one ever removed.
  private(set) var framebuffers: Set<UInt32> = []
  /// The render node of its GPU, if it has one.
  var renderNode: String?
  /// Whether dmabufs can be imported (a card of a GPU's driver).
  var importsDmabufs = true
  /// The framebuffers made of a program's dmabufs, by id.
  private(set) var imported: [UInt32: Dmabuf] = [:]
  private(set) var removed: [UInt32] = []
  /// The framebuffers removed while a CRTC showed them (it went dark).
  private(set) var removedWhileShown: [UInt32] = []
  private(set) var isMaster = false
  private(set) var keptOpenAcrossExec = false
  private(set) var modesets: [(crtc: UInt32, framebuffer: UInt32)] = []
  private(set) var flips: [(crtc: UInt32, framebuffer: UInt32, at: Double)] = []
  private var nextID: UInt32 = 100
  private var events: [DRMFlipEvent] = []
  private var sequence: UInt32 = 0
  private var memory: [UInt32: (UnsafeMutableRawPointer, Int)] = [:]

  /// A card with one connected connector, `Virtual-1` (id 41), of `size`;
  /// its CRTC 31 shows the console's framebuffer (`console`) at first.
  init(path: String = "/dev/dri/card0", size: PixelSize = PixelSize(width: 64, height: 48), clock: TestClock) {
    self.path = path
    self.clock = clock
    (descriptor, writer) = nonBlockingPipe()
    connectors = [Self.connector(41, "Virtual-1", size: size, current: 31)]
    shown[31] = Self.console
    framebuffers.insert(Self.console)
  }

  deinit {
    close(writer)
    close(descriptor.rawValue)
    for (pixels, _) in memory.values { pixels.deallocate() }
  }

  /// The fbdev console's framebuffer, shown before the splash.
  static let console: UInt32 = 7

  /// A connected connector of `size` at 60 Hz, driven by `current` if any.
  static func connector(_ id: UInt32, _ name: String, size: PixelSize, current: UInt32? = nil) -> DRMConnector {
    DRMConnector(
      id: id, name: name, connected: true, modes: [DRMMode(size: size, refreshRate: 60, preferred: true)],
      currentCRTC: current, possibleCRTCs: [31, 32])
  }

  /// Another program sets its own framebuffer on `crtc`.
  func otherProgramShows(on crtc: UInt32 = 31) { shown[crtc] = 999 }

  /// What CRTC `crtc` shows.
  func framebuffer(on crtc: UInt32) -> UInt32 { shown[crtc] ?? 0 }

  /// The pixel at (x, y) of framebuffer `id`, as 0xRRGGBB; nil once it is gone.
  func pixel(of id: UInt32, x: Int, y: Int, pitch: Int) -> UInt32? {
    guard let (pixels, _) = memory[id] else { return nil }
    return pixels.load(fromByteOffset: y * pitch + x * 4, as: UInt32.self) & 0xFF_FFFF
  }

  func becomeMaster() throws(DeviceError) {
    guard !masterElsewhere else { throw DeviceError("\(path): cannot become DRM master: another program is") }
    isMaster = true
  }

  func dropMaster() { isMaster = false }
  func keepOpenAcrossExec() { keptOpenAcrossExec = true }

  func layout() throws(DeviceError) -> DRMLayout { DRMLayout(crtcs: crtcs, connectors: connectors) }

  func primaryPlane(forCRTCAt index: Int) -> (id: UInt32, formats: [UInt32])? {
    (51 + UInt32(index), [DRMFormat.xrgb8888])
  }

  func panelOrientation(ofConnector id: UInt32) -> String? { panels[id] }

  /// The card's device number, and the modifiers its planes list with
  /// each of their formats (none: no IN_FORMATS).
  var deviceNumber: UInt64? = 0xE200
  var planeModifiers: [UInt64] = []

  func listedLayouts(ofPlane plane: UInt32) -> [ScanoutLayouts.Layout] {
    planeModifiers.map { ScanoutLayouts.Layout(format: DRMFormat.xrgb8888, modifier: $0) }
  }

  func makeBuffer(_ size: PixelSize, format: UInt32, bitsPerPixel: Int) throws(DeviceError) -> DRMBuffer {
    let pitch = size.width * bitsPerPixel / 8
    let length = pitch * size.height
    let pixels = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
    pixels.initializeMemory(as: UInt8.self, repeating: 0, count: length)
    nextID += 1
    let id = nextID
    memory[id] = (pixels, length)
    framebuffers.insert(id)
    return DRMBuffer(handle: id, framebuffer: id, size: size, pitch: pitch, pixels: pixels, length: length)
  }

  func free(_ buffer: DRMBuffer) {
    removeFramebuffer(buffer.framebuffer)
    unmap(buffer)
  }

  func removeFramebuffer(_ id: UInt32) {
    guard framebuffers.remove(id) != nil else { return }
    removed.append(id)
    // The kernel turns off a plane that shows a framebuffer removed.
    for (crtc, framebuffer) in shown where framebuffer == id {
      shown[crtc] = 0
      removedWhileShown.append(id)
    }
  }

  func release(keepingShown buffer: DRMBuffer) -> Bool {
    unmap(buffer)
    if closesFramebuffers { framebuffers.remove(buffer.framebuffer) }
    return closesFramebuffers
  }

  private func unmap(_ buffer: DRMBuffer) {
    guard let (pixels, _) = memory.removeValue(forKey: buffer.framebuffer) else { return }
    pixels.deallocate()
  }

  func save(crtc id: UInt32) -> DRMCRTCState? {
    let framebuffer = shown[id] ?? 0
    return DRMCRTCState(
      crtc: id, framebuffer: framebuffer, mode: framebuffer == 0 ? nil : connectors.first?.modes.first)
  }

  func restore(_ saved: DRMCRTCState, connector: UInt32) -> Bool {
    guard saved.showedSomething else { return false }
    shown[saved.crtc] = saved.framebuffer
    return true
  }

  func modeset(_ pipe: DRMPipe, showing buffer: DRMBuffer) throws(DeviceError) -> String? {
    guard isMaster else { throw DeviceError("\(path): not DRM master") }
    shown[pipe.crtc] = buffer.framebuffer
    modesets.append((pipe.crtc, buffer.framebuffer))
    return nil
  }

  func hasVblank(crtc: UInt32) -> Bool { vblank }

  /// The CRTCs switched off (DPMS), as the kernel has them.
  private(set) var poweredOff: Set<UInt32> = []

  func setPower(_ pipe: DRMPipe, on: Bool) throws(DeviceError) {
    guard isMaster else { throw DeviceError("\(path): not DRM master") }
    if on { poweredOff.remove(pipe.crtc) } else { poweredOff.insert(pipe.crtc) }
  }

  func flip(_ pipe: DRMPipe, toFramebuffer framebuffer: UInt32, size: PixelSize) throws(DeviceError) {
    guard isMaster else { throw DeviceError("\(path): the flip was refused: not DRM master") }
    // As the kernel: no flip on a CRTC that is not active.
    guard !poweredOff.contains(pipe.crtc) else { throw DeviceError("\(path): the flip was refused: the CRTC is off") }
    guard framebuffers.contains(framebuffer) else { throw DeviceError("\(path): no framebuffer \(framebuffer)") }
    let now = clock.now()
    flips.append((pipe.crtc, framebuffer, now))
    guard flipsComplete else { return }
    let period = pipe.mode.refreshPeriod
    let vblankTime = vblank ? ((now / period).rounded(.down) + 1) * period : now
    let complete = { [self] in
      shown[pipe.crtc] = framebuffer
      sequence += 1
      events.append(DRMFlipEvent(crtc: pipe.crtc, time: vblankTime, sequence: sequence))
      var byte: UInt8 = 1
      _ = write(writer, &byte, 1)
    }
    if vblank { clock.atTime(vblankTime, complete) } else { complete() }
  }

  func importFramebuffer(_ dmabuf: Dmabuf) throws(DeviceError) -> UInt32 {
    guard importsDmabufs else { throw DeviceError("\(path): cannot import the dmabuf") }
    nextID += 1
    framebuffers.insert(nextID)
    imported[nextID] = dmabuf
    return nextID
  }

  func canShow(framebuffer: UInt32, size: PixelSize, on pipe: DRMPipe) -> String? {
    size == pipe.mode.size ? nil : "the plane shows only \(pipe.mode.size.width)x\(pipe.mode.size.height)"
  }

  func readEvents() -> [DRMFlipEvent] {
    while case .bytes = descriptor.readAvailable() {}
    defer { events = [] }
    return events
  }
}

/// Fake cards by path, for the KMS back end to open.
final class FakeCards: @unchecked Sendable {
  var cards: [String: FakeCard] = [:]
  /// The paths each open was asked for, in order.
  private(set) var opened: [String] = []

  /// The native KMS back end over these cards: it drives every card here
  /// with a connected connector (or the one `--device` names).
  var backEnd: BackEnd {
    KMSOutput.backEnd(
      access: DRMCardAccess(
        open: { [self] path throws(DeviceError) in
          opened.append(path)
          guard let card = cards[path], card.isPresent else { throw DeviceError("\(path): No such file or directory") }
          return card
        },
        adopt: { [self] _, path throws(DeviceError) in
          guard let card = cards[path] else { throw DeviceError("\(path): not a KMS device") }
          return card
        },
        exists: { [self] path in cards[path]?.isPresent ?? false }, console: { nil }, framebufferEmulation: nil,
        renderNode: { [self] path in cards[path]?.renderNode }),
      probe: { [self] _ in
        cards.values.contains { $0.isPresent } ? .tried("a fake card") : .skipped("no fake card yet")
      },
      cards: { [self] request throws(RenderError) in
        if let device = request.device { return [device.path] }
        let paths = cards.filter { $0.value.isPresent && $0.value.connectors.contains(where: \.connected) }.keys
        guard !paths.isEmpty else { throw RenderError("no DRM card with a connected connector", named: "") }
        return paths.sorted()
      })
  }
}
