import CSDL2
import SplashCore
import SplashSystem

/// An SDL window presented with vsync: on the desktop (X11 or Wayland), or
/// full screen on a DRM card through SDL's KMSDRM driver.
public final class WindowDisplay {
  public let size: PixelSize
  public let window: OpaquePointer
  public let renderer: OpaquePointer
  /// Paints through the window's renderer; positions snap to whole pixels
  /// when that renderer is SDL's software one.
  public let painter: TexturePainter
  /// Seconds between vsyncs of the window's display (60 Hz when unknown).
  public let refreshPeriod: Double
  /// A present returns once its page flip is done (KMS with SDL's
  /// double-buffer hint): the time it returns is the frame's vsync.
  public let presentWaitsForFlip: Bool
  /// The user closed the window or pressed Escape.
  public private(set) var closed = false

  /// Whether a desktop session is there to open a window on.
  public static func desktopAvailable(environment: (String) -> String?) -> Bool {
    desktopDrivers(environment: environment) != nil
  }

  /// SDL's video drivers for the desktop sessions the environment names
  /// ("x11", "wayland" or both), nil for none.
  public static func desktopDrivers(environment: (String) -> String?) -> String? {
    let drivers = [("DISPLAY", "x11"), ("WAYLAND_DISPLAY", "wayland")].filter { !(environment($0.0) ?? "").isEmpty }
    return drivers.isEmpty ? nil : drivers.map(\.1).joined(separator: ",")
  }

  /// Opens a window whose inner size is `size` on the desktop session that
  /// `drivers` (from `desktopDrivers`) name; only there: SDL would otherwise
  /// fall through to its own offscreen or KMSDRM drivers and "open a window"
  /// nobody sees.
  public convenience init(size: PixelSize, title: String, drivers: String) throws(SDLError) {
    // A preview window: leave the desktop's compositor running (SDL would ask
    // X11 compositors to step aside, as for a full-screen game).
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
    SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers)
    try check("SDL_InitSubSystem(video) with the \(drivers) driver", SDL_InitSubSystem(SDL_INIT_VIDEO))
    guard
      let window = SDL_CreateWindow(
        title, Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(size.width),
        Int32(size.height), SDL_WINDOW_SHOWN.rawValue)
    else {
      let error = SDLError("SDL_CreateWindow")
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw error
    }
    try self.init(window: window, size: size, presentWaitsForFlip: false)
  }

  /// Takes the screen of DRM card `card` (/dev/dri/cardN; nil lets SDL pick
  /// the first with a connected connector) through SDL's KMSDRM driver, at
  /// the mode asked for, else the connector's preferred one. Needs EGL and
  /// GLES (Mesa) at run time.
  public convenience init(kmsdrmCard card: Int?, mode request: DisplayModeRequest?) throws(SDLError) {
    if let card { setenv("SDL_KMSDRM_DEVICE_INDEX", String(card), 1) }
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "kmsdrm")
    // Each present waits until its page flip is done: by default SDL queues
    // the flip and returns, so a still frame (the held splash) would not
    // reach the screen until the next present, and "appeared" would come
    // before the picture did.
    SDL_SetHint(SDL_HINT_VIDEO_DOUBLE_BUFFER, "1")
    try check("SDL_InitSubSystem(video) with the kmsdrm driver", SDL_InitSubSystem(SDL_INIT_VIDEO))
    var mode = SDL_DisplayMode()
    if let request {
      var offered: [String] = []
      var found = false
      for index in 0..<max(0, SDL_GetNumDisplayModes(0)) {
        var candidate = SDL_DisplayMode()
        guard SDL_GetDisplayMode(0, index, &candidate) == 0 else { continue }
        offered.append("\(candidate.w)x\(candidate.h)@\(candidate.refresh_rate)")
        let size = PixelSize(width: Int(candidate.w), height: Int(candidate.h))
        // SDL lists modes from the highest refresh rate down: the first match is the fastest.
        if !found && request.matches(size, refreshRate: Int(candidate.refresh_rate)) {
          mode = candidate
          found = true
        }
      }
      guard found else {
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        throw SDLError(
          call: "--mode \(request)",
          reason: "the connector has no such mode; it offers " + offered.joined(separator: ", "))
      }
    } else {
      guard SDL_GetDesktopDisplayMode(0, &mode) == 0 else {
        let error = SDLError("SDL_GetDesktopDisplayMode")
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        throw error
      }
    }
    guard
      let window = SDL_CreateWindow(
        "splashd", 0, 0, mode.w, mode.h, SDL_WINDOW_FULLSCREEN.rawValue | SDL_WINDOW_SHOWN.rawValue)
    else {
      let error = SDLError("SDL_CreateWindow")
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw error
    }
    if request != nil && SDL_SetWindowDisplayMode(window, &mode) != 0 {
      let error = SDLError("SDL_SetWindowDisplayMode")
      SDL_DestroyWindow(window)
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw error
    }
    SDL_ShowCursor(SDL_DISABLE)
    try self.init(
      window: window, size: PixelSize(width: Int(mode.w), height: Int(mode.h)), presentWaitsForFlip: true)
  }

  /// Gives `window` a renderer with vsync (SDL's software one when no
  /// accelerated one can be made).
  private init(window: OpaquePointer, size: PixelSize, presentWaitsForFlip: Bool) throws(SDLError) {
    self.size = size
    self.presentWaitsForFlip = presentWaitsForFlip
    let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
    guard
      let renderer = SDL_CreateRenderer(window, -1, accelerated)
        ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
    else {
      let error = SDLError("SDL_CreateRenderer")
      SDL_DestroyWindow(window)
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw error
    }
    var info = SDL_RendererInfo()
    SDL_GetRendererInfo(renderer, &info)
    var mode = SDL_DisplayMode()
    let rate = SDL_GetWindowDisplayMode(window, &mode) == 0 ? Int(mode.refresh_rate) : 0
    self.window = window
    self.renderer = renderer
    painter = TexturePainter(renderer: renderer, exactPixels: info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0)
    refreshPeriod = 1 / Double(rate > 0 ? rate : 60)
  }

  deinit {
    painter.releaseTextures()
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_QuitSubSystem(SDL_INIT_VIDEO)
  }

  /// The name of the SDL renderer in use ("opengl", "software", …).
  public var rendererName: String {
    var info = SDL_RendererInfo()
    SDL_GetRendererInfo(renderer, &info)
    return info.name.map { String(cString: $0) } ?? "unknown"
  }

  /// Handles pending window events; returns true when the window must be redrawn.
  @discardableResult
  public func handleEvents(waitingUpTo seconds: Double = 0) -> Bool {
    var event = SDL_Event()
    var exposed = false
    var timeout = Int32(max(0, min(seconds * 1000, 1_000_000)).rounded(.up))
    while timeout > 0 ? SDL_WaitEventTimeout(&event, timeout) != 0 : SDL_PollEvent(&event) != 0 {
      timeout = 0
      switch SDL_EventType(event.type) {
      case SDL_QUIT: closed = true
      case SDL_KEYDOWN where event.key.keysym.sym == Int32(SDLK_ESCAPE.rawValue): closed = true
      case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue): exposed = true
      default: break
      }
    }
    return exposed
  }
}

