// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Glibc
import SplashCore
import SplashDevices
import SplashSystem

/// Full screen on DRM cards through libdrm alone (no GL, no Mesa): every
/// connected connector of every card with one (or of the card `--device`
/// names) that gets a CRTC, and is not switched off by its `[screen NAME]`
/// section, is a screen at its own mode, with two dumb
/// buffers in its own pixel layout, painted in software by the same painter
/// as a framebuffer and flipped on vblank. The first screen's flip events
/// carry the kernel's vblank time, which is the vsync the pacer gets; the
/// others flip with it.
///
/// What stays on the screens at the end: without a program to follow, what
/// each CRTC showed before (the console). With one, the last frame: DRM
/// master is dropped and the card stays open across `exec` (the kernel
/// turns off a plane whose framebuffer's file is closed), or, where the
/// kernel frees a framebuffer without turning off its plane (CLOSEFB,
/// Linux 6.8), it is freed that way. The first screen's last frame is also
/// copied into the card's fbdev emulation, which the kernel shows again
/// once the last file of the card is closed.
public final class KMSOutput: Output {
  /// The first card (the first screen's): what `--device` names, or the
  /// lowest-numbered card with a connected connector.
  public var device: DRMDevice { lit[0].device }
  /// Every card driven, the first screen's first.
  private var cards: [DRMDevice]
  /// What it was opened with (for screens plugged in later).
  private let request: OutputRequest
  public var note: (String) -> Void = { _ in }
  private var lit: [Screen]
  private let clock: EventClock
  /// The VT, in graphics mode while the splash shows.
  private let console: GraphicsConsole?
  /// Screens connected but left dark, and why (for the description).
  private var leftOut: [String]
  private var active = true
  /// Whether the CRTCs show the buffers (after the first modeset).
  private var shown = false
  /// Whether the first screen's CRTC has a vblank interrupt; without one,
  /// flips are timed by the clock at its mode's refresh. Known once lit.
  private var vblank = true
  /// Without a vblank interrupt: the timer's last tick.
  private var lastTick = 0.0
  /// Whether the cards came from another splashd (`handover`): what their
  /// CRTCs showed was its frame, not the console's.
  private let adopted: Bool
  /// The first screen's last frame, kept on its CRTC by this process's
  /// open card (no CLOSEFB): its framebuffer id, until another program shows one.
  private var keptFrame: (card: DRMDevice, crtc: UInt32, framebuffer: UInt32)?
  /// Why a card that appeared could not be lit, last time it was looked at.
  private var lastRefusal: String?

  /// How long a flip event may take: a refresh is 7–33 ms; a stalled
  /// machine (or an emulator) gets far more before the splash gives up.
  static let flipTimeout = 1.0

  /// One lit connector: its pipe, its two buffers and their painter.
  final class Screen {
    let device: DRMDevice
    let name: String
    let pipe: DRMDevice.Pipe
    let format: (drm: UInt32, sdl: UInt32, name: String)
    let buffers: [DRMDevice.DumbBuffer]
    let surfaces: [UnsafeMutablePointer<SDL_Surface>]
    let painter: SurfacePainter
    let saved: DRMDevice.SavedCRTC?
    let panelRotation: Rotation?
    /// The buffer on the screen; the other is painted.
    var front = 1
    /// Whether a flip was queued and its event has not come.
    var flipPending = false
    /// Whether its mode is still to be set (a screen plugged in later, or
    /// all of them at first and after another program had the card).
    var needsModeset = true

    init(
      device: DRMDevice, name: String, pipe: DRMDevice.Pipe, format: (drm: UInt32, sdl: UInt32, name: String),
      buffers: [DRMDevice.DumbBuffer], surfaces: [UnsafeMutablePointer<SDL_Surface>], saved: DRMDevice.SavedCRTC?,
      panelRotation: Rotation?
    ) {
      self.device = device
      self.name = name
      self.pipe = pipe
      self.format = format
      self.buffers = buffers
      self.surfaces = surfaces
      self.saved = saved
      self.panelRotation = panelRotation
      painter = SurfacePainter(target: surfaces[0])
    }

