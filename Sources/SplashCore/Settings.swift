/// Where the splash is shown.
public enum DisplayChoice: String, CaseIterable, Equatable, Sendable {
  /// A desktop window when a desktop session is there, else KMS when a DRM
  /// card has a connected connector, else the framebuffer when there is one,
  /// else offscreen; each that fails to open is passed over.
  case auto
  /// A desktop window (X11 or Wayland through SDL), presented with vsync.
  case window
  /// Full screen on a DRM card through SDL's KMSDRM driver (`device`, else
  /// the first card with a connected connector), presented with vsync.
  case kmsdrm
  /// A Linux framebuffer device (`device`, /dev/fb0 by default).
  case fbdev
  /// Rendered into memory, paced by the clock at `fps`.
  case offscreen
}

/// What lies behind the splash, as configured.
public enum BackgroundSetting: Equatable, Sendable {
  case color(Color)
  case image(String)

  /// The spelling used on the command line and in the config file.
  public var text: String {
    switch self {
    case .color(let c): return c.hex
    case .image(let path): return path
    }
  }
}

/// Where `rotate = auto` looks for the display's orientation.
public enum OrientationSource: String, CaseIterable, Equatable, Sendable {
  /// An evdev accelerometer (/dev/input/eventN with INPUT_PROP_ACCELEROMETER).
  case evdev
  /// A rotation switch or keys (`switch`), mapped to angles by `switch-map`.
  case `switch`
  /// A DRM connector's "panel orientation" property.
  case panel
  /// An IIO accelerometer in sysfs.
  case iio
  /// The kernel command line (video=…,rotate=…, panel_orientation=…, fbcon=rotate:…).
  case cmdline
}

/// Where a setting came from, so that an error can name it.
public enum SettingSource: Equatable, Sendable {
  /// A command-line option, such as `--rotate`.
  case commandLine
  /// Line `line` of the config file at `path`; relative paths in it are
  /// taken relative to `directory`.
  case configFile(path: String, line: Int, directory: String)

  /// How a message names the setting `key` from this source.
  public func name(of key: String) -> String {
    switch self {
    case .commandLine: return "--\(key)"
    case .configFile(let path, let line, _): return "\(path):\(line): \(key)"
    }
  }

  /// A program name as given: a bare name is looked up in PATH, a path
  /// with a slash relative to a config file's directory.
  func resolve(program: String) -> String {
    program.contains("/") ? resolve(path: program) : program
  }

  /// `path` as given, or, for a relative path in a config file, joined to
  /// the file's directory.
  func resolve(path: String) -> String {
    guard case .configFile(_, _, let directory) = self, !path.hasPrefix("/"), !directory.isEmpty
    else { return path }
    return directory == "/" ? "/" + path : directory + "/" + path
  }
}