/// Plays into a window; SDL_RenderPresent waits for vsync where the driver
/// honours it, and the player paces by the clock where it does not.
public final class WindowSink: SceneSink, PresentationClock {
  public let display: WindowDisplay
  /// What is drawn; replaced when the splash turns while it holds.
  public var scene: SceneRenderer
  private let clock: MonotonicClock
  private let stopCheck: () throws -> Void
  private var lastProgress = 0.0
  private var presented = false

  /// `stopCheck` throws `PlaybackInterrupted` when the splash must end; it
  /// is called at every frame and every 50 ms of sleep.
  public init(
    display: WindowDisplay, scene: SceneRenderer, clock: MonotonicClock, stopCheck: @escaping () throws -> Void
  ) {
    self.display = display
    self.scene = scene
    self.clock = clock
    self.stopCheck = stopCheck
  }

  public var refreshPeriod: Double { display.refreshPeriod }

  public func present(_ frame: FrameRequest) throws -> Double? {
    display.handleEvents()
    if display.closed { throw PlaybackInterrupted(reason: "the window was closed") }
    lastProgress = frame.progress
    scene.draw(progress: frame.progress)
    SDL_RenderPresent(display.renderer)
    guard display.presentWaitsForFlip else { return nil }
    if !presented {
      // Under SDL 2.26's KMSDRM (seen on bochs-drm in QEMU) the first
      // present of a fresh window did not reach the screen, and a still
      // frame is presented only once; the same frame again, flipped, does.
      scene.draw(progress: frame.progress)
      SDL_RenderPresent(display.renderer)
      presented = true
    }
    return clock.now()
  }

  public func now() -> Double { clock.now() }

  public func redraw() {
    scene.draw(progress: lastProgress)
    SDL_RenderPresent(display.renderer)
  }

  /// Sleeps while waiting on window events, redrawing the still picture
  /// when the window is exposed; ends at once when the window is closed,
  /// and within 50 ms when `stopCheck` says so (SDL's event wait cannot
  /// watch other descriptors).
  public func sleep(until deadline: Double) throws {
    while !display.closed {
      try checkForStop()
      let remaining = deadline - clock.now()
      if remaining <= 0 { return }
      if display.handleEvents(waitingUpTo: min(remaining, 0.05)) { redraw() }
    }
  }

  public func checkForStop() throws { try stopCheck() }

  /// Handles the window's pending events without waiting: redraws when it
  /// was exposed, throws when it was closed or a stop was asked for.
  public func tend() throws {
    try checkForStop()
    if display.handleEvents() { redraw() }
    if display.closed { throw PlaybackInterrupted(reason: "the window was closed") }
  }
}
