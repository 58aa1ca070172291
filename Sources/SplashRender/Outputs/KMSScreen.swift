// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashDevices
import SplashSettings
import SplashSystem

/// One lit connector of the native KMS output: its pipe, its two dumb
/// buffers and their painter, what its CRTC showed before, and where its
/// flips stand.
final class KMSScreen {
  let card: DRMCard
  let name: String
  let pipe: DRMPipe
  let format: (drm: UInt32, sdl: UInt32, name: String)
  let buffers: [DRMBuffer]
  let surfaces: [UnsafeMutablePointer<SDL_Surface>]
  let painter: SurfacePainter
  let saved: DRMCRTCState?
  let panelRotation: Rotation?
  /// The pixel formats its primary plane scans out (none listed: no plane).
  private let planeFormats: [UInt32]
  /// What its primary plane shows as it is (a program's buffer scanned
  /// out), read from the card when first asked (host mode on a GPU, not
  /// the splash's start); nil when the card lists no plane.
  private(set) lazy var scanoutLayouts: ScanoutLayouts? = pipe.plane.flatMap { plane in
    card.deviceNumber.map {
      ScanoutLayouts(device: $0, listed: card.listedLayouts(ofPlane: plane), formats: planeFormats)
    }
  }
  /// The buffer on the screen; the other is painted.
  var front = 1
  /// The frames painted so far, and the one each buffer holds (its number
  /// among them; nil before it is first painted).
  private var framesPainted = 0
  private var paintedFrame: [Int?] = [nil, nil]
  /// When (the run loop's clock) a flip was queued whose event has not
  /// come; nil when none is pending.
  var flipQueuedAt: Double?
  /// Whether a flip was queued and its event has not come.
  var flipPending: Bool { flipQueuedAt != nil }
  /// The framebuffer of a program's buffer the screen shows as it is
  /// (scanned out), if any: its own buffers are off the screen meanwhile.
  private(set) var scannedOut: UInt32?
  /// The program's framebuffer the pending flip goes to; nil when it goes
  /// to the back buffer.
  var flipsToScanout: UInt32?
  /// Whether its mode is still to be set (a screen plugged in later, or
  /// all of them at first and after another program had the card).
  var needsModeset = true

  private init(
    card: DRMCard, name: String, pipe: DRMPipe, format: (drm: UInt32, sdl: UInt32, name: String),
    buffers: [DRMBuffer], surfaces: [UnsafeMutablePointer<SDL_Surface>], saved: DRMCRTCState?, panelRotation: Rotation?,
    planeFormats: [UInt32]
  ) {
    self.card = card
    self.name = name
    self.pipe = pipe
    self.format = format
    self.buffers = buffers
    self.surfaces = surfaces
    self.saved = saved
    self.panelRotation = panelRotation
    self.planeFormats = planeFormats
    painter = SurfacePainter(target: surfaces[0])
  }

  deinit { for surface in surfaces { SDL_FreeSurface(surface) } }

  var size: PixelSize { pipe.mode.size }
  var back: Int { 1 - front }

  /// How many frames ago the buffer painted next was painted (2 once both
  /// have been and flips alternate them; 1 when the last one was not shown);
  /// nil before it was first painted.
  var backFrameAge: Int? { paintedFrame[back].map { framesPainted - $0 } }

  /// Notes that the buffer painted next was painted as the newest frame.
  func paintedBack() {
    paintedFrame[back] = framesPainted
    framesPainted += 1
  }

  /// Notes that a frame was shown that neither buffer holds (a program's
  /// buffer scanned out): both are a frame older.
  func scannedOutAFrame() { framesPainted += 1 }

  /// The pending flip is done: the screen shows what it went to. A
  /// program's framebuffer no longer shown is removed (its buffer goes
  /// back to its program).
  func flipped() {
    flipQueuedAt = nil
    let previous = scannedOut
    if let next = flipsToScanout {
      scannedOut = next
      flipsToScanout = nil
    } else {
      front = back
      scannedOut = nil
    }
    if let previous, previous != scannedOut { card.removeFramebuffer(previous) }
  }

