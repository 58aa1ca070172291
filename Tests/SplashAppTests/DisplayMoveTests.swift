// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem
import Testing

@testable import SplashApp

/// The splash moving to a display that appears while it runs (a KMS card
/// replacing the firmware's framebuffer), on stand-in back ends; the real
/// move is tested under QEMU.
@Suite struct DisplayMoveTests {
  func harness() throws -> (Harness, PipeDisplayEvents) {
    let splash = try Harness()
    let events = PipeDisplayEvents()
    splash.displayEvents = events
    splash.backEnds = [splash.screens.kmsBackEnd, splash.screens.backEnd]
    return (splash, events)
  }

  let card = DisplayDeviceEvent(change: .added, kind: .card, node: "/dev/dri/card0")

  @Test func aCardThatAppearsWhileTheSplashHoldsGetsTheSplashAtOnce() throws {
    let (splash, events) = try harness()
    splash.clock.at(1) { [card] in
      splash.screens.cards = ["/dev/dri/card0"]
      events.send(card)
    }
    var client: TestClient?
    // While it holds on the new screen: the status names it, and the frame there has the bar at 30 %
    // (800x600: the bar from x 240 to 560 on rows 528 to 535, filled up to x 336).
    var bar: (filled: UInt32, track: UInt32)?
    splash.clock.at(1.5) {
      client = TestClient(splash.controlPath)
      client?.send("status\n")
      if let moved = splash.screens.opened.last {
        let pixels = moved.canvas.pixels()
        bar = (pixels[531 * 800 + 300], pixels[531 * 800 + 500])
      }
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(
        [
          "--duration", "0.5", "--until-reveal", "--timeout", "0", "--control", splash.controlPath, "--progress", "30",
        ]) == .exit(0))
    let lines = splash.lines
    #expect(lines.contains("splashd: screen: 640x480 stub"), "\(lines)")
    #expect(
      lines.contains(
        "splashd: display: moved from screen to kms (/dev/dri/card0 appeared), 17 ms later: 800x600 stub"),
      "\(lines)")
    let (first, moved) = (splash.screens.opened[0], splash.screens.opened[1])
    // The held frame was drawn on the new screen at once, with its bar; the old one was let go of.
    #expect(moved.presents >= 1 && first.keptLastFrame == true)
    #expect(bar?.filled == 0xFFFFFF && bar?.track == 0x404040, "\(String(describing: bar))")
    #expect(
      client?.replies.first?.hasPrefix("ok phase=waiting rotation=0 display=kms") == true, "\(client?.replies ?? [])")
    // The transition played there, and the screen is released at the end.
    #expect(splash.session?.stage.display == "kms")
    #expect(splash.playback?.skippedVsyncs == 0 && (splash.playback?.frames.count ?? 0) > 1, "\(lines)")
    #expect(moved.keptLastFrame == false)
  }

  /// The new screens' scenes are made without what was behind the old
  /// ones: whoever puts something there (host mode, the program's frame)
  /// is told, once the splash shows on the new screen.
  @Test func aMoveTellsWhoShowsBehindTheScenes() throws {
    let (splash, events) = try harness()
    var told: [String] = []
    splash.clock.at(0.5) {
      guard let stage = splash.session?.stage else { return }
      stage.onScreensChanged = { [weak stage] _, _ in told.append(stage?.display ?? "none") }
    }
    splash.clock.at(1) { [card] in
      splash.screens.cards = ["/dev/dri/card0"]
      events.send(card)
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(["--duration", "0.1", "--until-reveal", "--timeout", "0", "--control", splash.controlPath])
        == .exit(0))
    #expect(told == ["kms"], "\(splash.lines)")
  }

  @Test func aCardNotReadyYetIsLookedAtAgainAndTheWaitSaidOnce() throws {
    let (splash, events) = try harness()
    splash.clock.at(1) { [card] in events.send(card) }
    splash.clock.at(1.35) { splash.screens.cards = ["/dev/dri/card0"] }
    splash.clock.at(3) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(["--duration", "0.1", "--until-reveal", "--timeout", "0", "--control", splash.controlPath])
        == .exit(0))
    let stays = splash.lines.filter { $0.hasPrefix("splashd: display: /dev/dri/card0 appeared; staying on screen") }
    #expect(
      stays == [
        "splashd: display: /dev/dri/card0 appeared; staying on screen: kms: /dev/dri/card0: no connected connector"
      ], "\(splash.lines)")
    // Looked at again every 100 ms: moved at the first look after the card was ready (1.4 s),
    // logged once the frame was shown there (at the next of the stand-in's vsyncs).
    let moved = try #require(splash.time(of: "splashd: display: moved from screen to kms"))
    #expect(abs(moved - 101.4 - 1.0 / 60) < 0.001, "\(moved)")
  }

  @Test func aSplashOnACardThatGoesAwayMovesToTheNextBackEnd() throws {
    let (splash, events) = try harness()
    splash.screens.cards = ["/dev/dri/card0"]
    splash.backEnds = [
      BackEnd(
        name: "kms", traits: .card, help: "", probe: { _ in .tried("a card") },
        open: { [screens = splash.screens] request throws(RenderError) in
          var asked = request
          asked.device = RequestedDevice(path: "/dev/dri/card0", origin: "--device")
          return try screens.kmsBackEnd.open(asked)
        }),
      splash.screens.backEnd,
    ]
    splash.clock.at(1) { events.send(DisplayDeviceEvent(change: .removed, kind: .card, node: "/dev/dri/card0")) }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(["--duration", "0.1", "--until-reveal", "--timeout", "0", "--control", splash.controlPath])
        == .exit(0))
    #expect(
      splash.lines.contains {
        $0.hasPrefix("splashd: display: moved from kms to screen (/dev/dri/card0 went away)")
      }, "\(splash.lines)")
    #expect(splash.screens.opened.map(\.name) == ["kms", "screen"])
  }

  @Test func aDisplayNamedOnTheCommandLineStays() throws {
    let (splash, events) = try harness()
    splash.clock.at(1) { [card] in
      splash.screens.cards = ["/dev/dri/card0"]
      events.send(card)
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(
        [
          "--display", "screen", "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
          splash.controlPath,
        ]
      ) == .exit(0))
    #expect(!splash.lines.contains { $0.hasPrefix("splashd: display:") }, "\(splash.lines)")
    #expect(splash.screens.opened.count == 1)
  }
}