/// A setting that cannot be used; `message` names its source and what was expected.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Everything that shapes one run of splashd.
public struct Settings: Equatable, Sendable {
  public var image: String?
  public var left: String?
  public var right: String?
  /// Pictures made for one shape of the screen (`image-portrait`,
  /// `left-landscape`, …), by key; used instead of `image` or the leaves
  /// when the logical canvas has that shape.
  public var shapedArtwork: [String: String] = [:]
  public var background: BackgroundSetting = .color(.black)
  public var transition: TransitionKind = .doors
  /// The transition's duration; nil means the transition's default.
  public var duration: Double?
  public var hold: Double = 0
  public var easing: Easing = .easeInOut
  public var rotate: Rotation = .none
  /// `rotate = auto`: the angle comes from the orientation sources.
  public var rotateAuto = false
  /// The orientation sources, consulted in order until one answers.
  public var orientationSources: [OrientationSource] = [.evdev, .iio, .panel, .cmdline]
  /// The DRM card whose panel orientation is read; nil for the first with
  /// a connected connector.
  public var panel: String?
  /// The evdev accelerometer; nil to find the first one.
  public var evdev: String?
  /// Seconds an accelerometer may take to give its first reading.
  public var settle = 0.2
  /// Keep following the accelerometer or switch while the splash holds.
  public var follow = true
  /// The evdev device with the rotation switch or keys.
  public var switchDevice: String?
  /// Which switch or key means which angle.
  public var switchMap: SwitchMap?
  /// The IIO accelerometer's sysfs directory; nil to find the first one.
  public var iio: String?
  /// Where the kernel command line is read.
  public var cmdline = "/proc/cmdline"
  /// Overrides the accelerometer's own mount matrix.
  public var mountMatrix: MountMatrix?
  public var fit: Fit = .cover
  public var display: DisplayChoice = .auto
  /// The display device: the framebuffer for fbdev (nil: /dev/fb0), the
  /// DRM card for kmsdrm (nil: the first with a connected connector).
  public var device: String?
  /// The KMS mode to set; nil keeps the connector's preferred mode.
  public var mode: DisplayModeRequest?
  /// The display's physical size; nil means `defaultSize`.
  public var size: PixelSize?
  public var record: String?
  public var fps: Double = 60
  /// The program (and its arguments) to hand off to after the transition.
  public var program: [String]?
  /// The transition waits (after the hold) until this file exists.
  public var untilFile: String?
  /// The transition waits (after the hold) for `splashctl reveal`.
  public var untilReveal = false
  /// `ready = notify`: start the program first, as splashd's child, and
  /// reveal when it sends READY=1.
  public var readyNotify = false
  /// The longest the gate holds the splash, in seconds from the first frame; 0 for no limit.
  public var timeout: Double = 30
  /// The control socket's path; nil for the default (see `controlPath`).
  public var control: String?
  /// The group allowed to use the control socket besides its owner.
  public var controlGroup: String?

  /// Whether anything holds the splash after the hold.
  public var hasGate: Bool { untilFile != nil || untilReveal || readyNotify }

  /// Where the control socket goes: `control` when set, else
  /// `$RUNTIME_DIRECTORY/control` under systemd, else /run/splashd/control
  /// when `until-reveal` needs one; nil for none.
  public func controlPath(runtimeDirectory: String?) -> String? {
    if let control { return control }
    if let directory = runtimeDirectory?.split(separator: ":").first { return directory + "/control" }
    return untilReveal ? "/run/splashd/control" : nil
  }
  /// How messages name each key that was set: `--image` or `FILE:LINE: image`.
  public var origins: [String: String] = [:]

  public init() {}

  /// How messages name the setting `key`: where it was last set, else its option.
  public func origin(of key: String) -> String { origins[key] ?? "--\(key)" }

  /// The size used when none is given: 1280×720.
  public static let defaultSize = PixelSize(width: 1280, height: 720)
  /// The largest accepted side, for the display and for pictures.
  public static let maxSide = 16384
  /// The largest accepted hold and duration, in seconds.
  public static let maxHold = 86400.0
  public static let maxDuration = 60.0
  public static let maxFPS = 1000.0
  public static let maxTimeout = 86400.0
  /// The longest an accelerometer may delay the first frame.
  public static let maxSettle = 5.0
  /// The framebuffer used when `device` is not set.
  public static let defaultFramebuffer = "/dev/fb0"

  /// The config file's sections and their keys. The `[splash]` keys are
  /// the long option names that take a value.
  public static let sectionKeys: [(section: String, keys: [String])] = [
    (
      "splash",
      [
        "image", "left", "right", "image-portrait", "left-portrait", "right-portrait", "image-landscape",
        "left-landscape", "right-landscape", "background", "transition", "duration", "hold", "easing",
        "rotate", "fit", "display", "device", "mode", "size", "record", "fps",
      ]
    ),
    ("handoff", ["exec", "ready", "until-file", "until-reveal", "timeout", "control", "control-group"]),
    (
      "orientation",
      ["sources", "evdev", "switch", "switch-map", "iio", "panel", "cmdline", "mount-matrix", "settle", "follow"]
    ),
  ]

