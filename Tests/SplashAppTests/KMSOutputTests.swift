// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import Testing

@testable import SplashApp

/// The native KMS output's bookkeeping on fake cards, in process on the
/// test clock: flips and their events, cards without vblank, flips that
/// never complete, screens plugged in late, the last frame kept for the
/// next program, adoption, handover and another program taking the card.
/// The real cards are tested under QEMU (BootPathTests).
@Suite struct KMSOutputTests {
  /// A harness with one fake card (64x48, Virtual-1 on CRTC 31) as its only back end.
  func harness() throws -> (Harness, FakeCards, FakeCard) {
    let splash = try Harness()
    let cards = FakeCards()
    let card = FakeCard(clock: splash.clock)
    cards.cards[card.path] = card
    splash.backEnds = [cards.backEnd]
    return (splash, cards, card)
  }

  /// A picture of one colour, 0x336699.
  func picture(_ splash: Harness) -> String {
    splash.dir.solidPNG("splash.png", width: 32, height: 24, rgb: (0x33, 0x66, 0x99))
  }

  @Test func theFirstFrameIsAModesetAndEachNextAFlipAtTheNextVblank() throws {
    let (splash, _, card) = try harness()
    var held: (shown: UInt32, pixel: UInt32?)?
    splash.clock.at(0.5) {
      let shown = card.framebuffer(on: 31)
      held = (shown, card.pixel(of: shown, x: 10, y: 10, pitch: 64 * 4))
    }
    #expect(
      splash.run(["--image", picture(splash), "--hold", "1", "--duration", "0.2", "--background", "#000000"])
        == .exit(0))
    // The held frame is the picture, shown by the first frame's modeset.
    #expect(card.modesets.count == 1)
    #expect(held?.shown == card.modesets.first?.framebuffer && held?.pixel == 0x336699, "\(String(describing: held))")
    // The transition flips the two buffers in turn, each after the last one's vblank.
    let flipped = card.flips.map(\.framebuffer)
    #expect(flipped.count >= 10 && flipped.first != card.modesets.first?.framebuffer)
    #expect(zip(flipped, flipped.dropFirst()).allSatisfy { $0 != $1 }, "\(flipped)")
    let report = try #require(splash.session?.controller.playback)
    #expect(report.skippedVsyncs == 0)
    // Every vsync the player got is the vblank of its flip: a refresh apart.
    let period = card.connectors[0].modes[0].refreshPeriod
    let intervals = zip(report.transitionVsyncs.dropFirst(), report.transitionVsyncs).map { $0 - $1 }
    #expect(!intervals.isEmpty && intervals.allSatisfy { abs($0 - period) < 1e-9 }, "\(intervals)")
    // Without a program, the console's framebuffer comes back and the splash's go.
    #expect(card.framebuffer(on: 31) == FakeCard.console)
    #expect(card.framebuffers == [FakeCard.console])
    #expect(!card.isMaster)
  }

  /// `splashctl screen off` on a held splash: the connector's DPMS off (the
  /// fake card, as the kernel, refuses flips on it meanwhile), nothing
  /// flipped though the splash turned meanwhile; `screen on`: DPMS on, and
  /// the next frame (the turned splash) flips.
  @Test func theScreenGoesOffAndOnByDPMS() throws {
    let (splash, _, card) = try harness()
    var whileOff: (poweredOff: Set<UInt32>, flips: Int)?
    var afterOn: (poweredOff: Set<UInt32>, flips: Int)?
    var client: TestClient?
    splash.clock.at(0.5) {
      client = TestClient(splash.controlPath)
      client?.send("screen off\nrotate 180\n")
    }
    splash.clock.at(1) {
      whileOff = (card.poweredOff, card.flips.count)
      client?.send("screen on\n")
    }
    splash.clock.at(1.5) { afterOn = (card.poweredOff, card.flips.count) }
    #expect(
      splash.run([
        "--image", picture(splash), "--hold", "2", "--duration", "0.2", "--background", "#000000", "--control",
        splash.controlPath,
      ]) == .exit(0), "\(splash.lines)")
    // The turn is answered once it is shown, which is at once while the screen is off.
    let replies = client?.replies ?? []
    #expect(replies == ["ok screen=off off_by=splashctl", "ok", "ok screen=on"], "\(replies)")
    #expect(whileOff?.poweredOff == [31] && whileOff?.flips == 0, "\(String(describing: whileOff))")
    #expect(afterOn?.poweredOff == [] && (afterOn?.flips ?? 0) >= 1, "\(String(describing: afterOn))")
    #expect(!splash.lines.contains { $0.contains("refused") }, "\(splash.lines)")
  }

  @Test func aCardWithoutVblankFlipsOnATimerAtTheModesRefresh() throws {
    let (splash, _, card) = try harness()
    card.vblank = false
    #expect(splash.run(["--image", picture(splash), "--duration", "0.2"]) == .exit(0))
    let period = card.connectors[0].modes[0].refreshPeriod
    let times = card.flips.map(\.at)
    let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
    #expect(!intervals.isEmpty && intervals.allSatisfy { abs($0 - period) < 1e-9 }, "\(intervals)")
    #expect(
      splash.lines.contains(
        "splashd: kms: /dev/dri/card0 has no vblank interrupt (its flips complete at once): flips are timed by a "
          + "60 Hz timer"), "\(splash.lines)")
  }

  @Test func aFlipThatNeverCompletesIsPacedByTheClockThenEndsTheSplash() throws {
    let (splash, _, card) = try harness()
    card.flipsComplete = false
    // The program still runs: it is what a splash that fails hands off to.
    #expect(splash.run(["--image", picture(splash), "--duration", "0.5"]) == .exit(1))
    #expect(card.flips.count == 1, "\(card.flips.count)")
    #expect(
      splash.lines.contains("splashd: kms: no page flip event from /dev/dri/card0 in 1 s; pacing by the clock"),
      "\(splash.lines)")
    #expect(
      splash.lines.contains {
        $0.contains("/dev/dri/card0 Virtual-1: the display has not completed a page flip")
      }, "\(splash.lines)")
  }

  @Test func aScreenPluggedInLaterIsLitWithTheNextFrame() throws {
    let (splash, _, card) = try harness()
    let events = PipeDisplayEvents()
    splash.displayEvents = events
    var status: [String] = []
    splash.clock.at(1) {
      card.connectors.append(FakeCard.connector(42, "Virtual-2", size: PixelSize(width: 48, height: 64)))
      events.send(DisplayDeviceEvent(change: .changed, kind: .card, node: card.path))
    }
    splash.clock.at(1.5) {
      let client = TestClient(splash.controlPath)
      client.send("status\n")
      splash.clock.at(1.6) { status = client.replies }
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run([
        "--image", picture(splash), "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
        splash.controlPath,
      ]) == .exit(0))
    // The new screen's mode was set with the held frame drawn again, on the CRTC left free.
    #expect(card.modesets.map(\.crtc) == [31, 32], "\(card.modesets.map(\.crtc))")
    #expect(
      status.first?.hasSuffix(" screens=Virtual-1:64x48@60:0,Virtual-2:48x64@60:0") == true, "\(status)")
    // Both screens flipped during the transition.
    #expect(Set(card.flips.map(\.crtc)) == [31, 32])
  }

  /// `step-aside` (initramfs-tools' panic) gives the screen back to the
  /// console whatever keep-last-frame says: nothing of the splash stays on
  /// the card, and the reply comes once the display is let go of.
  @Test func steppingAsideLeavesNothingOnTheScreen() throws {
    let (splash, _, card) = try harness()
    var client: TestClient?
    splash.clock.at(1) {
      client = TestClient(splash.controlPath)
      client?.send("step-aside\n")
    }
    let arguments = [
      "--image", picture(splash), "--duration", "0.1", "--keep-last-frame", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath,
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(client?.replies == ["ok did-disappear"])
    #expect(splash.stopReason == "splashctl step-aside")
    #expect(card.framebuffers == [FakeCard.console], "\(card.framebuffers)")
    #expect(!card.keptOpenAcrossExec && !card.isMaster)
  }

  @Test func theLastFrameStaysUntilAnotherProgramShowsItsOwn() throws {
    let (splash, _, card) = try harness()
    var kept: (shown: UInt32, alive: Bool, openAcrossExec: Bool)?
    splash.clock.at(3) {
      let shown = card.framebuffer(on: 31)
      kept = (shown, card.framebuffers.contains(shown), card.keptOpenAcrossExec)
      card.otherProgramShows()
    }
    #expect(splash.run(["--image", picture(splash), "--duration", "0.1", "--keep-last-frame"]) == .exit(0))
    // Without CLOSEFB the last frame's framebuffer lives on with the card's file,
    // kept open across exec; the buffer off the screen is freed.
    let last = try #require(card.flips.last?.framebuffer)
    #expect(kept?.shown == last && kept?.alive == true && kept?.openAcrossExec == true, "\(String(describing: kept))")
    #expect(card.framebuffers == [FakeCard.console, last])
    #expect(!card.isMaster)
    #expect(
      splash.lines.contains {
        $0.hasPrefix("splashd: keep-last-frame: the last frame stayed until another program showed its own")
      }, "\(splash.lines)")
  }

  @Test func withCLOSEFBTheLastFrameNeedsNothingOfThisProcess() throws {
    let (splash, _, card) = try harness()
    card.closesFramebuffers = true
    #expect(splash.run(["--image", picture(splash), "--duration", "0.1", "--keep-last-frame"]) == .exit(0))
    #expect(!card.keptOpenAcrossExec)
    #expect(card.framebuffer(on: 31) == card.flips.last?.framebuffer)
    #expect(!splash.lines.contains { $0.hasPrefix("splashd: keep-last-frame:") }, "\(splash.lines)")
  }

  /// A request on the test clock, for outputs opened directly.
  func request(_ clock: TestClock) -> OutputRequest {
    OutputRequest(
      size: PixelSize(width: 64, height: 48), device: nil, mode: nil, fps: 60,
      environment: [:], clock: clock)
  }

  @Test func cardsHandedOverKeepThePreviousFrameUntilTheFirstOneReplacesIt() throws {
    let clock = TestClock()
    let cards = FakeCards()
    let card = FakeCard(clock: clock)
    cards.cards[card.path] = card
    // The previous splashd's frame is on the CRTC, its framebuffer made by its handle on the same file.
    try card.becomeMaster()
    let previous = try card.makeBuffer(PixelSize(width: 64, height: 48), format: DRMFormat.xrgb8888, bitsPerPixel: 32)
    _ = try card.modeset(
      DRMPipe(connector: 41, crtc: 31, plane: 51, mode: card.connectors[0].modes[0]), showing: previous)
    let output = try #require(try cards.backEnd.adopt?([(card.path, card.descriptor)], request(clock)))
    #expect(card.framebuffer(on: 31) == previous.framebuffer && card.framebuffers.contains(previous.framebuffer))
    _ = try output.present { _ in }
    // Its frame replaced, the previous framebuffer is freed by this file.
    #expect(card.removed == [previous.framebuffer])
    #expect(card.framebuffer(on: 31) != previous.framebuffer)
    // Let go of without a program: nothing to put back (the previous frame is gone).
    output.release(keepingLastFrame: false) {}
    #expect(card.framebuffer(on: 31) == 0)
  }

  @Test func aHandoverFreesOnlyWhatIsOffTheScreen() throws {
    let clock = TestClock()
    let cards = FakeCards()
    let card = FakeCard(clock: clock)
    cards.cards[card.path] = card
    let output = try cards.backEnd.open(request(clock))
    _ = try output.present { _ in }
    _ = try output.present { _ in }
    let shown = card.framebuffer(on: 31)
    let handing = try #require(output as? AdoptableOutput)
    #expect(handing.handover.cards.map(\.path) == [card.path])
    handing.handedOver()
    // The frame on the screen stays, held by its framebuffer for the adopter; the other buffer is gone.
    #expect(card.framebuffer(on: 31) == shown)
    #expect(card.framebuffers == [FakeCard.console, shown])
    // Nothing more is drawn.
    let flips = card.flips.count
    #expect(try output.present { _ in } == nil)
    #expect(card.flips.count == flips)
  }

  @Test func anotherProgramMayHaveTheCardAndTheModeIsSetAgainAfter() throws {
    let clock = TestClock()
    let cards = FakeCards()
    let card = FakeCard(clock: clock)
    cards.cards[card.path] = card
    let output = try #require(try cards.backEnd.open(request(clock)) as? PausableOutput)
    _ = try output.present { _ in }
    output.deactivate()
    #expect(!card.isMaster)
    card.otherProgramShows()
    #expect(try output.present { _ in } == nil)
    #expect(card.modesets.count == 1 && card.flips.isEmpty)
    output.reactivate()
    #expect(card.isMaster)
    _ = try output.present { _ in }
    #expect(card.modesets.count == 2 && card.framebuffer(on: 31) == card.modesets[1].framebuffer)
  }

  @Test func aCardThatAppearsGetsTheSplashFromTheFramebuffer() throws {
    let (splash, _, card) = try harness()
    card.isPresent = false
    let events = PipeDisplayEvents()
    splash.displayEvents = events
    splash.backEnds.append(splash.screens.backEnd)
    splash.clock.at(1) {
      card.isPresent = true
      events.send(DisplayDeviceEvent(change: .added, kind: .card, node: card.path))
    }
    var moved: (shown: UInt32, pixel: UInt32?)?
    splash.clock.at(1.5) {
      let shown = card.framebuffer(on: 31)
      moved = (shown, card.pixel(of: shown, x: 10, y: 10, pitch: 64 * 4))
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run([
        "--image", picture(splash), "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
        splash.controlPath,
      ]) == .exit(0))
    // The held frame went to the card by a modeset at once; the framebuffer stub was let go of, its frame kept.
    #expect(
      moved?.shown == card.modesets.first?.framebuffer && moved?.pixel == 0x336699, "\(String(describing: moved))")
    #expect(splash.screens.opened.first?.keptLastFrame == true)
    #expect(
      splash.lines.contains { $0.hasPrefix("splashd: display: moved from screen to kms (/dev/dri/card0 appeared)") })
  }
}
