// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Glibc
import SplashCore
import SplashDevices
import SplashSystem

/// Full screen on a DRM card through libdrm alone (no GL, no Mesa): two
/// dumb buffers in the screen's own pixel layout, painted in software by
/// the same painter as a framebuffer, and flipped on vblank. Each frame's
/// flip event carries the kernel's vblank time, which is the vsync the
/// pacer gets. The first connected connector that gets a CRTC is the
/// screen, at its preferred mode or `--mode`.
///
/// What stays on the screen at the end: without a program to follow, what
/// the CRTC showed before (the console). With one, the last frame: DRM
/// master is dropped and the card stays open across `exec` (the kernel
/// turns off a plane whose framebuffer's file is closed), or, where the
/// kernel frees a framebuffer without turning off its plane (CLOSEFB,
/// Linux 6.8), it is freed that way. The last frame is also copied into
/// the card's fbdev emulation, which the kernel shows again once the last
/// file of the card is closed.
public final class KMSOutput: Output {
  public let device: DRMDevice
  /// The connector's name, as `[screen NAME]` spells it ("HDMI-A-1").
  public let connector: String
  public let mode: DRMDevice.Mode
  private let surfacePainter: SurfacePainter
  public var note: (String) -> Void = { _ in }
  private let pipe: DRMDevice.Pipe
  private let buffers: [DRMDevice.DumbBuffer]
  private let surfaces: [UnsafeMutablePointer<SDL_Surface>]
  private let format: (drm: UInt32, sdl: UInt32, name: String)
  private let saved: DRMDevice.SavedCRTC?
  private let console: GraphicsConsole?
  private let clock: EventClock
  /// The buffer on the screen; the other is painted.
  private var shown = 1
  /// Whether the CRTC shows one of the buffers (after the first modeset).
  private var lit = false
  /// Whether a flip was queued and its event has not come.
  private var flipPending = false
  /// Whether the CRTC has a vblank interrupt; without one, flips are timed
  /// by the clock at the mode's refresh. Known once it is lit.
  private var vblank = true
  /// Without a vblank interrupt: the timer's last tick.
  private var lastTick = 0.0
  private var active = true

  /// How long a flip event may take: a refresh is 7–33 ms; a stalled
  /// machine (or an emulator) gets far more before the splash gives up.
  static let flipTimeout = 1.0

  /// The registry's entry: tried when a card has a connected connector, or
  /// `--device` names one.
  public static let backEnd = BackEnd(
    name: "kms",
    help: "Full screen on a DRM card through libdrm alone (no GL): two dumb buffers flipped on vblank, the kernel's "
      + "vblank time pacing the frames; --device picks the card, --mode the mode.",
    probe: { request in DRMCards.probe(request) },
    open: { request throws(RenderError) in
      try KMSOutput(card: try DRMCards.card(for: request), mode: request.mode, clock: request.clock)
    })

