// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashSettings
import SplashSystem

/// A Linux framebuffer device as the display (`FramebufferDisplay` paints
/// it), with the VT in graphics mode so that console text never draws over
/// the picture. The last frame stays on the screen; without a program to
/// hand off to, the VT goes back to text mode.
public final class FramebufferOutput: Output, PausableOutput, AdoptableOutput, PowerSwitchedOutput {
  public let display: FramebufferDisplay
  private let console: GraphicsConsole?
  private let consoleProblem: String?
  private let clock: EventClock

  /// The framebuffer `request` means: its device unless that names a DRM card.
  static func path(for request: OutputRequest) -> String {
    guard let device = request.device?.path, DRMCards.cardNumber(ofDevice: device) == nil else {
      return Settings.defaultFramebuffer
    }
    return device
  }

  /// The registry's entry: tried when the framebuffer device exists.
  public static let backEnd = BackEnd(
    name: "fbdev", traits: .framebuffer,
    help: "A Linux framebuffer (--device, /dev/fb0 by default), painted in software in its own pixel layout, "
      + "the VT in graphics mode, the last frame left on the screen.",
    probe: { request in
      let path = path(for: request)
      return Files.exists(path) ? .tried("\(path) exists") : .skipped("no \(path)")
    },
    open: { request throws(RenderError) in
      try FramebufferOutput(
        path: path(for: request), clock: request.clock, note: request.note, takesConsole: request.takesConsole)
    })

  public init(path: String, clock: EventClock, note: @escaping (String) -> Void = { _ in }, takesConsole: Bool = true)
    throws(RenderError)
  {
    display = try FramebufferDisplay(path: path)
    display.onNote = note
    self.clock = clock
    do {
      console = takesConsole ? try GraphicsConsole() : nil
      consoleProblem = nil
    } catch {
      console = nil
      consoleProblem = error.phrase
    }
  }

  public var name: String { "fbdev" }
  public var traits: OutputTraits { .framebuffer }
  public var description: String {
    display.description + (consoleProblem.map { "; console text may draw over the splash: \($0)" } ?? "")
  }
  public var screens: [OutputScreen] {
    [
      OutputScreen(
        name: name, size: display.size, painter: display.painter, mode: display.size.description,
        frameAge: display.frameAge)
    ]
  }
  public var refreshPeriod: Double { display.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { [] }
  public func handleEvents() -> OutputEvents { [] }

  public func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    guard powered else { return nil }
    draw(0)
    return display.show(clock: clock.now)
  }

  /// Whether the display is on (`setPowered`).
  private var powered = true

  public func setPowered(_ on: Bool) -> String? {
    guard on != powered else { return nil }
    powered = on
    guard !on else {
      display.device.unblank()
      return nil
    }
    do {
      try display.device.powerDown()
      return nil
    } catch {
      return error.description
    }
  }

  /// Handed over as it is: the adopter opens it again.
  public var handover: OutputHandover { OutputHandover() }
  public func handedOver() {}

  /// The VT goes back to text mode, as a program that takes the screen expects.
  public func deactivate() { console?.restore() }

  public func reactivate() { console?.enterGraphics() }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels { try display.shownPage() }

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {
    display.returnToStartPage()
    if !keepingLastFrame { console?.restore() }
  }
}
