// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Glibc
import SplashCore
import SplashDevices
import SplashSystem

/// Full screen on DRM cards through libdrm alone (no GL, no Mesa): every
/// connected connector of every card with one (or of the card `--device`
/// names) that gets a CRTC, and is not switched off by its `[screen NAME]`
/// section, is a screen at its own mode (`KMSScreen`), with two dumb
/// buffers in its own pixel layout, painted in software by the same painter
/// as a framebuffer and flipped on vblank. The first screen's flip events
/// carry the kernel's vblank time, which is the vsync the pacer gets; the
/// others flip with it. Flip events are waited for through the run loop's
/// clock, on the cards' descriptors.
///
/// What stays on the screens at the end: without a program to follow, what
/// each CRTC showed before (the console). With one, the last frame: DRM
/// master is dropped and the card stays open across `exec` (the kernel
/// turns off a plane whose framebuffer's file is closed), or, where the
/// kernel frees a framebuffer without turning off its plane (CLOSEFB,
/// Linux 6.8), it is freed that way. The first screen's last frame is also
/// copied into the card's fbdev emulation, which the kernel shows again
/// once the last file of the card is closed.
public final class KMSOutput: Output, PausableOutput, AdoptableOutput, HotPluggableOutput, LingeringOutput,
  ScanningOutOutput, FlipWatchedOutput, PowerSwitchedOutput
{
  /// The first card (the first screen's): what `--device` names, or the
  /// lowest-numbered card with a connected connector.
  public var card: DRMCard { lit[0].card }
  /// Every card driven, the first screen's first.
  private var cards: [DRMCard]
  /// How cards are reached.
  private let access: DRMCardAccess
  /// What it was opened with (for screens plugged in later).
  private let request: OutputRequest
  private let note: (String) -> Void
  private var lit: [KMSScreen]
  private let clock: EventClock
  /// The VT, in graphics mode while the splash shows.
  private let console: GraphicsConsole?
  /// Screens connected but left dark, and why (for the description).
  private var leftOut: [String]
  private var active = true
  /// Whether the screens are on (`setPowered`).
  private var powered = true
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
  private var keptFrame: (card: DRMCard, crtc: UInt32, framebuffer: UInt32)?
  /// Why a card that appeared could not be lit, last time it was looked at.
  private var lastRefusal: String?

  /// How long a flip event may take: a refresh is 7–33 ms; a stalled
  /// machine (or an emulator) gets far more before the splash gives up.
  static let flipTimeout = 1.0

  /// Whether a lit screen's flip has waited longer than `flipTimeout` for
  /// its event at `now`.
  public func flipStuck(at now: Double) -> Bool {
    lit.contains { screen in screen.flipQueuedAt.map { now - $0 > Self.flipTimeout } ?? false }
  }

  /// The registry's entry: tried when a card has a connected connector, or
  /// `--device` names one.
  public static let backEnd = backEnd(access: .system)

  /// The back end over the cards `access` reaches, `probe` saying whether
  /// `auto` tries it and `cards` which to drive for a request (the tests'
  /// own cards).
  public static func backEnd(
    access: DRMCardAccess,
    probe: @escaping @Sendable (OutputRequest) -> Probe = { request in DRMCards.probe(request) },
    cards: @escaping @Sendable (OutputRequest) throws(RenderError) -> [String] = { request throws(RenderError) in
      try DRMCards.cards(for: request)
    }
  ) -> BackEnd {
    BackEnd(
      name: "kms", traits: .card,
      help: "Full screen on every connected screen of a DRM card through libdrm alone (no GL): two dumb buffers "
        + "each, flipped on vblank, the kernel's vblank time pacing the frames; --device picks the card, --mode the "
        + "mode, [screen NAME] sections turn or switch off single screens.",
      probe: probe,
      open: { request throws(RenderError) in
        try KMSOutput(try cards(request).map { .path($0) }, access: access, request: request)
      },
      adopt: { cards, request throws(RenderError) in
        try KMSOutput(cards.map { .adopted($0.path, $0.descriptor) }, access: access, request: request)
      })
  }

  /// A card to drive: opened here, or handed over already open.
  enum Source {
    case path(String)
    case adopted(String, FileDescriptor)

    var path: String {
      switch self {
      case .path(let path), .adopted(let path, _): return path
      }
    }

    func card(_ access: DRMCardAccess) throws(RenderError) -> DRMCard {
      do {
        switch self {
        case .path(let path): return try access.open(path)
        case .adopted(let path, let descriptor): return try access.adopt(descriptor, path)
        }
      } catch {
        throw RenderError(error)
      }
    }
  }

  /// Takes the screens of `sources`: DRM master of each card, each
  /// connected connector with a CRTC at its mode, two dumb buffers each.
  /// The first card must give a screen; another that cannot is left dark,
  /// and said so in the description. Cards handed over keep what they show
  /// until this output's first frame replaces it.
  init(_ sources: [Source], access: DRMCardAccess, request: OutputRequest) throws(RenderError) {
    precondition(!sources.isEmpty, "no card")
    clock = request.clock
    self.request = request
    self.access = access
    note = request.note
    var cards: [DRMCard] = []
    var lit: [KMSScreen] = []
    var leftOut: [String] = []
    for (index, source) in sources.enumerated() {
      do {
        let (card, screens, dark) = try Self.open(try source.card(access), request: request, first: lit.isEmpty)
        cards.append(card)
        lit += screens
        leftOut += dark
      } catch {
        // The first card is the splash's; another that fails stays dark.
        // Without the first, the cards handed over and not taken yet are
        // closed (those taken close with their card).
        guard !lit.isEmpty else {
          for case .adopted(_, let descriptor) in sources.dropFirst(index + 1) { try? descriptor.close() }
          throw error
        }
        leftOut.append("\(source.path) (\(error))")
      }
    }
    self.cards = cards
    self.lit = lit
    self.leftOut = leftOut
    adopted = sources.contains { if case .adopted = $0 { true } else { false } }
    console = request.takesConsole ? access.console() : nil
  }

  /// Becomes master of `card` and lights its screens: the card, its
  /// screens, and its connected connectors left dark with why.
  private static func open(_ card: DRMCard, request: OutputRequest, first: Bool) throws(RenderError) -> (
    DRMCard, [KMSScreen], [String]
  ) {
    let layout: DRMLayout
    do {
      try card.becomeMaster()
      layout = try card.layout()
    } catch {
      throw RenderError(error)
    }
    let (lit, leftOut) = try KMSScreen.screens(
      of: card, layout: layout, request: request, first: first, plainNames: first, besides: [])
    guard !lit.isEmpty else { throw RenderError("no screen can be lit", named: card.path) }
    return (card, lit, leftOut)
  }

  private var first: KMSScreen { lit[0] }

  public var name: String { "kms" }
  public var traits: OutputTraits { .card }
  public var description: String {
    let others = lit.dropFirst().map { "\($0.name) \($0.pipe.mode.description) (\($0.format.name))" }
    return "\(card.path) \(first.name) \(first.pipe.mode.description), \(first.format.name), "
      + "\(card.modesetting), two dumb buffers page-flipped"
      + (others.isEmpty ? "" : "; also " + others.joined(separator: ", "))
      + (leftOut.isEmpty ? "" : "; dark: " + leftOut.joined(separator: ", "))
  }
  public var refreshPeriod: Double { first.pipe.mode.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { cards.map(\.descriptor) }
  public var handover: OutputHandover { OutputHandover(cards: cards.map { ($0.path, $0.descriptor) }) }
  public var screens: [OutputScreen] {
    lit.map {
      OutputScreen(
        name: $0.name, size: $0.size, painter: $0.painter, panelRotation: $0.panelRotation,
        mode: $0.pipe.mode.description, frameAge: $0.backFrameAge)
    }
  }

  public func showsOn(_ node: String) -> Bool { node == card.path }

  /// Looks again at the card `node` after a connector was plugged or
  /// unplugged, or the card appeared or went: a newly connected connector
  /// gets a screen (its mode set with the next frame), one unplugged (or
  /// of a card gone) is let go of. The first screen stays whatever
  /// happens. True when the screens changed.
  public func screensChanged(on node: String) -> Bool {
    let driven = cards.first { $0.path == node }
    guard access.exists(node) else {
      guard let driven, driven !== card else { return false }
      let gone = lit.filter { $0.card === driven }
      lit.removeAll { $0.card === driven }
      cards.removeAll { $0 === driven }
      return !gone.isEmpty
    }
    guard let driven else {
      // A card not driven yet: its screens join.
      do {
        let (added, screens, _) = try Self.open(try Source.path(node).card(access), request: request, first: false)
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
    guard let layout = try? driven.layout() else { return false }
    let connected = Set(layout.connectors.filter(\.connected).map(\.id))
    let unplugged = lit.filter { $0.card === driven && $0 !== first && !connected.contains($0.pipe.connector) }
    for screen in unplugged { for buffer in screen.buffers { driven.free(buffer) } }
    lit.removeAll { screen in unplugged.contains { $0 === screen } }
    let existing = lit.filter { $0.card === driven }
    let added =
      (try? KMSScreen.screens(
        of: driven, layout: layout, request: request, first: false, plainNames: driven === card, besides: existing
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
  private func record(_ events: [DRMFlipEvent], from card: DRMCard) -> [DRMFlipEvent] {
    for event in events {
      for screen in lit where screen.card === card && screen.pipe.crtc == event.crtc && screen.flipPending {
        screen.flipped()
      }
    }
    return events
  }

  /// Waits (one timeout in all, through the run loop's clock) for the
  /// pending flips' events; returns the first screen's, if it came.
  private func awaitFlips() -> DRMFlipEvent? {
    let deadline = clock.now() + Self.flipTimeout
    var firstEvent: DRMFlipEvent?
    while lit.contains(where: \.flipPending) {
      let waiting = cards.filter { card in lit.contains { $0.card === card && $0.flipPending } }
      var polled = waiting.map { pollfd(fd: $0.descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
      guard clock.poll(&polled, until: deadline) else { break }
      for (card, entry) in zip(waiting, polled) where entry.revents != 0 {
        let events = record(card.readEvents(), from: card)
        if card === first.card { firstEvent = events.last { $0.crtc == first.pipe.crtc } ?? firstEvent }
      }
    }
    return firstEvent
  }

  public func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    guard active, powered else { return nil }
    if lit.contains(where: \.flipPending) {
      // A flip's event never came in time: it must land before the buffer
      // it left on the screen is painted again.
      _ = awaitFlips()
      if let stuck = lit.first(where: \.flipPending) {
        throw RenderError(
          "\(stuck.card.path) \(stuck.name): the display has not completed a page flip in 2 s", named: name)
      }
    }
    for (index, screen) in lit.enumerated() {
      screen.painter.target = screen.surfaces[screen.back]
      draw(index)
      screen.paintedBack()
    }
    guard shown else { return try light() }
    awaitTick()
    for screen in lit {
      if screen.needsModeset {
        // Plugged in while the splash shows: its mode is set with this frame.
        lightUp(screen)
        continue
      }
      do {
        try screen.card.flip(screen.pipe, to: screen.buffers[screen.back])
        screen.flipQueuedAt = clock.now()
      } catch {
        // Another screen that refuses a flip keeps its frame; the first one's is the splash's.
        guard screen === first else { continue }
        throw RenderError(error)
      }
    }
    guard let event = awaitFlips() else {
      note("no page flip event from \(card.path) in \(formatNumber(Self.flipTimeout)) s; pacing by the clock")
      return nil
    }
    return event.time
  }

  /// Without a vblank interrupt: waits for the next tick of a timer at the
  /// mode's refresh, in step with the first frame.
  private func awaitTick() {
    guard !vblank else { return }
    let now = clock.now()
    var next = lastTick + refreshPeriod
    if next < now { next += ((now - next) / refreshPeriod).rounded(.up) * refreshPeriod }
    var nothing: [pollfd] = []
    _ = clock.poll(&nothing, until: next)
    lastTick = next
  }

  /// Sets the mode of `screen` (not the first) with its painted buffer;
  /// a screen that refuses stays dark, said once.
  private func lightUp(_ screen: KMSScreen) {
    screen.needsModeset = false
    do {
      if let said = try screen.card.modeset(screen.pipe, showing: screen.buffers[screen.back]) { note(said) }
      screen.front = screen.back
    } catch {
      note("\(screen.name) stays dark: \(error)")
    }
  }

  /// The first frame: each screen's mode set with its painted buffer.
  private func light() throws(RenderError) -> Double {
    do {
      if let said = try card.modeset(first.pipe, showing: first.buffers[first.back]) { note(said) }
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
        screen.card.removeFramebuffer(previous)
      }
    }
    shown = true
    lastTick = clock.now()
    vblank = card.hasVblank(crtc: first.pipe.crtc)
    if !vblank {
      note(
        "\(card.path) has no vblank interrupt (its flips complete at once): flips are timed by a "
          + "\(formatNumber((1 / refreshPeriod).rounded())) Hz timer")
    }
    return lastTick
  }

  public var renderNode: String? { access.renderNode(card.path) }

  public var scanoutLayouts: ScanoutLayouts? { first.scanoutLayouts }

  public func scanOut(_ dmabuf: Dmabuf) -> Result<Double?, RenderError> {
    func refused(_ reason: String) -> Result<Double?, RenderError> {
      .failure(RenderError(call: "\(card.path) \(first.name)", reason: reason))
    }
    guard active, shown, lit.count == 1, !first.needsModeset else { return refused("the screen is not lit") }
    if first.flipPending {
      _ = awaitFlips()
      if first.flipPending { return refused("its last page flip has not completed") }
    }
    let framebuffer: UInt32
    do {
      framebuffer = try card.importFramebuffer(dmabuf)
    } catch {
      return refused(error.description)
    }
    if let why = card.canShow(framebuffer: framebuffer, size: dmabuf.size, on: first.pipe) {
      card.removeFramebuffer(framebuffer)
      return refused(why)
    }
    awaitTick()
    do {
      try card.flip(first.pipe, toFramebuffer: framebuffer, size: dmabuf.size)
    } catch {
      card.removeFramebuffer(framebuffer)
      return refused(error.description)
    }
    first.flipsToScanout = framebuffer
    first.flipQueuedAt = clock.now()
    first.scannedOutAFrame()
    guard let event = awaitFlips() else {
      note("no page flip event from \(card.path) in \(formatNumber(Self.flipTimeout)) s; pacing by the clock")
      return .success(nil)
    }
    return .success(event.time)
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels {
    try .copy(of: first.surfaces[first.front])
  }

  public func setPowered(_ on: Bool) -> String? {
    guard on != powered else { return nil }
    // A flip still on its way lands first: none may be queued while off.
    if lit.contains(where: \.flipPending) { _ = awaitFlips() }
    powered = on
    for screen in lit where !screen.needsModeset {
      do {
        try screen.card.setPower(screen.pipe, on: on)
      } catch {
        // On again all the same: the next frame sets the modes again.
        if on {
          shown = false
          for screen in lit { screen.needsModeset = true }
        }
        return error.description
      }
    }
    return nil
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
          !screen.card.restore(saved, connector: screen.pipe.connector)
        {
          note("what \(screen.name) showed before the splash cannot be put back")
        }
        for buffer in screen.buffers { screen.card.free(buffer) }
      }
      for card in cards { card.dropMaster() }
      console?.restore()
      return
    }
    copyLastFrameToFramebufferEmulation()
    for card in cards {
      var freedKeepingThem = true
      for screen in lit where screen.card === card {
        card.free(screen.buffers[screen.back])
        freedKeepingThem = card.release(keepingShown: screen.buffers[screen.front]) && freedKeepingThem
      }
      card.dropMaster()
      // A card that went away has nothing left to show.
      guard !freedKeepingThem, card.isPresent else { continue }
      if card === self.card { keptFrame = (card, first.pipe.crtc, first.buffers[first.front].framebuffer) }
      // Without CLOSEFB the last frame lasts as long as the card's file: it
      // stays open for the rest of this process and in the program `exec`
      // makes of it, which may set its own mode (master is free).
      card.keepOpenAcrossExec()
      KeptForLife.keep(card as AnyObject)
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
      screen.card.free(screen.buffers[screen.back])
      _ = screen.card.release(keepingShown: screen.buffers[screen.front])
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
    guard let path = access.framebufferEmulation, access.exists(path),
      let framebuffer = try? FramebufferDisplay(path: path), framebuffer.size == size
    else { return }
    SDL_UpperBlit(first.surfaces[first.front], nil, framebuffer.painter.target, nil)
    framebuffer.device.flush()
  }
}