    deinit { for surface in surfaces { SDL_FreeSurface(surface) } }

    var size: PixelSize { pipe.mode.size }
    var back: Int { 1 - front }
  }

  /// The registry's entry: tried when a card has a connected connector, or
  /// `--device` names one.
  public static let backEnd = BackEnd(
    name: "kms",
    help: "Full screen on every connected screen of a DRM card through libdrm alone (no GL): two dumb buffers "
      + "each, flipped on vblank, the kernel's vblank time pacing the frames; --device picks the card, --mode the "
      + "mode, [screen NAME] sections turn or switch off single screens.",
    probe: { request in DRMCards.probe(request) },
    open: { request throws(RenderError) in
      try KMSOutput(cards: try DRMCards.cards(for: request), request: request)
    })

  /// Takes the screens of `cards` (/dev/dri/cardN): DRM master of each,
  /// each connected connector with a CRTC at its mode, two dumb buffers
  /// each. The first card must give a screen; another that cannot is left
  /// dark, and said so in the description.
  public convenience init(cards paths: [String], request: OutputRequest) throws(RenderError) {
    try self.init(paths.map { .path($0) }, request: request)
  }

  /// Takes the screens of `cards` as another splashd handed them over
  /// (`OutputHandover`): the same cards, open and master, what they show
  /// staying until this output's first frame replaces it.
  public convenience init(adopting cards: [(path: String, descriptor: FileDescriptor)], request: OutputRequest)
    throws(RenderError)
  {
    try self.init(cards.map { .adopted($0.path, $0.descriptor) }, request: request)
  }

  /// A card to drive: opened here, or handed over already open.
  private enum Card {
    case path(String)
    case adopted(String, FileDescriptor)

    var path: String {
      switch self {
      case .path(let path), .adopted(let path, _): return path
      }
    }

    func device() throws(RenderError) -> DRMDevice {
      do {
        switch self {
        case .path(let path): return try DRMDevice(path: path)
        case .adopted(let path, let descriptor): return try DRMDevice(adopting: descriptor, path: path)
        }
      } catch {
        throw RenderError(error)
      }
    }
  }

  private init(_ sources: [Card], request: OutputRequest) throws(RenderError) {
    precondition(!sources.isEmpty, "no card")
    clock = request.clock
    self.request = request
    var cards: [DRMDevice] = []
    var lit: [Screen] = []
    var leftOut: [String] = []
    for source in sources {
      do {
        let (card, screens, dark) = try Self.open(try source.device(), request: request, first: lit.isEmpty)
        cards.append(card)
        lit += screens
        leftOut += dark
      } catch {
        // The first card is the splash's; another that fails stays dark.
        guard !lit.isEmpty else { throw error }
        leftOut.append("\(source.path) (\(error))")
      }
    }
    self.cards = cards
    self.lit = lit
    self.leftOut = leftOut
    adopted = sources.contains { if case .adopted = $0 { true } else { false } }
    console = try? GraphicsConsole()
  }

  /// Opens `path` as master and lights its screens: the card, its screens,
  /// and its connected connectors left dark with why.
  private static func open(_ path: String, request: OutputRequest, first: Bool) throws(RenderError) -> (
    DRMDevice, [Screen], [String]
  ) {
    try open(try Card.path(path).device(), request: request, first: first)
  }

  /// Becomes master of `device` and lights its screens.
  private static func open(_ device: DRMDevice, request: OutputRequest, first: Bool) throws(RenderError) -> (
    DRMDevice, [Screen], [String]
  ) {
    let path = device.path
    do {
      try device.becomeMaster()
    } catch {
      throw RenderError(error)
    }
    let layout: DRMDevice.Layout
    do {
      layout = try device.layout()
    } catch {
      throw RenderError(error)
    }
    let (lit, leftOut) = try screens(
      of: device, layout: layout, request: request, first: first, plainNames: first, besides: [])
    guard !lit.isEmpty else { throw RenderError("no screen can be lit", named: path) }
    return (device, lit, leftOut)
  }

