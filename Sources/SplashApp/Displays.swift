import SplashCore
import SplashDevices
import SplashRender
import SplashSystem

/// A display back end, open and ready for the splash.
enum OpenDisplay {
  case window(WindowDisplay)
  /// Full screen on DRM card /dev/dri/cardN (nil: the one SDL picked).
  case kmsdrm(WindowDisplay, card: Int?)
  case fbdev(FramebufferDisplay)
  case offscreen(OffscreenDisplay)

  /// The size of a screen whose mode decides it (KMS, the framebuffer);
  /// nil where `--size` does (a window, offscreen).
  var modeSize: PixelSize? {
    switch self {
    case .kmsdrm(let screen, _): screen.size
    case .fbdev(let framebuffer): framebuffer.size
    case .window, .offscreen: nil
    }
  }

  /// The back end's name, as `--display` spells it.
  var choice: DisplayChoice {
    switch self {
    case .window: .window
    case .kmsdrm: .kmsdrm
    case .fbdev: .fbdev
    case .offscreen: .offscreen
    }
  }
}

extension Splashd {
  /// The back ends to try for `settings`, in order. Recording is offscreen.
  /// For `auto`: a window when a desktop session is there; KMS when a DRM
  /// card has a connected connector (or `device` names a card); the
  /// framebuffer when it exists; offscreen last.
  static func displayCandidates(_ settings: Settings) -> [DisplayChoice] {
    if settings.record != nil { return [.offscreen] }
    guard settings.display == .auto else { return [settings.display] }
    var candidates: [DisplayChoice] = []
    if WindowDisplay.desktopAvailable(environment: Environment.value) { candidates.append(.window) }
    let card = settings.device.flatMap(DRMCards.cardNumber(ofDevice:))
    if card != nil || (settings.device == nil && DRMCards.firstConnected() != nil) { candidates.append(.kmsdrm) }
    if Files.exists(framebufferPath(settings)) { candidates.append(.fbdev) }
    if candidates.isEmpty {
      Log.info(
        "no desktop session (DISPLAY and WAYLAND_DISPLAY are unset), no DRM card with a connected connector and no "
          + "\(framebufferPath(settings)): rendering offscreen")
    }
    return candidates + [.offscreen]
  }

  /// The framebuffer fbdev uses: `device` unless that names a DRM card.
  static func framebufferPath(_ settings: Settings) -> String {
    guard let device = settings.device, DRMCards.cardNumber(ofDevice: device) == nil else {
      return Settings.defaultFramebuffer
    }
    return device
  }

  /// Opens the first of `candidates` that opens. With `auto`, each that
  /// fails is logged with its reason and the next is tried; a back end
  /// asked for by name that fails is a runtime failure.
  static func openDisplay(_ settings: Settings, candidates: [DisplayChoice]) throws -> OpenDisplay {
    for (index, choice) in candidates.enumerated() {
      do {
        return try open(choice, settings)
      } catch {
        guard index + 1 < candidates.count else { throw Failure.runtime("--display \(choice.rawValue): \(error)") }
        Log.info("display \(choice.rawValue): \(error); trying \(candidates[index + 1].rawValue)")
      }
    }
    throw Failure.runtime("--display \(settings.display.rawValue): no back end to try")
  }

  /// Why a back end cannot be used, before SDL or the kernel is asked.
  private struct Unavailable: Error, CustomStringConvertible {
    var description: String
  }

  private static func open(_ choice: DisplayChoice, _ settings: Settings) throws -> OpenDisplay {
    switch choice {
    case .window, .auto:
      guard let drivers = WindowDisplay.desktopDrivers(environment: Environment.value) else {
        throw Unavailable(description: "no desktop session (DISPLAY and WAYLAND_DISPLAY are unset)")
      }
      return .window(try WindowDisplay(size: settings.effectiveSize, title: "splashd", drivers: drivers))
    case .kmsdrm:
      var card: Int?
      if let device = settings.device {
        let named = "\(settings.origin(of: "device")) \(device)"
        guard Files.exists(device) else { throw Unavailable(description: "\(named): no such device") }
        guard let number = DRMCards.cardNumber(ofDevice: device) else {
          throw Unavailable(description: "\(named): not a DRM card (/dev/dri/cardN)")
        }
        card = number
      }
      return .kmsdrm(try WindowDisplay(kmsdrmCard: card, mode: settings.mode), card: card)
    case .fbdev:
      return .fbdev(try FramebufferDisplay(path: framebufferPath(settings)))
    case .offscreen:
      return .offscreen(try OffscreenDisplay(size: settings.effectiveSize))
    }
  }
}
