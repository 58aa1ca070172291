// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem
import Testing

@testable import SplashApp

/// A stand-in for a KMS card whose second screen is plugged in later: each
/// screen paints into memory; a vsync every 1/60 s on the test clock.
final class TwoScreenStub: Output, HotPluggableOutput {
  let canvases: [OffscreenOutput]
  let clock: TestClock
  /// Whether the second screen is plugged in.
  var plugged = false
  private(set) var presents = 0

  init(clock: TestClock) throws {
    canvases = [
      try OffscreenOutput(size: PixelSize(width: 64, height: 48)),
      try OffscreenOutput(size: PixelSize(width: 48, height: 64)),
    ]
    self.clock = clock
  }

  var name: String { "kms" }
  var traits: OutputTraits { .card }
  var description: String { plugged ? "two stand-in screens" : "one stand-in screen" }
  var refreshPeriod: Double { 1.0 / 60 }
  var eventDescriptors: [FileDescriptor] { [] }
  func handleEvents() -> OutputEvents { [] }
  var screens: [OutputScreen] {
    let all = canvases.enumerated().map { index, canvas in
      OutputScreen(
        name: "Virtual-\(index + 1)", size: canvas.size, painter: canvas.painter, mode: canvas.size.description,
        frameAge: nil)
    }
    return plugged ? all : [all[0]]
  }

  func showsOn(_ node: String) -> Bool { node == "/dev/dri/card0" }

  func screensChanged(on node: String) -> Bool {
    guard node == "/dev/dri/card0", !plugged else { return false }
    plugged = true
    return true
  }

  func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    for index in screens.indices { draw(index) }
    presents += 1
    let vsync = (clock.time / refreshPeriod - 1e-9).rounded(.up) * refreshPeriod + refreshPeriod
    clock.advance(by: vsync - clock.time)
    return vsync
  }

  func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels { try .copy(of: canvases[0].surface) }
  func release(keepingLastFrame: Bool, repaintLast: () -> Void) {}
}

@Suite struct ScreenPluggedInTests {
  @Test func aScreenPluggedInWhileTheSplashHoldsGetsItsOwnSceneAtOnce() throws {
    let splash = try Harness()
    let events = PipeDisplayEvents()
    splash.displayEvents = events
    /// The stand-in the back end opened (back ends are Sendable; the test runs on one thread).
    final class Opened: @unchecked Sendable { var stub: TwoScreenStub? }
    let opened = Opened()
    splash.backEnds = [
      BackEnd(
        name: "kms", traits: .card, help: "", probe: { _ in .tried("a stand-in card") },
        open: { request throws(RenderError) in
          guard let clock = request.clock as? TestClock else { throw RenderError("not on a test clock") }
          do {
            let made = try TwoScreenStub(clock: clock)
            opened.stub = made
            return made
          } catch {
            throw RenderError("\(error)")
          }
        })
    ]
    var client: TestClient?
    var secondBar: UInt32?
    splash.clock.at(1) { events.send(DisplayDeviceEvent(change: .changed, kind: .card, node: "/dev/dri/card0")) }
    splash.clock.at(1.5) {
      client = TestClient(splash.controlPath)
      client?.send("status\n")
      // The second screen (48x64) got the held frame with its bar at 50 %: x 14 to 33, row 56.
      secondBar = opened.stub?.canvases[1].pixels()[56 * 48 + 20]
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(
      splash.run(
        ["--duration", "0.1", "--until-reveal", "--timeout", "0", "--control", splash.controlPath, "--progress", "50"])
        == .exit(0))
    #expect(
      splash.lines.contains("splashd: display: /dev/dri/card0 changed: the screens are now two stand-in screens"),
      "\(splash.lines)")
    #expect(secondBar == 0xFFFFFF, "\(String(describing: secondBar))")
    #expect(
      client?.replies.first?.hasSuffix(" screens=Virtual-1:64x48:0,Virtual-2:48x64:0") == true,
      "\(client?.replies ?? [])")
  }
}
