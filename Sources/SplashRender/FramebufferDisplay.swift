import CSDL2
import SplashCore
import SplashSystem

/// A Linux framebuffer (/dev/fbN) as the display. 32-bit XRGB screens are
/// painted in place; other layouts (16 and 24 bits, BGR orders, …) are
/// painted into memory and converted by SDL into the screen. Frames go to
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
  /// Frames painted here and converted, when the screen is not XRGB.
  private let staging: Pixels?
  /// Whether the driver's vsync is used: nil until known.
  private var vsync: Bool?
  private var instantReturns = 0

  public init(path: String) throws(SDLError) {
    do {
      device = try Framebuffer(path: path)
    } catch {
      throw SDLError(call: "open \(path)", reason: error.phrase)
    }
    size = PixelSize(width: device.width, height: device.height)
    refreshPeriod = 1 / (device.refreshRate.flatMap { $0 > 1 && $0 < 500 ? $0 : nil } ?? 60)
    func mask(_ channel: (offset: Int, length: Int)) -> UInt32 {
      channel.length == 0 ? 0 : UInt32(truncatingIfNeeded: ((1 << channel.length) - 1) << channel.offset)
    }
    format = SDL_MasksToPixelFormatEnum(
      Int32(device.bitsPerPixel), mask(device.red), mask(device.green), mask(device.blue), mask(device.alpha))
    guard format != SDL_PIXELFORMAT_UNKNOWN.rawValue, device.bitsPerPixel % 8 == 0 else {
      throw SDLError(
        call: path,
        reason:
          "unsupported pixel layout: \(device.bitsPerPixel) bpp, red \(device.red), green \(device.green), blue \(device.blue)"
      )
    }
    let bytesPerPixel = device.bitsPerPixel / 8
    let origin = device.memory + device.yOffset * device.lineLength + device.xOffset * bytesPerPixel
    guard
      let screen = SDL_CreateRGBSurfaceWithFormatFrom(
        origin, Int32(device.width), Int32(device.height), Int32(device.bitsPerPixel), Int32(device.lineLength), format)
    else { throw SDLError("SDL_CreateRGBSurfaceWithFormatFrom") }
    self.screen = screen
    staging =
      format == opaqueFormat ? nil : try Pixels(width: device.width, height: device.height, format: opaqueFormat)
    painter = SurfacePainter(target: staging?.surface ?? screen)
    device.unblank()
  }

  deinit { SDL_FreeSurface(screen) }

  /// What the display is, for the log.
  public var description: String {
    let name = String(cString: SDL_GetPixelFormatName(format))
    let painting = staging == nil ? "painted in place" : "converted from XRGB8888"
    return "\(device.path) \(size.description), \(device.bitsPerPixel) bpp \(name), \(painting)"
  }

  /// Shows the frame just painted: converts it when needed, flushes it to
  /// the screen, waits for vsync; returns the vsync time when there was one.
  public func show(clock: () -> Double) -> Double? {
    if let staging {
      let target = screen.pointee
      SDL_ConvertPixels(
        target.w, target.h, opaqueFormat, staging.surface.pointee.pixels, staging.surface.pointee.pitch, format,
        target.pixels, target.pitch)
    }
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
