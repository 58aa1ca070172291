// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import Testing

@testable import SplashApp

/// Host mode's direct scan-out in process, on a fake card and the stand-in
/// compositor: a GPU program's buffer alone on the screen becomes the
/// CRTC's framebuffer, each released only after the flip that replaces it;
/// the stage's own frame comes back for a snapshot, and the choice falls
/// to the CPU painter for a frame of another size, a turned screen, a
/// card that cannot import the buffer, and a program in shared memory.
@Suite struct ScanoutTests {
  static let programColor: UInt32 = 0x00_20C0_40

  /// A harness with one fake card (64x48) and the stand-in compositor.
  func harness() throws -> (Harness, FakeCard) {
    let splash = try Harness()
    splash.fakesWaylandHost = true
    let cards = FakeCards()
    let card = FakeCard(clock: splash.clock)
    cards.cards[card.path] = card
    splash.backEnds = [cards.backEnd]
    return (splash, card)
  }

  func arguments(_ more: [String] = []) -> [String] {
    ["--host", "wayland", "--hold", "0", "--duration", "0.3", "--timeout", "10", "--background", "#102030"] + more
      + ["--", "sleep", "60"]
  }

  /// The descriptor of the program's buffer CRTC 31 shows, if it shows one.
  func scannedOut(_ card: FakeCard) -> Int32? {
    card.imported[card.framebuffer(on: 31)]?.planes.first?.descriptor
  }

  /// The centre pixel of what CRTC 31 shows, when it is one of splashd's buffers.
  func centre(_ card: FakeCard) -> UInt32? {
    card.pixel(of: card.framebuffer(on: 31), x: 32, y: 24, pitch: 64 * 4).map { $0 & 0xFF_FFFF }
  }

