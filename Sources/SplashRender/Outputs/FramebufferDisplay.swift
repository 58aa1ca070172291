// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSystem

/// A Linux framebuffer (/dev/fbN) as the display, painted in place in its
/// own pixel layout (16, 24 or 32 bits, either channel order: the pictures
/// are converted to it once, when prepared). Where the driver can pan and
/// the virtual screen holds two pages, each frame is painted on the hidden
/// page and shown by panning to it (no tearing); otherwise frames go to the
/// shown page. DRM's fbdev emulation is never flipped: there (Linux 6.1,
/// bochs-drm) a page drawn below the first and panned to showed black.
/// Frames wait for vsync where the driver offers it, else the player paces
/// them by the clock at the mode's refresh rate.
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

  /// The pages frames are painted into: the shown one alone, or two
  /// flipped by panning.
  private let pages: [UnsafeMutablePointer<SDL_Surface>]
  /// The first row of each page in the virtual screen.
  private let pageRows: [Int]
  /// The page on the screen, and the row the screen started at.
  private var shown: Int
  private let startRow: Int
  /// Frames are painted on the hidden page and panned to.
  private var flipping: Bool
  /// Whether the driver's vsync is used: nil until known.
  private var vsync: Bool?
  private var instantReturns = 0

  /// Opens the framebuffer device at `path`.
  public convenience init(path: String) throws(RenderError) {
    let framebuffer: Framebuffer
    do {
      framebuffer = try Framebuffer(path: path)
    } catch {
      throw RenderError(error)
    }
    try self.init(framebuffer: framebuffer)
  }

  /// Shows frames on `framebuffer`, whose pixels must hold colour values
  /// (not palette indices) in a layout SDL knows.
  public init(framebuffer: Framebuffer) throws(RenderError) {
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
      throw RenderError(
        call: framebuffer.path,
        reason: "unsupported pixel format: \(mode.bitsPerPixel) bpp\(kind), red \(mode.red), green \(mode.green), "
          + "blue \(mode.blue) (splashd draws 16, 24 and 32 bpp true colour)")
    }
    let bytesPerPixel = mode.bitsPerPixel / 8
    func fits(rows: Int) -> Bool {
      mode.xOffset * bytesPerPixel + (rows - 1) * mode.lineLength + mode.width * bytesPerPixel <= mode.memoryLength
    }
    guard mode.width > 0, mode.height > 0, mode.lineLength >= mode.width * bytesPerPixel,
      fits(rows: mode.yOffset + mode.height)
    else {
      throw RenderError(
        call: framebuffer.path,
        reason: "the mode \(mode.width)x\(mode.height) at (\(mode.xOffset), \(mode.yOffset)), \(mode.lineLength) "
          + "bytes a row, does not fit its \(mode.memoryLength) bytes of memory")
    }
    startRow = mode.yOffset
    flipping =
      mode.panStep > 0 && mode.virtualHeight >= 2 * mode.height && !mode.driver.hasSuffix("drmfb")
      && (startRow == 0 || startRow == mode.height) && fits(rows: 2 * mode.height)
    pageRows = flipping ? [0, mode.height] : [startRow]
    shown = pageRows.firstIndex(of: startRow) ?? 0
    var pages: [UnsafeMutablePointer<SDL_Surface>] = []
    for row in pageRows {
      guard
        let page = SDL_CreateRGBSurfaceWithFormatFrom(
          framebuffer.memory + row * mode.lineLength + mode.xOffset * bytesPerPixel, Int32(mode.width),
          Int32(mode.height), Int32(mode.bitsPerPixel), Int32(mode.lineLength), format)
      else {
        for page in pages { SDL_FreeSurface(page) }
        throw RenderError("SDL_CreateRGBSurfaceWithFormatFrom")
      }
      pages.append(page)
    }
    self.pages = pages
    painter = SurfacePainter(target: pages[flipping ? 1 - shown : shown])
    framebuffer.unblank()
  }

  deinit { for page in pages { SDL_FreeSurface(page) } }

  /// What the display is, for the log.
  public var description: String {
    let name = String(cString: SDL_GetPixelFormatName(format))
    let pagesText = flipping ? "two pages flipped by panning" : "painted on the shown page"
    return "\(device.path) \(size.description), \(device.mode.bitsPerPixel) bpp \(name), \(pagesText)"
  }

  /// The page on the screen now, as a PNG file's bytes.
  /// A copy of what the shown page holds.
  public func shownPage() throws(RenderError) -> Pixels { try .copy(of: pages[shown]) }

  /// What the page painted next holds: the last frame when frames are
  /// painted on the shown page; nothing known when pages flip.
  public var frameAge: Int? { flipping ? nil : 1 }

  /// Shows the frame just painted: flushes it to the screen, waits for
  /// vsync; returns the vsync time when there was one.
  public func show(clock: () -> Double) -> Double? {
    device.flush()
    if flipping {
      let back = 1 - shown
      do {
        try device.pan(toRow: pageRows[back])
        shown = back
        painter.target = pages[1 - shown]
      } catch {
        onNote("\(device.path): cannot pan (\(error.phrase)): painting on the shown page")
        copy(page: back, onto: shown)
        flipping = false
        painter.target = pages[shown]
      }
    }
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

extension FramebufferDisplay {
  /// Leaves the screen at the row it started at, showing the last frame:
  /// the program that comes next may draw there without panning.
  public func returnToStartPage() {
    guard pageRows[shown] != startRow, let start = pageRows.firstIndex(of: startRow) else { return }
    copy(page: shown, onto: start)
    do {
      try device.pan(toRow: startRow)
      shown = start
    } catch {
      onNote("\(device.path): cannot pan back to row \(startRow): \(error.phrase)")
    }
  }

  /// Copies the visible rows of one page onto another and flushes them.
  private func copy(page source: Int, onto target: Int) {
    let from = pages[source].pointee
    let to = pages[target].pointee
    for row in 0..<Int(from.h) {
      memcpy(
        to.pixels + row * Int(to.pitch), from.pixels + row * Int(from.pitch), Int(from.w) * device.mode.bitsPerPixel / 8
      )
    }
    device.flush()
  }
}
