import CSDL2
import SplashCore
import SplashSystem

/// A Linux framebuffer (/dev/fbN) as the display, painted in place in its
/// own pixel layout (16, 24 or 32 bits, either channel order: the pictures
/// are converted to it once, when prepared). Frames go to
/// the shown page (at the mode's x/y offsets): flipping pages by panning
/// showed a black first frame on DRM's fbdev emulation and is left out until
/// understood. Frames wait for vsync where the driver offers it, else the
/// player paces them by the clock at the mode's refresh rate.
public final class FramebufferDisplay {
  public let device: Framebuffer
  /// The visible mode's size.
  public let size: PixelSize
  public let painter: SurfacePainter
  /// Seconds between vsyncs: from the mode's timings, else 60 Hz.
  public let refreshPeriod: Double
  /// The screen's pixel layout as SDL names it.
  public let format: UInt32
  /// Says once what the display can and cannot do (log lines).
  public var onNote: (String) -> Void = { _ in }

  /// The shown page of the screen.
  private let screen: UnsafeMutablePointer<SDL_Surface>
  /// Whether the driver's vsync is used: nil until known.
  private var vsync: Bool?
  private var instantReturns = 0

  /// Opens the framebuffer device at `path`.
  public convenience init(path: String) throws(SDLError) {
    let framebuffer: Framebuffer
    do {
      framebuffer = try Framebuffer(path: path)
    } catch {
      throw SDLError(call: error.call, reason: error.phrase)
    }
    try self.init(framebuffer: framebuffer)
  }

  /// Shows frames on `framebuffer`, whose pixels must hold colour values
  /// (not palette indices) in a layout SDL knows.
  public init(framebuffer: Framebuffer) throws(SDLError) {
    device = framebuffer
    let mode = framebuffer.mode
    size = PixelSize(width: mode.width, height: mode.height)
    refreshPeriod = 1 / (mode.refreshRate.flatMap { $0 > 1 && $0 < 500 ? $0 : nil } ?? 60)
    format =
      mode.isTrueColor && mode.bitsPerPixel % 8 == 0 && mode.red.length > 0
      ? SDL_MasksToPixelFormatEnum(
        Int32(mode.bitsPerPixel), mode.red.mask, mode.green.mask, mode.blue.mask, mode.alpha.mask)
      : SDL_PIXELFORMAT_UNKNOWN.rawValue
    guard format != SDL_PIXELFORMAT_UNKNOWN.rawValue else {
      let kind = mode.isTrueColor ? "" : " palette"
      throw SDLError(
        call: framebuffer.path,
        reason: "unsupported pixel format: \(mode.bitsPerPixel) bpp\(kind), red \(mode.red), green \(mode.green), "
          + "blue \(mode.blue) (splashd draws 16, 24 and 32 bpp true colour)")
    }
    let bytesPerPixel = mode.bitsPerPixel / 8
    let visible = mode.yOffset * mode.lineLength + mode.xOffset * bytesPerPixel
    guard mode.width > 0, mode.height > 0, mode.lineLength >= mode.width * bytesPerPixel,
      visible + (mode.height - 1) * mode.lineLength + mode.width * bytesPerPixel <= mode.memoryLength
    else {
      throw SDLError(
        call: framebuffer.path,
        reason: "the mode \(mode.width)x\(mode.height) at (\(mode.xOffset), \(mode.yOffset)), \(mode.lineLength) "
          + "bytes a row, does not fit its \(mode.memoryLength) bytes of memory")
    }
    guard
      let screen = SDL_CreateRGBSurfaceWithFormatFrom(
        framebuffer.memory + visible, Int32(mode.width), Int32(mode.height), Int32(mode.bitsPerPixel),
        Int32(mode.lineLength), format)
    else { throw SDLError("SDL_CreateRGBSurfaceWithFormatFrom") }
    self.screen = screen
    painter = SurfacePainter(target: screen)
    framebuffer.unblank()
  }

  deinit { SDL_FreeSurface(screen) }

  /// What the display is, for the log.
  public var description: String {
    let name = String(cString: SDL_GetPixelFormatName(format))
    return "\(device.path) \(size.description), \(device.mode.bitsPerPixel) bpp \(name), painted in place"
  }

  /// Shows the frame just painted: flushes it to the screen, waits for
  /// vsync; returns the vsync time when there was one.
  public func show(clock: () -> Double) -> Double? {
    device.flush()
    var shown: Double?
    if vsync != false {
      let before = clock()
      let waited = device.waitForVsync()
      let after = clock()
      // A driver without a vblank interrupt may accept the call and return
      // at once; three frames in a row under 1 ms mean it is no vsync.
      if waited && after - before < 0.001 { instantReturns += 1 } else { instantReturns = 0 }
      if !waited || instantReturns >= 3 {
        let reason = waited ? "FBIO_WAITFORVSYNC returns at once" : "FBIO_WAITFORVSYNC unsupported"
        onNote(
          "\(device.path): no vsync (\(reason)); pacing by a \(formatNumber((1 / refreshPeriod).rounded())) Hz timer")
        vsync = false
      } else {
        vsync = true
        shown = after
      }
    }
    return shown
  }
}

/// Plays into a framebuffer.
public final class FramebufferSink: SceneSink {
  public let display: FramebufferDisplay
  /// What is drawn; replaced when the splash turns while it holds.
  public var scene: SceneRenderer
  private let clock: () -> Double
  private var lastProgress = 0.0

  public init(display: FramebufferDisplay, scene: SceneRenderer, clock: @escaping () -> Double) {
    self.display = display
    self.scene = scene
    self.clock = clock
  }

  public var refreshPeriod: Double { display.refreshPeriod }

  public func present(_ frame: FrameRequest) throws -> Double? {
    lastProgress = frame.progress
    scene.draw(progress: frame.progress)
    return display.show(clock: clock)
  }

  public func redraw() {
    scene.draw(progress: lastProgress)
    _ = display.show(clock: clock)
  }
}