  /// The long options that take a value.
  public static let optionKeys = sectionKeys[0].keys + ["ready", "until-file", "timeout", "control", "control-group"]

  /// The section that holds `key`, if any.
  public static func section(of key: String) -> String? {
    sectionKeys.first { $0.keys.contains(key) }?.section
  }

  public var effectiveDuration: Double { duration ?? transition.defaultDuration }

  /// The pictures for the logical canvas's shape (portrait when it is
  /// taller than wide): that shape's own when given, else `image` or the
  /// leaves.
  public var artworkForCanvas: ArtworkChoice {
    let canvas = rotate.logicalSize(ofPhysical: effectiveSize)
    let shape = canvas.height > canvas.width ? "portrait" : "landscape"
    var paths = shapedArtwork
    paths["image"] = image
    paths["left"] = left
    paths["right"] = right
    for suffix in ["-" + shape, ""] {
      if let path = paths["image" + suffix] { return ArtworkChoice(keys: ["image" + suffix], paths: [path]) }
      if let left = paths["left" + suffix], let right = paths["right" + suffix] {
        return ArtworkChoice(keys: ["left" + suffix, "right" + suffix], paths: [left, right])
      }
    }
    return ArtworkChoice(keys: [], paths: [])
  }
  public var effectiveSize: PixelSize { size ?? Self.defaultSize }
  public var timeline: Timeline { Timeline(hold: hold, duration: effectiveDuration, easing: easing) }

