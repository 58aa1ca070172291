// SPDX-License-Identifier: Apache-2.0
import CSDL2
import CSDLWindow
import SplashCore
import SplashSystem

/// A desktop window (X11 or Wayland through SDL), painted in software into
/// the window's own surface (`SDL_GetWindowSurface`, shared memory with the
/// X server where it offers it) by the same painter as the framebuffers, and
/// shown with `SDL_UpdateWindowSurface`: no GL context, so no GL driver is
/// loaded (Mesa's llvmpipe took ~80 MB and most of the time to the first
/// pixel). A desktop gives no vsync to a window surface: the player paces
/// frames by the clock at the display's refresh. Its display connection is
/// watched by the run loop, so an exposed window is redrawn and a closed one
/// ends the splash at once.
public final class WindowOutput: Output {
  private let window: OpaquePointer
  private let surfacePainter: SurfacePainter
  public let size: PixelSize
  /// Seconds between refreshes of the window's display (60 Hz when unknown).
  public let refreshPeriod: Double
  private let connection: FileDescriptor?
  private var closed = false

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
    name: "window", traits: .desktop,
    help: "A desktop window (X11 or Wayland through SDL), painted into its window surface.",
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
    // The window system's own surface (XShm on X11), not SDL's emulation of
    // one through an accelerated renderer (GL: Mesa, ~80 MB, on first use).
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
    guard let surface = SDL_GetWindowSurface(made) else {
      let error = RenderError("SDL_GetWindowSurface")
      SDL_DestroyWindow(made)
      SDLWindow.stopVideo()
      throw error
    }
    window = made
    self.size = PixelSize(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    surfacePainter = SurfacePainter(target: surface)
    refreshPeriod = SDLWindow.refreshPeriod(of: made)
    let fd = splashd_window_connection(UnsafeMutableRawPointer(made))
    connection = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
  }

  public var name: String { "window" }
  public var traits: OutputTraits { .desktop }
  public var description: String {
    let format = String(cString: SDL_GetPixelFormatName(surfacePainter.target.pointee.format.pointee.format))
    return "\(size.description), painted into its window surface (\(format)), refresh "
      + "\(formatFixed(1 / refreshPeriod, decimals: 2)) Hz"
      + (connection == nil ? "; its events are handled between frames only" : "")
  }
  public var screens: [OutputScreen] {
    [OutputScreen(name: name, size: size, painter: surfacePainter, mode: size.description, frameAge: nil)]
  }
  public var eventDescriptors: [FileDescriptor] { connection.map { [$0] } ?? [] }

  /// The pending events of SDL's windows, without waiting: closed (the
  /// window manager's close, or Escape), or exposed (to be drawn again).
  public func handleEvents() -> OutputEvents {
    var event = SDL_Event()
    var events: OutputEvents = []
    while SDL_PollEvent(&event) != 0 {
      switch SDL_EventType(event.type) {
      case SDL_QUIT: events.insert(.closed)
      case SDL_KEYDOWN where event.key.keysym.sym == Int32(SDLK_ESCAPE.rawValue): events.insert(.closed)
      case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue): events.insert(.redraw)
      default: break
      }
    }
    return events
  }

  public func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    draw(0)
    try check("SDL_UpdateWindowSurface", SDL_UpdateWindowSurface(window))
    // No vsync to wait for: the player paces by the clock.
    return nil
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels {
    try .copy(of: surfacePainter.target)
  }

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {
    guard !closed else { return }
    closed = true
    SDL_DestroyWindow(window)
    SDLWindow.stopVideo()
  }

  deinit { release(keepingLastFrame: false, repaintLast: {}) }
}
