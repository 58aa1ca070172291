// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashDevices
import SplashSettings
import SplashSystem

/// Full screen on a DRM card through SDL's KMSDRM driver (EGL, GBM and GLES
/// from Mesa at run time). Each present waits for its page flip, so its
/// return is the frame's vsync; the first frame is presented twice (SDL
/// 2.26's first KMS present did not reach the screen under QEMU). When a
/// program follows, the last frame is painted into the card's fbdev
/// emulation (/dev/fb0), which SDL gives the screen back to when it lets go.
public final class SDLKMSOutput: Output {
  public let window: SDLWindow
  /// /dev/dri/cardN, nil when SDL picked the card.
  public let card: Int?
  private let note: (String) -> Void
  private let clock: EventClock
  private var presented = false

  /// The registry's entry: tried when a card has a connected connector,
  /// or `--device` names one.
  public static let backEnd = BackEnd(
    name: "kmsdrm", traits: .card,
    help: "Full screen on a DRM card through SDL's KMSDRM driver (needs Mesa's EGL and GLES), presented with "
      + "vsync; --device picks the card, --mode the mode.",
    probe: { request in
      let card = DRMCards.probe(request)
      guard card.tried, let missing = missingGLStack() else { return card }
      return .skipped("\(missing): SDL's KMSDRM cannot start")
    },
    open: { request throws(RenderError) in
      try SDLKMSOutput(
        card: try DRMCards.requestedCard(request), mode: request.mode, clock: request.clock, note: request.note)
    })

  /// The library directories the dynamic loader looks in, this machine's
  /// multiarch one first.
  public static let libraryDirectories: [String] = {
    #if arch(x86_64)
      let multiarch = "x86_64-linux-gnu"
    #elseif arch(arm64)
      let multiarch = "aarch64-linux-gnu"
    #elseif arch(arm)
      let multiarch = "arm-linux-gnueabihf"
    #else
      let multiarch = "unknown"
    #endif
    return ["/usr/lib/" + multiarch, "/lib/" + multiarch, "/usr/lib64", "/usr/lib", "/lib"]
  }()

  /// What SDL's KMSDRM needs at run time and cannot find under `root`:
  /// libEGL, libgbm and a Mesa DRI driver (GBM's and EGL's back end); nil
  /// when all are there. Judged by the files alone, so nothing is loaded.
  public static func missingGLStack(under root: String = "") -> String? {
    func found(_ name: String) -> Bool { libraryDirectories.contains { Files.exists(root + $0 + "/" + name) } }
    if !found("libEGL.so.1") { return "no libEGL.so.1 (Debian's libegl1)" }
    if !found("libgbm.so.1") { return "no libgbm.so.1 (libgbm1)" }
    let drivers = libraryDirectories.contains { directory in
      ((try? Files.entries(of: root + directory + "/dri")) ?? []).contains { $0.hasSuffix("_dri.so") }
    }
    return drivers ? nil : "no Mesa DRI driver (libgl1-mesa-dri)"
  }

  /// Takes the screen of DRM card `card` (nil lets SDL pick the first with
  /// a connected connector) at the mode asked for, else the connector's
  /// preferred one.
  public init(
    card: Int?, mode request: DisplayModeRequest?, clock: EventClock, note: @escaping (String) -> Void = { _ in }
  ) throws(RenderError) {
    self.card = card
    self.clock = clock
    self.note = note
    if let card { Environment.set("SDL_KMSDRM_DEVICE_INDEX", String(card)) }
    // Each present waits until its page flip is done: by default SDL queues
    // the flip and returns, so a still frame (the held splash) would not
    // reach the screen until the next present, and "appeared" would come
    // before the picture did.
    SDL_SetHint(SDL_HINT_VIDEO_DOUBLE_BUFFER, "1")
    try SDLWindow.startVideo(driver: "kmsdrm")
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
        SDLWindow.stopVideo()
        throw RenderError(
          call: "--mode \(request)",
          reason: "the connector has no such mode; it offers " + offered.joined(separator: ", "))
      }
    } else {
      guard SDL_GetDesktopDisplayMode(0, &mode) == 0 else {
        let error = RenderError("SDL_GetDesktopDisplayMode")
        SDLWindow.stopVideo()
        throw error
      }
    }
    guard
      let made = SDL_CreateWindow(
        "splashd", 0, 0, mode.w, mode.h, SDL_WINDOW_FULLSCREEN.rawValue | SDL_WINDOW_SHOWN.rawValue)
    else {
      let error = RenderError("SDL_CreateWindow")
      SDLWindow.stopVideo()
      throw error
    }
    if request != nil && SDL_SetWindowDisplayMode(made, &mode) != 0 {
      let error = RenderError("SDL_SetWindowDisplayMode")
      SDL_DestroyWindow(made)
      SDLWindow.stopVideo()
      throw error
    }
    SDL_ShowCursor(SDL_DISABLE)
    window = try SDLWindow(window: made, size: PixelSize(width: Int(mode.w), height: Int(mode.h)))
  }

  public var name: String { "kmsdrm" }
  public var traits: OutputTraits { .card }
  public var description: String {
    "\(card.map { "/dev/dri/card\($0)" } ?? "the first connected card"), "
      + "\(size.description)@\(formatNumber((1 / refreshPeriod).rounded())), renderer \(window.rendererName)"
  }
  public var screens: [OutputScreen] {
    [
      OutputScreen(
        name: name, size: window.size, painter: window.painter, mode: window.size.description, frameAge: nil)
    ]
  }
  public var refreshPeriod: Double { window.refreshPeriod }
  public var eventDescriptors: [FileDescriptor] { [] }
  public func handleEvents() -> OutputEvents { [] }

  public func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    window.present { draw(0) }
    if !presented {
      // Under SDL 2.26's KMSDRM (seen on bochs-drm in QEMU) the first
      // present of a fresh window did not reach the screen, and a still
      // frame is presented only once; the same frame again, flipped, does.
      window.present { draw(0) }
      presented = true
    }
    return clock.now()
  }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels {
    try window.readBack(repaintLast)
  }

  /// With a program to follow, copies the last frame into /dev/fb0 (when it
  /// is there and the mode's size), drawn again and read back from the
  /// renderer, and leaves the VT in graphics mode: SDL
  /// gives the CRTC back to that framebuffer when it lets go, so the screen
  /// keeps the last frame until the program sets its own. Without a program
  /// the console comes back. Either way SDL lets go of the card here.
  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {
    defer { window.close() }
    guard keepingLastFrame else { return }
    let path = Settings.defaultFramebuffer
    guard Files.exists(path) else { return }
    do {
      let framebuffer = try FramebufferDisplay(path: path)
      guard framebuffer.size == size else {
        note("\(path) is \(framebuffer.size.description), not the mode's size: the last frame is not kept")
        return
      }
      _ = try? GraphicsConsole()
      repaintLast()
      let target = framebuffer.painter.target.pointee
      try check(
        "SDL_RenderReadPixels",
        SDL_RenderReadPixels(window.renderer, nil, framebuffer.format, target.pixels, target.pitch))
      framebuffer.device.flush()
    } catch {
      note("the last frame is not kept in \(path): \(error)")
    }
  }
}
