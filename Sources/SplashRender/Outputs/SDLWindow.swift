// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSystem

/// An SDL window with a vsync renderer: SDL's KMS output's. The video
/// subsystem is quit when it goes.
public final class SDLWindow {
  public let window: OpaquePointer
  public let renderer: OpaquePointer
  public let size: PixelSize
  /// Paints through the window's renderer; positions snap to whole pixels
  /// when that renderer is SDL's software one.
  public let painter: TexturePainter
  /// Seconds between vsyncs of the window's display (60 Hz when unknown).
  public let refreshPeriod: Double

  /// Starts SDL's video subsystem with `driver` ("x11,wayland", "kmsdrm").
  static func startVideo(driver: String) throws(RenderError) {
    SDL_SetHint(SDL_HINT_VIDEODRIVER, driver)
    try check("SDL_InitSubSystem(video) with the \(driver) driver", SDL_InitSubSystem(SDL_INIT_VIDEO))
  }

  /// Quits the video subsystem after a failure before a window was made.
  static func stopVideo() { SDL_QuitSubSystem(SDL_INIT_VIDEO) }

  /// Gives `window` (made after `startVideo`) a renderer with vsync, SDL's
  /// software one when no accelerated one can be made. On failure the
  /// window is destroyed and the video subsystem quit.
  init(window: OpaquePointer, size: PixelSize) throws(RenderError) {
    let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
    guard
      let renderer = SDL_CreateRenderer(window, -1, accelerated)
        ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
    else {
      let error = RenderError("SDL_CreateRenderer")
      SDL_DestroyWindow(window)
      SDLWindow.stopVideo()
      throw error
    }
    var info = SDL_RendererInfo()
    SDL_GetRendererInfo(renderer, &info)
    self.window = window
    self.renderer = renderer
    self.size = size
    painter = TexturePainter(renderer: renderer, exactPixels: info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0)
    refreshPeriod = Self.refreshPeriod(of: window)
  }

  /// Seconds between refreshes of `window`'s display (60 Hz when unknown).
  static func refreshPeriod(of window: OpaquePointer) -> Double {
    var mode = SDL_DisplayMode()
    let rate = SDL_GetWindowDisplayMode(window, &mode) == 0 ? Int(mode.refresh_rate) : 0
    return 1 / Double(rate > 0 ? rate : 60)
  }

  private var closed = false

  /// Destroys the renderer and the window and quits the video subsystem
  /// (SDL's KMS gives the screen back to what it showed before); once.
  func close() {
    guard !closed else { return }
    closed = true
    painter.releaseTextures()
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDLWindow.stopVideo()
  }

  deinit { close() }

  /// The name of the SDL renderer in use ("opengl", "software", …).
  public var rendererName: String {
    var info = SDL_RendererInfo()
    SDL_GetRendererInfo(renderer, &info)
    return info.name.map { String(cString: $0) } ?? "unknown"
  }

  /// Paints the frame again with `repaint`, unpresented, and reads it
  /// back from the renderer (what a presented frame was is not kept).
  func readBack(_ repaint: () -> Void) throws(RenderError) -> Pixels {
    repaint()
    let pixels = try Pixels(width: size.width, height: size.height, format: opaqueFormat)
    let surface = pixels.surface.pointee
    try check("SDL_RenderReadPixels", SDL_RenderReadPixels(renderer, nil, opaqueFormat, surface.pixels, surface.pitch))
    return pixels
  }

  /// Draws with `draw` and presents.
  func present(_ draw: () -> Void) {
    draw()
    SDL_RenderPresent(renderer)
  }
}