  /// Sets `key` from its text `value`, as given at `source`.
  public mutating func apply(key: String, value: String, from source: SettingSource) throws(SettingsError) {
    let name = source.name(of: key)
    defer { origins[key] = name }
    func fail(_ expected: String) -> SettingsError {
      SettingsError("\(name): expected \(expected), got \"\(value)\"")
    }
    /// A number of seconds from 0 to `limit`; `zero` says what 0 means, if anything special.
    func seconds(upTo limit: Double, zero: String = "") throws(SettingsError) -> Double {
      guard let seconds = parseDecimal(value), seconds <= limit else {
        throw fail("a number of seconds from 0\(zero) to \(formatNumber(limit))")
      }
      return seconds
    }
    func yesOrNo() throws(SettingsError) -> Bool {
      switch value {
      case "yes", "true", "1": return true
      case "no", "false", "0": return false
      default: throw fail("yes or no")
      }
    }
    func path() throws(SettingsError) -> String {
      guard !value.isEmpty else { throw fail("a file name") }
      return source.resolve(path: value)
    }
    switch key {
    case "image": image = try path()
    case "image-portrait", "left-portrait", "right-portrait", "image-landscape", "left-landscape", "right-landscape":
      shapedArtwork[key] = try path()
    case "left": left = try path()
    case "right": right = try path()
    case "record": record = try path()
    case "background":
      if value.hasPrefix("#") {
        guard let color = Color(hex: value) else { throw fail("a colour as #RRGGBB or a picture file") }
        background = .color(color)
      } else {
        background = .image(try path())
      }
    case "transition":
      guard let kind = TransitionKind(rawValue: value) else { throw fail("doors or crossfade") }
      transition = kind
    case "duration": duration = try seconds(upTo: Self.maxDuration)
    case "hold": hold = try seconds(upTo: Self.maxHold)
    case "easing":
      guard let easing = parseEasing(value) else {
        throw fail("linear, ease-in, ease-out, ease-in-out or cubic-bezier(X1,Y1,X2,Y2) with X1 and X2 in 0…1")
      }
      self.easing = easing
    case "rotate":
      if value == "auto" {
        rotateAuto = true
        rotate = .none
        break
      }
      guard let degrees = Int(value), let rotation = Rotation(rawValue: degrees) else {
        throw fail("0, 90, 180, 270 or auto")
      }
      rotateAuto = false
      rotate = rotation
    case "sources":
      let names = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
      let sources = names.map { OrientationSource(rawValue: String($0)) }
      guard !sources.isEmpty, sources.allSatisfy({ $0 != nil }) else {
        throw fail(
          "sources among \(OrientationSource.allCases.map(\.rawValue).joined(separator: ", ")), in order"
        )
      }
      orientationSources = sources.map { $0! }
    case "iio": iio = try path()
    case "evdev": evdev = try path()
    case "switch": switchDevice = try path()
    case "panel": panel = try path()
    case "switch-map":
      guard let map = SwitchMap(value) else {
        throw fail(
          "NAME=ANGLE pairs separated by commas, such as \"SW_ROTATE_LOCK=90, KEY_F13=180\" (names: SW_LID … "
            + "SW_MACHINE_COVER, KEY_F13 … KEY_F24, SW_<code>, KEY_<code>; angles 0, 90, 180, 270)")
      }
      switchMap = map
    case "settle": settle = try seconds(upTo: Self.maxSettle)
    case "follow": follow = try yesOrNo()
    case "cmdline": cmdline = try path()
    case "mount-matrix":
      guard let matrix = MountMatrix(value) else {
        throw fail("three rows of three numbers, such as \"0, -1, 0; -1, 0, 0; 0, 0, 1\", no row all zeros")
      }
      mountMatrix = matrix
    case "fit":
      guard let fit = Fit(rawValue: value) else { throw fail("cover, contain, stretch or center") }
      self.fit = fit
    case "display":
      guard let display = DisplayChoice(rawValue: value) else {
        throw fail("auto, window, kmsdrm, fbdev or offscreen")
      }
      self.display = display
    case "device": device = try path()
    case "mode":
      guard let mode = DisplayModeRequest(value) else {
        throw fail("WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60")
      }
      self.mode = mode
    case "size":
      guard let size = parseSize(value) else {
        throw fail("WIDTHxHEIGHT, each from 1 to \(Self.maxSide), such as 1920x1080")
      }
      self.size = size
    case "fps":
      guard let fps = parseDecimal(value), fps > 0, fps <= Self.maxFPS else {
        throw fail("frames per second above 0, at most \(formatNumber(Self.maxFPS))")
      }
      self.fps = fps
    case "ready":
      switch value {
      case "notify": readyNotify = true
      case "exec": readyNotify = false
      default: throw fail("notify (start the program first, reveal on its READY=1) or exec")
      }
    case "until-file": untilFile = try path()
    case "until-reveal": untilReveal = try yesOrNo()
    case "control": control = try path()
    case "control-group":
      guard !value.isEmpty else { throw fail("a group name") }
      controlGroup = value
    case "timeout": timeout = try seconds(upTo: Self.maxTimeout, zero: " (no limit)")
    case "exec":
      let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard let first = words.first else { throw fail("a program and its arguments, separated by spaces") }
      program = [source.resolve(program: first)] + words.dropFirst()
    default:
      let known = Self.sectionKeys.flatMap(\.keys).joined(separator: ", ")
      throw SettingsError("\(name): unknown setting; known: \(known)")
    }
  }

  /// Checks the settings against each other.
  public func validate() throws(SettingsError) {
    if image != nil && (left != nil || right != nil) {
      throw SettingsError("--image cannot be combined with --left/--right: give one picture or two leaves")
    }
    if (left == nil) != (right == nil) {
      let given = left == nil ? "--right" : "--left"
      let missing = left == nil ? "--left" : "--right"
      throw SettingsError("\(given) needs \(missing): the doors take a left and a right leaf")
    }
    for shape in ["portrait", "landscape"] {
      let (image, left, right) = ("image-" + shape, "left-" + shape, "right-" + shape)
      if shapedArtwork[image] != nil && (shapedArtwork[left] != nil || shapedArtwork[right] != nil) {
        throw SettingsError(
          "\(origin(of: image)) cannot be combined with \(left)/\(right): give one picture or two leaves")
      }
      if (shapedArtwork[left] == nil) != (shapedArtwork[right] == nil) {
        let (given, missing) = shapedArtwork[left] == nil ? (right, left) : (left, right)
        throw SettingsError("\(origin(of: given)) needs \(missing): the doors take a left and a right leaf")
      }
    }
    if record != nil && display == .window {
      throw SettingsError("--record renders offscreen and cannot be combined with --display window")
    }
  }
}