  @Test func aGPUProgramAloneIsScannedOutAndEachBufferGoesBackAfterTheFlipThatReplacesIt() throws {
    let (splash, card) = try harness()
    // Three buffers of the program's: the first is revealed by the doors
    // (composed), the next two are scanned out in turn.
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commitDmabuf(color: Self.programColor, descriptor: 901) }
      splash.clock.at(3) { host.commitDmabuf(color: 0xFF_0000, descriptor: 902) }
      splash.clock.at(4) { host.commitDmabuf(color: 0x00_00FF, descriptor: 903) }
    }
    var duringTheDoors: Int32?
    var first: (shown: Int32?, status: String, held: Int32?)?
    var second: (shown: Int32?, firstFreed: Bool, held: Int32?)?
    var snapshot: (pixel: UInt32?, shown: Int32?, composedAgain: Int, pixelOnScreen: UInt32?)?
    splash.clock.at(1.1) { duringTheDoors = scannedOut(card) }
    var firstFramebuffer: UInt32 = 0
    splash.clock.at(3.5) {
      firstFramebuffer = card.framebuffer(on: 31)
      first = (
        scannedOut(card), splash.session?.controller.statusLine() ?? "",
        splash.waylandHost?.shownDmabuf?.planes.first?.descriptor
      )
    }
    splash.clock.at(4.5) {
      second = (
        scannedOut(card), card.removed.contains(firstFramebuffer),
        splash.waylandHost?.shownDmabuf?.planes.first?.descriptor
      )
    }
    splash.clock.at(5) {
      guard let stage = splash.session?.stage, case .success(let pixels) = stage.snapshot() else { return }
      let surface = pixels.surface.pointee
      let pixel = (surface.pixels! + 24 * Int(surface.pitch)).assumingMemoryBound(to: UInt32.self)[32] & 0xFF_FFFF
      snapshot = (pixel, scannedOut(card), splash.waylandHost?.composedAgain ?? 0, centre(card))
    }
    splash.clock.at(6) { splash.killProgram() }
    #expect(splash.run(arguments()) == .exit(128 + SIGKILL))
    // Under the doors the program's frame is drawn into the splash's.
    #expect(duringTheDoors == nil)
    // Alone, its buffer is the CRTC's framebuffer, and held by the compositor.
    #expect(first?.shown == 902 && first?.held == 902, "\(String(describing: first)) \(splash.lines)")
    #expect(first?.status.contains("scanout=direct") == true, "\(String(describing: first?.status))")
    // The next one replaces it; the first's framebuffer goes once that flip is done.
    #expect(second?.shown == 903 && second?.firstFreed == true && second?.held == 903, "\(String(describing: second))")
    // A snapshot brings splashd's own frame back: the program's last frame,
    // drawn; its buffer goes back to it.
    #expect(snapshot?.pixel == 0x00_00FF && snapshot?.pixelOnScreen == 0x00_00FF, "\(String(describing: snapshot))")
    #expect(snapshot?.shown == nil && snapshot?.composedAgain == 1, "\(String(describing: snapshot))")
    // None went while it was on the screen (a flip to another came first).
    #expect(card.removedWhileShown.allSatisfy { card.imported[$0] == nil }, "\(card.removedWhileShown)")
    // Every program framebuffer is gone at the end.
    #expect(card.imported.keys.allSatisfy { !card.framebuffers.contains($0) }, "\(card.framebuffers)")
  }

  /// The choice, frame by frame: what cannot be scanned out is drawn by
  /// the CPU, and status says so.
  func pathOf(
    _ commit: @escaping (FakeWaylandHost) -> Void, _ more: [String] = [], card setUp: (FakeCard) -> Void = { _ in }
  ) throws -> (scannedOut: Int32?, status: String, lines: [String]) {
    let (splash, card) = try harness()
    setUp(card)
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commitDmabuf(color: Self.programColor, descriptor: 901) }
      splash.clock.at(3) { commit(host) }
    }
    var seen: (Int32?, String)?
    splash.clock.at(3.5) { seen = (scannedOut(card), splash.session?.controller.statusLine() ?? "") }
    splash.clock.at(4) { splash.killProgram() }
    #expect(splash.run(arguments(more)) == .exit(128 + SIGKILL))
    return (seen?.0, seen?.1 ?? "", splash.lines)
  }

  @Test func aFrameSmallerThanTheScreenIsDrawnByTheCPU() throws {
    let seen = try pathOf { $0.commitDmabuf(color: 0xFF_0000, descriptor: 902, size: PixelSize(width: 32, height: 24)) }
    #expect(seen.scannedOut == nil && seen.status.contains("scanout=software"), "\(seen.status)")
    #expect(
      seen.lines.contains(
        "splashd: host mode: the program's frame is not scanned out (splashd draws or composes it): "
          + "a 32x24 frame on a 64x48 screen"),
      "\(seen.lines)")
  }

  @Test func aTurnedScreenIsDrawnByTheCPU() throws {
    let seen = try pathOf({ $0.commitDmabuf(color: 0xFF_0000, descriptor: 902) }, ["--rotate", "180"])
    #expect(seen.scannedOut == nil && seen.status.contains("scanout=software"), "\(seen.status)")
  }

  @Test func aBufferTheCardCannotImportIsDrawnByTheCPU() throws {
    let seen = try pathOf({ $0.commitDmabuf(color: 0xFF_0000, descriptor: 902) }, card: { $0.importsDmabufs = false })
    #expect(seen.scannedOut == nil && seen.status.contains("scanout=software"), "\(seen.status)")
    #expect(
      seen.lines.contains {
        $0.hasPrefix("splashd: host mode: the program's frame is not scanned out (splashd draws or composes it): ")
          && $0.contains("cannot import the dmabuf")
      }, "\(seen.lines)")
  }

  @Test func aProgramInSharedMemoryIsDrawnByTheCPU() throws {
    let seen = try pathOf { $0.commit(color: 0xFF_0000) }
    #expect(seen.scannedOut == nil && seen.status.contains("scanout=software"), "\(seen.status)")
  }

  @Test func theCompositorRendersWithTheGPUOfTheScreensCardWhenItHasOne() throws {
    // The card's render node, none, and one not wanted (gpu = no).
    for (renderNode, options, given) in [
      ("/dev/dri/renderD128", [], "/dev/dri/renderD128"), (nil, [], nil),
      ("/dev/dri/renderD128", ["--gpu", "no"], nil),
    ] as [(String?, [String], String?)] {
      let (splash, card) = try harness()
      card.renderNode = renderNode
      splash.onWaylandHost = { host in splash.clock.at(1) { host.commit(color: Self.programColor) } }
      splash.clock.at(3) { splash.killProgram() }
      #expect(splash.run(arguments(options)) == .exit(128 + SIGKILL))
      #expect(splash.waylandHost?.renderNode == given, "\(options)")
    }
  }

  @Test func theProgramIsOfferedWhatTheScreenScansOutWhereItsFramesMayBeScannedOut() throws {
    let xrgb = DRMFormat.xrgb8888
    let linear: UInt64 = 0
    let tiled: UInt64 = 0x0100_0000_0000_0001
    // A GPU and an unturned screen: the plane's layouts on its card; a
    // plane that lists no modifiers: its formats in the implicit layout.
    // None on a turned screen (never scanned out) or without a GPU.
    for (renderNode, modifiers, options, offered) in [
      (
        "/dev/dri/renderD128", [linear, tiled], [],
        [ScanoutLayouts.Layout(format: xrgb, modifier: linear), ScanoutLayouts.Layout(format: xrgb, modifier: tiled)]
      ),
      ("/dev/dri/renderD128", [], [], [ScanoutLayouts.Layout(format: xrgb, modifier: Dmabuf.invalidModifier)]),
      ("/dev/dri/renderD128", [linear], ["--rotate", "90"], nil),
      (nil, [linear], [], nil),
    ] as [(String?, [UInt64], [String], [ScanoutLayouts.Layout]?)] {
      let (splash, card) = try harness()
      card.renderNode = renderNode
      card.planeModifiers = modifiers
      splash.onWaylandHost = { host in splash.clock.at(1) { host.commit(color: Self.programColor) } }
      splash.clock.at(3) { splash.killProgram() }
      #expect(splash.run(arguments(options)) == .exit(128 + SIGKILL))
      let host = try #require(splash.waylandHost)
      #expect(
        host.offeredScanout == offered.map { ScanoutLayouts(device: 0xE200, layouts: $0) }, "\(options)")
    }
  }

  @Test func aTurnTakesTheOfferBackAndATurnBackMakesItAgain() throws {
    let (splash, card) = try harness()
    card.renderNode = "/dev/dri/renderD128"
    var offered: [[ScanoutLayouts.Layout]?] = []
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor) }
      for at in [2.9, 3.9, 4.9] { splash.clock.at(at) { offered.append(host.offeredScanout?.layouts) } }
    }
    splash.clock.at(3) { TestClient(splash.controlPath).send("rotate 90\n") }
    splash.clock.at(4) { TestClient(splash.controlPath).send("rotate 0\n") }
    splash.clock.at(5) { splash.killProgram() }
    #expect(splash.run(arguments(["--control", splash.controlPath])) == .exit(128 + SIGKILL))
    let implicit = [ScanoutLayouts.Layout(format: DRMFormat.xrgb8888, modifier: Dmabuf.invalidModifier)]
    #expect(offered == [implicit, [], implicit], "\(splash.lines)")
  }
}