  /// Lights the connected connectors of `device` that are not among
  /// `existing` (its screens lit already, whose CRTCs are taken): its new
  /// screens, and the connectors left dark with why. With `first`, the
  /// first screen's failure is the whole output's. Screens are named by
  /// their connectors alone on the first card (`plainNames`), else
  /// `cardN-NAME`.
  private static func screens(
    of device: DRMDevice, layout: DRMDevice.Layout, request: OutputRequest, first: Bool, plainNames: Bool,
    besides existing: [Screen]
  ) throws(RenderError) -> ([Screen], [String]) {
    let path = device.path
    let card = path
    let taken = Set(existing.map(\.pipe.crtc))
    let connected = layout.connectors.filter {
      $0.connected && !$0.modes.isEmpty && !existing.map(\.pipe.connector).contains($0.id)
    }
    guard !connected.isEmpty else {
      guard existing.isEmpty else { return ([], []) }
      throw RenderError("no connected connector", named: card)
    }
    /// How the screens of cards after the first are named: "card1-HDMI-A-1".
    func named(_ connector: DRMDevice.Connector) -> String {
      guard !plainNames, let number = DRMCards.cardNumber(ofDevice: path) else { return connector.name }
      return "card\(number)-\(connector.name)"
    }
    let wanted = connected.filter { ScreenSettings.named(named($0), in: request.screens).enable != false }
    guard !wanted.isEmpty || !existing.isEmpty else {
      throw RenderError(
        "every connected connector (\(connected.map(\.name).joined(separator: ", "))) has enable = no", named: card)
    }
    let crtcs = CRTCAssignment.assign(
      wanted.map {
        .init(
          id: $0.id, current: $0.currentCRTC.flatMap { taken.contains($0) ? nil : $0 },
          possible: $0.possibleCRTCs.filter { !taken.contains($0) })
      })
    var lit: [Screen] = []
    var leftOut = connected.filter { !wanted.map(\.id).contains($0.id) }.map { "\(named($0)) (enable = no)" }
    for connector in wanted {
      guard let crtc = crtcs[connector.id] else {
        guard !lit.isEmpty || !first else { throw RenderError("no CRTC can drive \(connector.name)", named: card) }
        leftOut.append("\(named(connector)) (no CRTC left)")
        continue
      }
      do {
        lit.append(
          try Self.light(
            connector, named: named(connector), crtc: crtc, crtcs: layout.crtcs, device: device, mode: request.mode,
            first: first && lit.isEmpty))
      } catch {
        // The first screen is the splash's; another that fails stays dark.
        guard !lit.isEmpty || !first else { throw error }
        leftOut.append("\(named(connector)) (\(error))")
      }
    }
    return (lit, leftOut)
  }