/// Parses a plain non-negative decimal (`12`, `0.5`, `.5`); nil for signs,
/// exponents, `inf`, `nan` and anything else.
public func parseDecimal(_ text: String) -> Double? {
  var digits = 0
  var points = 0
  for c in text.utf8 {
    if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
      digits += 1
    } else if c == UInt8(ascii: ".") {
      points += 1
    } else {
      return nil
    }
  }
  guard digits > 0, points <= 1 else { return nil }
  return Double(text.hasPrefix(".") ? "0" + text : text)
}

/// Parses `WxH` with both sides from 1 to `Settings.maxSide`.
/// The splash pictures chosen for a canvas: one picture, or two leaves
/// (left, right), each path with the key that named it.
public struct ArtworkChoice: Equatable, Sendable {
  public var keys: [String]
  public var paths: [String]
  public var isLeaves: Bool { paths.count == 2 }
}

/// A display mode asked for by `--mode WxH[@Hz]`.
public struct DisplayModeRequest: Equatable, Sendable, CustomStringConvertible {
  public var size: PixelSize
  /// Whole hertz; nil takes the mode of that size with the highest rate.
  public var refreshRate: Int?

  public init(size: PixelSize, refreshRate: Int? = nil) {
    self.size = size
    self.refreshRate = refreshRate
  }

  /// Parses `WIDTHxHEIGHT` or `WIDTHxHEIGHT@HZ` (1 to 1000 Hz).
  public init?(_ text: String) {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count <= 2, let size = parseSize(String(parts[0])) else { return nil }
    if parts.count == 2 {
      guard parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let rate = Int(parts[1]), (1...1000).contains(rate)
      else { return nil }
      refreshRate = rate
    }
    self.size = size
  }

  public var description: String { size.description + (refreshRate.map { "@\($0)" } ?? "") }

  /// Whether a mode of `size` at `refreshRate` hertz is the one asked for.
  public func matches(_ size: PixelSize, refreshRate rate: Int) -> Bool {
    size == self.size && (refreshRate == nil || refreshRate == rate)
  }
}

public func parseSize(_ text: String) -> PixelSize? {
  let parts = text.split(separator: "x", omittingEmptySubsequences: false)
  guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
    let w = Int(parts[0]), let h = Int(parts[1]),
    (1...Settings.maxSide).contains(w), (1...Settings.maxSide).contains(h)
  else { return nil }
  return PixelSize(width: w, height: h)
}

/// Parses an easing name or `cubic-bezier(X1,Y1,X2,Y2)` (spaces allowed
/// around the numbers; X1 and X2 in 0…1, Y1 and Y2 from −10 to 10).
public func parseEasing(_ text: String) -> Easing? {
  switch text {
  case "linear": return .linear
  case "ease-in": return .easeIn
  case "ease-out": return .easeOut
  case "ease-in-out": return .easeInOut
  default: break
  }
  let prefix = "cubic-bezier("
  guard text.hasPrefix(prefix), text.hasSuffix(")") else { return nil }
  let inner = text.dropFirst(prefix.count).dropLast()
  let numbers = inner.split(separator: ",", omittingEmptySubsequences: false).map { part -> Double? in
    var s = trimmingBlanks(part)
    var sign = 1.0
    if s.hasPrefix("-") {
      sign = -1
      s.removeFirst()
    }
    return parseDecimal(s).map { $0 * sign }
  }
  guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else { return nil }
  let (x1, y1, x2, y2) = (numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!)
  guard (0...1).contains(x1), (0...1).contains(x2), abs(y1) <= 10, abs(y2) <= 10 else { return nil }
  return .cubicBezier(CubicBezier(x1, y1, x2, y2))
}