  /// Takes the screen of `card` (/dev/dri/cardN): DRM master, the first
  /// connected connector with a CRTC, its mode, two dumb buffers.
  public init(card: String, mode request: DisplayModeRequest?, clock: EventClock) throws(RenderError) {
    self.clock = clock
    do {
      device = try DRMDevice(path: card)
      try device.becomeMaster()
    } catch {
      throw RenderError(error)
    }
    let layout: (crtcs: [UInt32], connectors: [DRMDevice.Connector])
    do {
      layout = try device.layout()
    } catch {
      throw RenderError(error)
    }
    let connected = layout.connectors.filter { $0.connected && !$0.modes.isEmpty }
    guard !connected.isEmpty else { throw RenderError("no connected connector", named: card) }
    let crtcs = CRTCAssignment.assign(
      connected.map { .init(id: $0.id, current: $0.currentCRTC, possible: $0.possibleCRTCs) })
    guard let chosen = connected.first(where: { crtcs[$0.id] != nil }), let crtc = crtcs[chosen.id] else {
      throw RenderError("no CRTC can drive \(connected.map(\.name).joined(separator: ", "))", named: card)
    }
    connector = chosen.name
    let offered = chosen.modes
    if let request {
      guard let match = offered.first(where: { request.matches($0.size, refreshRate: $0.refreshRate) }) else {
        throw RenderError(
          call: "--mode \(request)",
          reason: "\(card) \(chosen.name) has no such mode; it offers "
            + offered.map(\.description).joined(separator: ", "))
      }
      mode = match
    } else {
      mode = offered.first(where: \.preferred) ?? offered[0]
    }
    let crtcIndex = layout.crtcs.firstIndex(of: crtc) ?? 0
    let plane = device.primaryPlane(forCRTCAt: crtcIndex)
    format = try Self.format(scannedOutBy: plane?.formats, card: card, connector: chosen.name)
    pipe = DRMDevice.Pipe(connector: chosen.id, crtc: crtc, plane: plane?.id, mode: mode)
    var buffers: [DRMDevice.DumbBuffer] = []
    var surfaces: [UnsafeMutablePointer<SDL_Surface>] = []
    let bitsPerPixel = format.drm == Self.rgb565 ? 16 : 32
    for _ in 0..<2 {
      do {
        let buffer = try device.makeBuffer(mode.size, format: format.drm, bitsPerPixel: bitsPerPixel)
        buffers.append(buffer)
        guard
          let surface = SDL_CreateRGBSurfaceWithFormatFrom(
            buffer.pixels, Int32(mode.size.width), Int32(mode.size.height), Int32(bitsPerPixel), Int32(buffer.pitch),
            format.sdl)
        else { throw RenderError("SDL_CreateRGBSurfaceWithFormatFrom") }
        surfaces.append(surface)
      } catch {
        for surface in surfaces { SDL_FreeSurface(surface) }
        for buffer in buffers { device.free(buffer) }
        throw error as? RenderError ?? RenderError("\(error)")
      }
    }
    self.buffers = buffers
    self.surfaces = surfaces
    saved = device.save(crtc: crtc)
    console = try? GraphicsConsole()
    surfacePainter = SurfacePainter(target: surfaces[0])
  }

  deinit {
    for surface in surfaces { SDL_FreeSurface(surface) }
  }

  /// XRGB8888, or RGB565 where that is all the primary plane scans out.
  private static func format(scannedOutBy formats: [UInt32]?, card: String, connector: String) throws(RenderError) -> (
    drm: UInt32, sdl: UInt32, name: String
  ) {
    let xrgb8888 = (xrgb8888, SDL_PIXELFORMAT_RGB888.rawValue, "XRGB8888")
    guard let formats, !formats.contains(Self.xrgb8888) else { return xrgb8888 }
    guard formats.contains(Self.rgb565) else {
      throw RenderError(
        "the primary plane of \(connector) scans out neither XRGB8888 nor RGB565 (splashd paints those)", named: card)
    }
    return (rgb565, SDL_PIXELFORMAT_RGB565.rawValue, "RGB565")
  }

  /// DRM's fourcc codes (drm_fourcc.h's macros do not reach Swift).
  static let xrgb8888: UInt32 = 0x3432_5258  // "XR24"
  static let rgb565: UInt32 = 0x3631_4752  // "RG16"