  /// The screen of `connector` driven by `crtc` (of the card's `crtcs`):
  /// its mode (`--mode` on the first screen, or on any that offers it; else
  /// its preferred one), its format, its buffers.
  static func light(
    _ connector: DRMConnector, named name: String, crtc: UInt32, crtcs: [UInt32], card: DRMCard,
    mode request: DisplayModeRequest?, first: Bool
  ) throws(RenderError) -> KMSScreen {
    let offered = connector.modes
    var mode = offered.first(where: \.preferred) ?? offered[0]
    if let request {
      if let match = offered.first(where: { request.matches($0.size, refreshRate: $0.refreshRate) }) {
        mode = match
      } else if first {
        throw RenderError(
          call: "--mode \(request)",
          reason: "\(card.path) \(connector.name) has no such mode; it offers "
            + offered.map(\.description).joined(separator: ", "))
      }
    }
    let plane = card.primaryPlane(forCRTCAt: crtcs.firstIndex(of: crtc) ?? 0)
    let format = try Self.format(scannedOutBy: plane?.formats, card: card.path, connector: connector.name)
    let bitsPerPixel = format.drm == DRMFormat.rgb565 ? 16 : 32
    var buffers: [DRMBuffer] = []
    var surfaces: [UnsafeMutablePointer<SDL_Surface>] = []
    for _ in 0..<2 {
      do {
        let buffer = try card.makeBuffer(mode.size, format: format.drm, bitsPerPixel: bitsPerPixel)
        buffers.append(buffer)
        guard
          let surface = SDL_CreateRGBSurfaceWithFormatFrom(
            buffer.pixels, Int32(mode.size.width), Int32(mode.size.height), Int32(bitsPerPixel), Int32(buffer.pitch),
            format.sdl)
        else { throw RenderError("SDL_CreateRGBSurfaceWithFormatFrom") }
        surfaces.append(surface)
      } catch {
        for surface in surfaces { SDL_FreeSurface(surface) }
        for buffer in buffers { card.free(buffer) }
        if let error = error as? DeviceError { throw RenderError(error) }
        throw error as? RenderError ?? RenderError("\(error)", named: card.path)
      }
    }
    return KMSScreen(
      card: card, name: name, pipe: DRMPipe(connector: connector.id, crtc: crtc, plane: plane?.id, mode: mode),
      format: format, buffers: buffers, surfaces: surfaces, saved: card.save(crtc: crtc),
      panelRotation: card.panelOrientation(ofConnector: connector.id).flatMap(panelOrientationRotation),
      planeFormats: plane?.formats ?? [])
  }

  /// XRGB8888, or RGB565 where that is all the primary plane scans out.
  private static func format(scannedOutBy formats: [UInt32]?, card: String, connector: String) throws(RenderError) -> (
    drm: UInt32, sdl: UInt32, name: String
  ) {
    let xrgb8888 = (DRMFormat.xrgb8888, SDL_PIXELFORMAT_RGB888.rawValue, "XRGB8888")
    guard let formats, !formats.contains(DRMFormat.xrgb8888) else { return xrgb8888 }
    guard formats.contains(DRMFormat.rgb565) else {
      throw RenderError(
        "the primary plane of \(connector) scans out neither XRGB8888 nor RGB565 (splashd paints those)", named: card)
    }
    return (DRMFormat.rgb565, SDL_PIXELFORMAT_RGB565.rawValue, "RGB565")
  }

  /// Lights the connected connectors of `card` that are not among
  /// `existing` (its screens lit already, whose CRTCs are taken): its new
  /// screens, and the connectors left dark with why. With `first`, the
  /// first screen's failure is the whole output's. Screens are named by
  /// their connectors alone on the first card (`plainNames`), else
  /// `cardN-NAME`.
  static func screens(
    of card: DRMCard, layout: DRMLayout, request: OutputRequest, first: Bool, plainNames: Bool,
    besides existing: [KMSScreen]
  ) throws(RenderError) -> ([KMSScreen], [String]) {
    let path = card.path
    let taken = Set(existing.map(\.pipe.crtc))
    let connected = layout.connectors.filter {
      $0.connected && !$0.modes.isEmpty && !existing.map(\.pipe.connector).contains($0.id)
    }
    guard !connected.isEmpty else {
      guard existing.isEmpty else { return ([], []) }
      throw RenderError("no connected connector", named: path)
    }
    /// How the screens of cards after the first are named: "card1-HDMI-A-1".
    func named(_ connector: DRMConnector) -> String {
      guard !plainNames, let number = DRMCards.cardNumber(ofDevice: path) else { return connector.name }
      return "card\(number)-\(connector.name)"
    }
    let wanted = connected.filter { ScreenSettings.named(named($0), in: request.screens).enable != false }
    guard !wanted.isEmpty || !existing.isEmpty else {
      throw RenderError(
        "every connected connector (\(connected.map(\.name).joined(separator: ", "))) has enable = no", named: path)
    }
    let crtcs = CRTCAssignment.assign(
      wanted.map {
        .init(
          id: $0.id, current: $0.currentCRTC.flatMap { taken.contains($0) ? nil : $0 },
          possible: $0.possibleCRTCs.filter { !taken.contains($0) })
      })
    var lit: [KMSScreen] = []
    var leftOut = connected.filter { !wanted.map(\.id).contains($0.id) }.map { "\(named($0)) (enable = no)" }
    for connector in wanted {
      guard let crtc = crtcs[connector.id] else {
        guard !lit.isEmpty || !first else { throw RenderError("no CRTC can drive \(connector.name)", named: path) }
        leftOut.append("\(named(connector)) (no CRTC left)")
        continue
      }
      do {
        lit.append(
          try light(
            connector, named: named(connector), crtc: crtc, crtcs: layout.crtcs, card: card, mode: request.mode,
            first: first && lit.isEmpty))
      } catch {
        // The first screen is the splash's; another that fails stays dark.
        guard !lit.isEmpty || !first else { throw error }
        leftOut.append("\(named(connector)) (\(error))")
      }
    }
    return (lit, leftOut)
  }
}