  /// The screen of `connector` driven by `crtc`: its mode (`--mode` on the
  /// first screen, or on any that offers it; else its preferred one), its
  /// format, its buffers.
  private static func light(
    _ connector: DRMDevice.Connector, named name: String, crtc: UInt32, crtcs: [UInt32], device: DRMDevice,
    mode request: DisplayModeRequest?,
    first: Bool
  ) throws(RenderError) -> Screen {
    let offered = connector.modes
    let preferred = offered.first(where: \.preferred) ?? offered[0]
    var mode = preferred
    if let request {
      if let match = offered.first(where: { request.matches($0.size, refreshRate: $0.refreshRate) }) {
        mode = match
      } else if first {
        throw RenderError(
          call: "--mode \(request)",
          reason: "\(device.path) \(connector.name) has no such mode; it offers "
            + offered.map(\.description).joined(separator: ", "))
      }
    }
    let plane = device.primaryPlane(forCRTCAt: crtcs.firstIndex(of: crtc) ?? 0)
    let format = try Self.format(scannedOutBy: plane?.formats, card: device.path, connector: connector.name)
    let bitsPerPixel = format.drm == Self.rgb565 ? 16 : 32
    var buffers: [DRMDevice.DumbBuffer] = []
    var surfaces: [UnsafeMutablePointer<SDL_Surface>] = []
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
        if let error = error as? DeviceError { throw RenderError(error) }
        throw error as? RenderError ?? RenderError("\(error)", named: device.path)
      }
    }
    let panel = PanelOrientation.orientation(ofConnector: connector.id, on: device.descriptor.rawValue)
    return Screen(
      device: device, name: name,
      pipe: DRMDevice.Pipe(connector: connector.id, crtc: crtc, plane: plane?.id, mode: mode),
      format: format, buffers: buffers, surfaces: surfaces, saved: device.save(crtc: crtc),
      panelRotation: panel.flatMap(panelOrientationRotation))
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

  private var first: Screen { lit[0] }

  public var name: String { "kms" }
  public var description: String {
    let others = lit.dropFirst().map { "\($0.name) \($0.pipe.mode.description) (\($0.format.name))" }
    return "\(device.path) \(first.name) \(first.pipe.mode.description), \(first.format.name), "
      + "\(device.modesetting), two dumb buffers page-flipped"
      + (others.isEmpty ? "" : "; also " + others.joined(separator: ", "))
      + (leftOut.isEmpty ? "" : "; dark: " + leftOut.joined(separator: ", "))
  }
  public var size: PixelSize { first.size }
  public var sizeIsFixed: Bool { true }
  public var deviceNode: String? { device.path }
  public var painter: LayerPainter { first.painter }
  public var refreshPeriod: Double { first.pipe.mode.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { cards.map(\.descriptor) }
  public var handover: OutputHandover? { OutputHandover(cards: cards.map { ($0.path, $0.descriptor) }) }
  public var screens: [OutputScreen] {
    lit.map {
      OutputScreen(
        name: $0.name, size: $0.size, painter: $0.painter, panelRotation: $0.panelRotation,
        mode: $0.pipe.mode.description)
    }
  }

  /// Looks again at the card `node` after a connector was plugged or
  /// unplugged, or the card appeared or went: a newly connected connector
  /// gets a screen (its mode set with the next frame), one unplugged (or
  /// of a card gone) is let go of. The first screen stays whatever
  /// happens. True when the screens changed.
  public func screensChanged(on node: String) -> Bool {
    let card = cards.first { $0.path == node }
    guard Files.exists(node) else {
      guard let card, card !== device else { return false }
      let gone = lit.filter { $0.device === card }
      lit.removeAll { $0.device === card }
      cards.removeAll { $0 === card }
      return !gone.isEmpty
    }
    guard let card else {
      // A card not driven yet: its screens join.
      do {
        let (added, screens, _) = try Self.open(node, request: request, first: false)
        cards.append(added)
        lit += screens
        return true
      } catch {
        // Said once, however often the card is looked at again.
        let said = "\(node) is not lit: \(error)"
        if said != lastRefusal { note(said) }
        lastRefusal = said
        return false
      }
    }
    // Read once: each read of the connectors probes them.
    guard let layout = try? card.layout() else { return false }
    let connected = Set(layout.connectors.filter(\.connected).map(\.id))
    let unplugged = lit.filter { $0.device === card && $0 !== first && !connected.contains($0.pipe.connector) }
    for screen in unplugged { for buffer in screen.buffers { card.free(buffer) } }
    lit.removeAll { screen in unplugged.contains { $0 === screen } }
    let existing = lit.filter { $0.device === card }
    let added =
      (try? Self.screens(
        of: card, layout: layout, request: request, first: false, plainNames: card === device, besides: existing
      ).0) ?? []
    lit += added
    return !unplugged.isEmpty || !added.isEmpty
  }

  /// Reads flip events that came after their wait gave up.
  public func handleEvents() -> OutputEvents {
    for card in cards { record(card.readEvents(), from: card) }
    return []
  }

  /// Marks the screens of `card` whose flips `events` report as flipped.
  @discardableResult
  private func record(_ events: [DRMDevice.FlipEvent], from card: DRMDevice) -> [DRMDevice.FlipEvent] {
    for event in events {
      for screen in lit where screen.device === card && screen.pipe.crtc == event.crtc && screen.flipPending {
        screen.flipPending = false
        screen.front = screen.back
      }
    }
    return events
  }

  /// Waits (one timeout in all) for the pending flips' events; returns the
  /// first screen's, if it came.
  private func awaitFlips() -> DRMDevice.FlipEvent? {
    let deadline = clock.now() + Self.flipTimeout
    var firstEvent: DRMDevice.FlipEvent?
    for card in cards {
      let crtcs = Set(lit.filter { $0.device === card && $0.flipPending }.map(\.pipe.crtc))
      guard !crtcs.isEmpty else { continue }
      let events = record(
        card.waitForFlips(of: crtcs, timeout: max(0, deadline - clock.now()), clock: clock.now), from: card)
      if card === first.device { firstEvent = events.last { $0.crtc == first.pipe.crtc } ?? firstEvent }
    }
    return firstEvent
  }

  /// Draws the first screen only; the others keep what they show.
  public func present(_ draw: () -> Void) throws(RenderError) -> Double? {
    try presentScreens { if $0 == 0 { draw() } }
  }

  public func presentScreens(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    guard active else { return nil }
    if lit.contains(where: \.flipPending) {
      // A flip's event never came in time: it must land before the buffer
      // it left on the screen is painted again.
      _ = awaitFlips()
      if let stuck = lit.first(where: \.flipPending) {
        throw RenderError(
          "\(stuck.device.path) \(stuck.name): the display has not completed a page flip in 2 s", named: name)
      }
    }
    for (index, screen) in lit.enumerated() {
      screen.painter.target = screen.surfaces[screen.back]
      draw(index)
    }
    guard shown else { return try light() }
    if !vblank {
      // The next tick of a timer at the mode's refresh, in step with the first frame.
      let now = clock.now()
      var next = lastTick + refreshPeriod
      if next < now { next += ((now - next) / refreshPeriod).rounded(.up) * refreshPeriod }
      var nothing: [pollfd] = []
      _ = clock.poll(&nothing, until: next)
      lastTick = next
    }
    for screen in lit {
      if screen.needsModeset {
        // Plugged in while the splash shows: its mode is set with this frame.
        lightUp(screen)
        continue
      }
      do {
        try screen.device.flip(screen.pipe, to: screen.buffers[screen.back])
        screen.flipPending = true
      } catch {
        // Another screen that refuses a flip keeps its frame; the first one's is the splash's.
        guard screen === first else { continue }
        throw RenderError(error)
      }
    }
    guard let event = awaitFlips() else {
      note("no page flip event from \(device.path) in \(formatNumber(Self.flipTimeout)) s; pacing by the clock")
      return nil
    }
    // The event's time is on CLOCK_MONOTONIC; the pacer's clock may be
    // another: the vsync is as long ago on it.
    return clock.now() - max(0, MonotonicClock().now() - event.time)
  }

  /// Sets the mode of `screen` (not the first) with its painted buffer;
  /// a screen that refuses stays dark, said once.
  private func lightUp(_ screen: Screen) {
    screen.needsModeset = false
    do {
      if let said = try screen.device.modeset(screen.pipe, showing: screen.buffers[screen.back]) { note(said) }
      screen.front = screen.back
    } catch {
      note("\(screen.name) stays dark: \(error)")
    }
  }

  /// The first frame: each screen's mode set with its painted buffer.
  private func light() throws(RenderError) -> Double {
    do {
      if let said = try device.modeset(first.pipe, showing: first.buffers[first.back]) { note(said) }
    } catch {
      throw RenderError(error)
    }
    first.front = first.back
    first.needsModeset = false
    for screen in lit.dropFirst() { lightUp(screen) }
    if adopted && !shown {
      // The frames the previous splashd left on the CRTCs are replaced: their
      // framebuffers (its handles are gone) are freed with this file's say.
      for screen in lit {
        guard let previous = screen.saved?.framebuffer, previous != 0,
          !screen.buffers.contains(where: { $0.framebuffer == previous })
        else { continue }
        screen.device.removeFramebuffer(previous)
      }
    }
    shown = true
    lastTick = clock.now()
    vblank = device.hasVblank(crtc: first.pipe.crtc)
    if !vblank {
      note(
        "\(device.path) has no vblank interrupt (its flips complete at once): flips are timed by a "
          + "\(formatNumber((1 / refreshPeriod).rounded())) Hz timer")
    }
    return lastTick
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> [UInt8] {
    try pngData(of: first.surfaces[first.front])
  }

  /// Another program may take the screens: master is dropped.
  public func deactivate() {
    active = false
    for card in cards { card.dropMaster() }
    console?.restore()
  }

  /// Master again, and the next frame sets the modes again (the other
  /// program may have set its own).
  public func reactivate() {
    for card in cards {
      do {
        try card.becomeMaster()
      } catch {
        note("\(error): the splash stays off the screen")
        return
      }
    }
    console?.enterGraphics()
    active = true
    shown = false
    for screen in lit { screen.needsModeset = true }
  }

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {
    if lit.contains(where: \.flipPending) { _ = awaitFlips() }
    guard keepingLastFrame, shown else {
      for screen in lit {
        // An adopted card's CRTCs showed the previous splashd's frame, freed
        // since: the console comes back when the card's file closes.
        if shown, !adopted, let saved = screen.saved, saved.showedSomething,
          !screen.device.restore(saved, connector: screen.pipe.connector)
        {
          note("what \(screen.name) showed before the splash cannot be put back")
        }
        for buffer in screen.buffers { screen.device.free(buffer) }
      }
      for card in cards { card.dropMaster() }
      console?.restore()
      return
    }
    copyLastFrameToFramebufferEmulation()
    for card in cards {
      var freedKeepingThem = true
      for screen in lit where screen.device === card {
        card.free(screen.buffers[screen.back])
        freedKeepingThem = card.release(keepingShown: screen.buffers[screen.front]) && freedKeepingThem
      }
      card.dropMaster()
      // A card that went away has nothing left to show.
      guard !freedKeepingThem, Files.exists(card.path) else { continue }
      if card === device { keptFrame = (card, first.pipe.crtc, first.buffers[first.front].framebuffer) }
      // Without CLOSEFB the last frame lasts as long as the card's file: it
      // stays open for the rest of this process and in the program `exec`
      // makes of it, which may set its own mode (master is free).
      card.keepOpenAcrossExec()
      _ = Unmanaged.passRetained(card)
    }
  }

  /// The buffers not on the screen are freed; those on it are unmapped and
  /// their handles closed, so that their framebuffers alone hold them, for
  /// the adopter to free once its own frame is up.
  public func handedOver() {
    // A flip still under way must land first: its buffer is the one shown.
    if lit.contains(where: \.flipPending) { _ = awaitFlips() }
    active = false
    for screen in lit {
      screen.device.free(screen.buffers[screen.back])
      _ = screen.device.release(keepingShown: screen.buffers[screen.front])
    }
  }

  public var lastFrameNeedsThisProcess: Bool {
    guard let kept = keptFrame, let crtc = kept.card.save(crtc: kept.crtc) else { return false }
    return crtc.framebuffer == kept.framebuffer
  }

  /// Paints the first screen's last frame into the card's fbdev emulation
  /// (/dev/fb0 of the same size), which the kernel shows again when the
  /// card's last file closes: the screen keeps the last frame then too.
  private func copyLastFrameToFramebufferEmulation() {
    let path = Settings.defaultFramebuffer
    guard Files.exists(path), let framebuffer = try? FramebufferDisplay(path: path), framebuffer.size == size else {
      return
    }
    SDL_UpperBlit(first.surfaces[first.front], nil, framebuffer.painter.target, nil)
    framebuffer.device.flush()
  }
}