  public var name: String { "kms" }
  public var description: String {
    "\(device.path) \(connector) \(mode.description), \(format.name), \(device.modesetting), "
      + "two dumb buffers page-flipped"
  }
  public var size: PixelSize { mode.size }
  public var sizeIsFixed: Bool { true }
  public var painter: LayerPainter { surfacePainter }
  public var refreshPeriod: Double { mode.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { [device.descriptor] }

  /// Reads flip events that came after their wait gave up.
  public func handleEvents() -> OutputEvents {
    if !device.readEvents().isEmpty { flipPending = false }
    return []
  }

  public func present(_ draw: () -> Void) throws(RenderError) -> Double? {
    guard active else { return nil }
    if flipPending {
      // The last flip's event never came in time: it must land before the
      // buffer it left on the screen is painted again.
      guard !device.waitForFlips(of: [pipe.crtc], timeout: Self.flipTimeout, clock: clock.now).isEmpty else {
        throw RenderError("\(device.path): the display has not completed a page flip in 2 s", named: name)
      }
      flipPending = false
    }
    let back = 1 - shown
    surfacePainter.target = surfaces[back]
    draw()
    guard lit else {
      do {
        if let said = try device.modeset(pipe, showing: buffers[back]) { note(said) }
      } catch {
        throw RenderError(error)
      }
      lit = true
      shown = back
      lastTick = clock.now()
      vblank = device.hasVblank(crtc: pipe.crtc)
      if !vblank {
        note(
          "\(device.path) has no vblank interrupt (its flips complete at once): flips are timed by a "
            + "\(formatNumber((1 / refreshPeriod).rounded())) Hz timer")
      }
      return lastTick
    }
    if !vblank {
      // The next tick of a timer at the mode's refresh, in step with the first frame.
      let now = clock.now()
      var next = lastTick + refreshPeriod
      if next < now { next += ((now - next) / refreshPeriod).rounded(.up) * refreshPeriod }
      var nothing: [pollfd] = []
      _ = clock.poll(&nothing, until: next)
      lastTick = next
    }
    do {
      try device.flip(pipe, to: buffers[back])
    } catch {
      throw RenderError(error)
    }
    let events = device.waitForFlips(of: [pipe.crtc], timeout: Self.flipTimeout, clock: clock.now)
    guard let event = events.last(where: { $0.crtc == pipe.crtc }) else {
      flipPending = true
      note("no page flip event from \(device.path) in \(formatNumber(Self.flipTimeout)) s; pacing by the clock")
      return nil
    }
    shown = back
    // The event's time is on CLOCK_MONOTONIC; the pacer's clock may be
    // another: the vsync is as long ago on it.
    return clock.now() - max(0, MonotonicClock().now() - event.time)
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> [UInt8] {
    try pngData(of: surfaces[shown])
  }

  /// Another program may take the screen: master is dropped.
  public func deactivate() {
    active = false
    device.dropMaster()
    console?.restore()
  }

  /// Master again, and the next frame sets the mode again (the other
  /// program may have set its own).
  public func reactivate() {
    do {
      try device.becomeMaster()
    } catch {
      note("\(error): the splash stays off the screen")
      return
    }
    console?.enterGraphics()
    active = true
    lit = false
  }

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {
    if flipPending { _ = device.waitForFlips(of: [pipe.crtc], timeout: Self.flipTimeout, clock: clock.now) }
    guard keepingLastFrame, lit else {
      if lit, let saved, !device.restore(saved, connector: pipe.connector) {
        note("what \(connector) showed before the splash cannot be put back")
      }
      for buffer in buffers { device.free(buffer) }
      device.dropMaster()
      console?.restore()
      return
    }
    copyLastFrameToFramebufferEmulation()
    device.free(buffers[1 - shown])
    let freedKeepingIt = device.release(keepingShown: buffers[shown])
    device.dropMaster()
    guard !freedKeepingIt else { return }
    // Without CLOSEFB the last frame lasts as long as the card's file: it
    // stays open for the rest of this process and in the program `exec`
    // makes of it, which may set its own mode (master is free).
    device.keepOpenAcrossExec()
    _ = Unmanaged.passRetained(device)
  }

  /// Paints the last frame into the card's fbdev emulation (/dev/fb0 of the
  /// same size), which the kernel shows again when the card's last file
  /// closes: the screen keeps the last frame then too.
  private func copyLastFrameToFramebufferEmulation() {
    let path = Settings.defaultFramebuffer
    guard Files.exists(path), let framebuffer = try? FramebufferDisplay(path: path), framebuffer.size == size else {
      return
    }
    SDL_UpperBlit(surfaces[shown], nil, framebuffer.painter.target, nil)
    framebuffer.device.flush()
  }
}
