// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSystem

/// A desktop window (X11 or Wayland through SDL) presented with vsync where
/// the driver honours it; the player paces frames by the clock where it
/// does not. Its display connection is watched by the run loop, so an
/// exposed window is redrawn and a closed one ends the splash at once.
public final class WindowOutput: Output {
  public let window: SDLWindow
  public var note: (String) -> Void = { _ in }

  /// SDL's video drivers for the desktop sessions the environment names
  /// ("x11", "wayland" or both), nil for none.
  public static func desktopDrivers(environment: [String: String]) -> String? {
    let drivers = [("DISPLAY", "x11"), ("WAYLAND_DISPLAY", "wayland")].filter { !(environment[$0.0] ?? "").isEmpty }
    return drivers.isEmpty ? nil : drivers.map(\.1).joined(separator: ",")
  }

  /// Why there is no desktop to open a window on.
  static let noDesktop = "no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)"

  /// The registry's entry: tried when a desktop session is there.
  public static let backEnd = BackEnd(
    name: "window", help: "A desktop window (X11 or Wayland through SDL), presented with vsync.",
    probe: { request in
      guard desktopDrivers(environment: request.environment) != nil else { return .skipped(noDesktop) }
      let names = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { name in request.environment[name].map { "\(name)=\($0)" }
      }
      return .tried(names.joined(separator: ", "))
    },
    open: { request throws(RenderError) in
      guard let drivers = desktopDrivers(environment: request.environment) else {
        throw RenderError(noDesktop, named: "")
      }
      return try WindowOutput(size: request.size, title: "splashd", drivers: drivers)
    })

  /// Opens a window whose inner size is `size` on the desktop session that
  /// `drivers` (from `desktopDrivers`) name; only there: SDL would otherwise
  /// fall through to its own offscreen or KMSDRM drivers and "open a window"
  /// nobody sees.
  public init(size: PixelSize, title: String, drivers: String) throws(RenderError) {
    // A preview window: leave the desktop's compositor running (SDL would ask
    // X11 compositors to step aside, as for a full-screen game).
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
    try SDLWindow.startVideo(driver: drivers)
    guard
      let made = SDL_CreateWindow(
        title, Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(size.width),
        Int32(size.height), SDL_WINDOW_SHOWN.rawValue)
    else {
      let error = RenderError("SDL_CreateWindow")
      SDLWindow.stopVideo()
      throw error
    }
    window = try SDLWindow(window: made, size: size)
  }

  public var name: String { "window" }
  public var description: String {
    "\(size.description), renderer \(window.rendererName), refresh \(formatFixed(1 / refreshPeriod, decimals: 2)) Hz"
      + (window.connection == nil ? "; its events are handled between frames only" : "")
  }
  public var size: PixelSize { window.size }
  public var sizeIsFixed: Bool { false }
  public var painter: LayerPainter { window.painter }
  public var refreshPeriod: Double { window.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { window.connection.map { [$0] } ?? [] }

  public func handleEvents() -> OutputEvents { window.handleEvents() }

  public func present(_ draw: () -> Void) throws(RenderError) -> Double? {
    window.present(draw)
    // A desktop's vsync is not trusted to block: the player paces by the clock.
    return nil
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> [UInt8] {
    try window.readBack(repaintLast)
  }

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) { window.close() }
}
