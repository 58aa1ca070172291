// SPDX-License-Identifier: Apache-2.0
import SplashCore

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

/// When the program is ready for the splash to reveal it.
public enum ReadySource: String, CaseIterable, Equatable, Sendable {
  /// The program is started after the transition (splashd becomes it);
  /// in host mode, as `firstFrame`.
  case exec
  /// The program starts first and sends READY=1 (sd_notify); in host mode,
  /// with its first frame.
  case notify
  /// The program starts first, as the client of splashd's compositor, and
  /// its first frame is what it waits for (host mode).
  case firstFrame = "first-frame"
}

/// Whose display server the program talks to.
public enum HostMode: String, CaseIterable, Equatable, Sendable {
  /// The program takes the display itself after the splash (exec, or
  /// spawned with `ready = notify`).
  case none
  /// splashd is the program's Wayland compositor: the doors open onto the
  /// program's live frames, and splashd stays its compositor after.
  case wayland
}

/// How host mode's on-screen keyboard (`keyboard`) comes and goes.
public enum KeyboardPopup: String, CaseIterable, Equatable, Sendable {
  /// splashd hides it (SIGUSR1) while no text field of the program's takes
  /// text and shows it (SIGUSR2) while one does, as wvkbd wants.
  case signals
  /// It shows and hides itself (an input method: squeekboard), or always shows.
  case itself
}

/// A peer's client protocol splashd answers too, so that scripts written
/// for that peer work unchanged.
public enum CompatClient: String, CaseIterable, Equatable, Sendable {
  /// psplash's FIFO (`psplash-write "PROGRESS 50"`, `MSG …`, `QUIT`).
  case psplash
  /// Plymouth's socket (`plymouth --ping`, `display-message`, `system-update`, `quit`, …).
  case plymouth
}

/// The angle asked for: a fixed one, or `auto` (from the orientation sources).
public enum RotationSetting: Equatable, Sendable {
  case fixed(Rotation)
  case auto

  /// The spelling used on the command line and in the config file.
  public var text: String {
    switch self {
    case .fixed(let rotation): return String(rotation.rawValue)
    case .auto: return "auto"
    }
  }
}

/// The `[splash]` section: the picture, the transition and the display.
public struct SplashSettings: Equatable, Sendable {
  public var image: String?
  public var left: String?
  public var right: String?
  /// Pictures made for one shape of the screen (`image-portrait`,
  /// `left-landscape`, …), by key; used instead of `image` or the leaves
  /// when the logical canvas has that shape.
  public var shapedArtwork: [String: String] = [:]
  /// The shutdown splash's picture (`--boot shutdown`); nil: the boot's.
  public var imageShutdown: String?
  /// Whether a boot splash shows when the kernel command line has neither
  /// `splash` nor `nosplash`.
  public var withoutSplashWord = SplashWordDefault.show
  public var background: BackgroundSetting = .color(.black)
  public var transition: TransitionKind = .doors
  /// The transition's duration; nil means the transition's default.
  public var duration: Double?
  public var hold: Double = 0
  public var easing: Easing = .easeInOut
  public var rotate: RotationSetting = .fixed(.none)
  public var fit: Fit = .cover
  /// The back end's name as `--display` spells it, or `auto`; the names
  /// are the output registry's (checked when the display is chosen).
  public var display = "auto"
  /// The display device: the framebuffer for fbdev (nil: /dev/fb0), the
  /// DRM card for kms and kmsdrm (nil: the first with a connected connector).
  public var device: String?
  /// The KMS mode to set; nil keeps the connector's preferred mode.
  public var mode: DisplayModeRequest?
  /// The display's physical size; nil means `Settings.defaultSize`.
  public var size: PixelSize?
  public var record: String?
  public var fps: Double = 60
  /// The most pixels the pictures may take decoded, all together, in megapixels.
  public var maxMegapixels = 32
  /// The folders prepared pictures are kept in, the first that can be
  /// written taking new ones; empty for no cache.
  public var cache = SplashSettings.defaultCache
  public static let defaultCache = ["/var/cache/splashd", "/run/splashd"]

  public init() {}

  public var effectiveDuration: Double { duration ?? transition.defaultDuration }
  public var effectiveSize: PixelSize { size ?? Settings.defaultSize }
  public var timeline: Timeline { Timeline(hold: hold, duration: effectiveDuration, easing: easing) }

  /// The pictures for a logical canvas of `canvas`'s shape (portrait when
  /// it is taller than wide): that shape's own when given, else `image` or
  /// the leaves.
  public func artwork(for canvas: PixelSize) -> ArtworkChoice {
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
}

/// The `[handoff]` section: what holds the splash and what runs after it.
public struct HandoffSettings: Equatable, Sendable {
  /// The program (and its arguments) to hand off to after the transition.
  public var program: [String]?
  /// When the program is ready: after the transition (exec), at its
  /// READY=1 (notify), at its first frame (first-frame, host mode).
  public var ready = ReadySource.exec
  /// Whose display server the program talks to: its own (none) or
  /// splashd's Wayland compositor (wayland).
  public var host = HostMode.none
  /// Host mode: X11 programs are served too (Xwayland, started when the
  /// first X client connects; the program gets DISPLAY).
  public var xwayland = false
  /// Host mode: the program renders on the GPU of the screen's card and
  /// hands its buffers over as they are (when the card has a render node).
  public var gpu = true
  /// The transition waits (after the hold) until this file exists.
  public var untilFile: String?
  /// The transition waits (after the hold) for `splashctl reveal`.
  public var untilReveal = false
  /// Without a program to hand off to, the last frame stays on the display.
  public var keepLastFrame = false
  /// The longest the gate holds the splash, in seconds from the first frame; 0 for no limit.
  public var timeout: Double = 30
  /// The control socket's path; nil for the default (see `controlPath`).
  public var control: String?
  /// The group allowed to use the control socket besides its owner.
  public var controlGroup: String?
  /// Where splashd's figures for node_exporter's textfile collector are
  /// written (`FleetMetrics`); nil: nowhere.
  public var metricsFile: String?
  /// The user the program runs as (a name or a number); nil: splashd's own.
  public var user: String?
  /// The group it runs as instead of the user's own; nil: the user's.
  public var group: String?
  /// The names of splashd's environment variables the program gets
  /// besides those it always gets (`ProgramEnvironment.kept`).
  public var passEnvironment: [String] = []
  /// The peers' client protocols answered too.
  public var compat: [CompatClient] = []
  /// The abstract socket name Plymouth's clients connect to.
  public var plymouthSocket = HandoffSettings.defaultPlymouthSocket
  /// Where splashd names its PID while Plymouth's socket is open, as
  /// plymouthd does (systemd's password agents look there); nil: nowhere.
  public var plymouthPIDFile: String? = HandoffSettings.defaultPlymouthPIDFile
  /// The terminal whose keys answer a question asked on the splash; nil:
  /// the console's active virtual terminal.
  public var promptTerminal: String?
  /// A start this many seconds after the last hand-off to the same program
  /// (under systemd) hands off at once, without the splash; 0: always plays.
  public var restartWindow: Double = 30
  /// Host mode: when the program is started again after it ends, under
  /// the splash.
  public var restart = RestartPolicy.no
  /// Host mode: the most restarts, after which splashd keeps the splash
  /// and ends with the program's status.
  public var restartLimit = 5
  /// Host mode: seconds the program's window has to answer a ping before
  /// it counts as frozen (a failure); 0: it is not pinged.
  public var hangTimeout: Double = 0
  /// Host mode: how the program's window lies on several screens.
  public var screens = ScreenSharing.mirror
  /// Host mode: the on-screen keyboard started beside the program, and its
  /// arguments; empty: none.
  public var keyboard: [String] = []
  /// Host mode: how that keyboard comes and goes.
  public var keyboardPopup = KeyboardPopup.signals

  /// Plymouth's own: `\0/org/freedesktop/plymouthd`.
  public static let defaultPlymouthSocket = "/org/freedesktop/plymouthd"

  /// plymouthd's own (`--pid-file`), which systemd's units check.
  public static let defaultPlymouthPIDFile = "/run/plymouth/pid"

  public init() {}

  /// Whether anything holds the splash after the hold.
  public var hasGate: Bool { untilFile != nil || untilReveal || startsProgramFirst }

  /// Whether the program starts before the splash ends, as splashd's
  /// child: `ready = notify` or `first-frame`, and host mode.
  public var startsProgramFirst: Bool { ready != .exec || host != .none }

  /// Where the control socket goes: `control` when set, else
  /// `$RUNTIME_DIRECTORY/control` under systemd, else /run/splashd/control
  /// when `until-reveal` needs one; nil for none.
  public func controlPath(runtimeDirectory: String?) -> String? {
    if let control { return control }
    if let directory = runtimeDirectory?.split(separator: ":").first { return directory + "/control" }
    return untilReveal ? Self.defaultControl : nil
  }

  /// The control socket outside systemd (the initramfs's splash listens there).
  public static let defaultControl = "/run/splashd/control"

  /// Where a splashd of the real root looks for the initramfs's splash to
  /// adopt: `control` when set (both read the same config), else where the
  /// initramfs's listens.
  public var adoptionPath: String { control ?? Self.defaultControl }
}

/// The `[orientation]` section: where `rotate = auto` looks.
public struct OrientationSettings: Equatable, Sendable {
  /// The orientation sources, consulted in order until one answers.
  public var sources: [OrientationSource] = [.evdev, .iio, .panel, .cmdline]
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

  public init() {}
}

/// The config file's sections, in the order they are printed.
public enum SettingsSection: String, CaseIterable, Equatable, Sendable {
  case splash
  case handoff
  case screenPower = "screen-power"
  case orientation
  case progress
  case message
  case animation
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
    case .commandLine: return "--\(printable(key))"
    case .configFile(let path, let line, _): return "\(printable(path)):\(line): \(printable(key))"
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

/// Everything that shapes one run of splashd: one struct per config
/// section, and where each setting came from. Settings are read and
/// written through `SettingsTable`, which declares every key once.
public struct Settings: Equatable, Sendable {
  public var splash = SplashSettings()
  public var handoff = HandoffSettings()
  public var screenPower = ScreenPowerSettings()
  public var orientation = OrientationSettings()
  public var progress = ProgressSettings()
  public var message = MessageSettings()
  public var animation = AnimationSettings()
  /// The `[screen NAME]` sections, by name (a connector's, or `*`).
  public var screens: [String: ScreenSettings] = [:]
  /// How messages name each key that was set: `--image` or `FILE:LINE: image`.
  public var origins: [String: String] = [:]

  public init() {}

  /// How messages name the setting `key`: where it was last set, else its option.
  public func origin(of key: String) -> String { origins[key] ?? "--\(key)" }

  /// How messages name the setting of `field` (`\.splash.size`): where it
  /// was last set ("FILE:LINE: size"), else its option ("--size").
  public func origin(of field: PartialKeyPath<Settings>) -> String {
    if let key = givenKey(of: field) { return origin(of: key) }
    guard let spec = SettingsTable.spec(setting: field) else { preconditionFailure("no setting sets \(field)") }
    return origin(of: spec.key)
  }

  /// Whether the setting of `field` was given, on the command line or in the file.
  public func isGiven(_ field: PartialKeyPath<Settings>) -> Bool { givenKey(of: field) != nil }

  /// The key of the setting of `field` if it was given. Only the given
  /// settings are compared: few, and their fields' key paths already made
  /// as they were read.
  private func givenKey(of field: PartialKeyPath<Settings>) -> String? {
    origins.keys.first { SettingsTable.spec($0)?.sets(field) == true }
  }

  /// The size used when none is given: 1280×720.
  public static let defaultSize = PixelSize(width: 1280, height: 720)
  /// The largest display `--size` may ask for, in pixels: 3840x2160's. A
  /// frame and the pictures prepared for it each take 4 bytes a pixel.
  public static let maxSizePixels = 3840 * 2160
  /// The largest `max-megapixels`.
  public static let maxMegapixels = 256
  /// The largest accepted hold and duration, in seconds.
  public static let maxHold = 86400.0
  public static let maxDuration = 60.0
  public static let maxFPS = 1000.0
  public static let maxTimeout = 86400.0
  public static let maxRestartWindow = 3600.0
  /// The longest `idle-off`.
  public static let maxIdleOff = 86400.0
  /// The longest `hang-timeout`.
  public static let maxHangTimeout = 3600.0
  /// The most restarts `restart-limit` may allow.
  public static let maxRestartLimit = 1000
  /// The longest an accelerometer may delay the first frame.
  public static let maxSettle = 5.0
  /// The framebuffer used when `device` is not set.
  public static let defaultFramebuffer = "/dev/fb0"

  /// Sets the setting `key` (as the command line names it) from its text
  /// `value`, as given at `source`; a config file's messages name it by its
  /// key in the file.
  public mutating func apply(key: String, value: String, from source: SettingSource) throws(SettingsError) {
    guard let spec = SettingsTable.spec(key) else {
      let known = SettingsTable.all.map(\.key).joined(separator: ", ")
      throw SettingsError("\(source.name(of: key)): unknown setting; known: \(known)")
    }
    let name: String
    if case .configFile = source { name = spec.fileKey } else { name = spec.key }
    try spec.apply(SettingValue(key: name, text: value, source: source), to: &self)
    origins[key] = source.name(of: name)
  }

  /// The files a start reads besides the config file, each after what it
  /// is ("picture", "animation", "font"): every picture any shape or stage
  /// may take, the background picture, the animation, the message's font.
  public var filesRead: [(kind: String, path: String)] {
    var pictures = [splash.image, splash.left, splash.right, splash.imageShutdown].compactMap { $0 }
    pictures += splash.shapedArtwork.keys.sorted().compactMap { splash.shapedArtwork[$0] }
    if case .image(let path) = splash.background { pictures.append(path) }
    var files = pictures.map { (kind: "picture", path: $0) }
    if let animation = animation.file { files.append(("animation", animation)) }
    files.append(("font", message.font))
    return files
  }

  /// Checks the settings against each other; a message names the
  /// settings as their source spells them (`--left`, or `FILE:LINE: left`).
  public func validate() throws(SettingsError) {
    let splash = self.splash
    /// Another key, spelled as `given`'s source spells keys.
    func sibling(_ key: String, of given: String) -> String { origin(of: given).hasPrefix("--") ? "--\(key)" : key }
    var pictures = splash.shapedArtwork
    pictures["image"] = splash.image
    pictures["left"] = splash.left
    pictures["right"] = splash.right
    for suffix in ["", "-portrait", "-landscape"] {
      let (image, left, right) = ("image" + suffix, "left" + suffix, "right" + suffix)
      if pictures[image] != nil && (pictures[left] != nil || pictures[right] != nil) {
        throw SettingsError(
          "\(origin(of: image)) cannot be combined with \(sibling(left, of: image))/\(sibling(right, of: image)): "
            + "give one picture or two leaves")
      }
      if (pictures[left] == nil) != (pictures[right] == nil) {
        let (given, missing) = pictures[left] == nil ? (right, left) : (left, right)
        throw SettingsError(
          "\(origin(of: given)) needs \(sibling(missing, of: given)): the doors take a left and a right leaf")
      }
    }
    if handoff.group != nil && handoff.user == nil {
      throw SettingsError(
        "\(origin(of: \.handoff.group)) needs \(sibling("user", of: "group")): the group the program's user runs as")
    }
    if handoff.xwayland && handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: \.handoff.xwayland)) needs \(sibling("host", of: "xwayland")) wayland: Xwayland runs under "
          + "splashd's own compositor")
    }
    if handoff.screens != .mirror && handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: \.handoff.screens)) needs \(sibling("host", of: "screens")) wayland: it places the window of "
          + "a program splashd hosts")
    }
    if handoff.restart != .no && handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: \.handoff.restart)) needs \(sibling("host", of: "restart")) wayland: only a program splashd "
          + "hosts is started again under the splash (under systemd, Restart= restarts the others)")
    }
    if handoff.hangTimeout > 0 && handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: \.handoff.hangTimeout)) needs \(sibling("host", of: "hang-timeout")) wayland: only a program "
          + "splashd hosts is pinged")
    }
    if !handoff.keyboard.isEmpty && handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: \.handoff.keyboard)) needs \(sibling("host", of: "keyboard")) wayland: the keyboard is a "
          + "client of splashd's own compositor")
    }
    try validateScreenPower(sibling: sibling)
    if splash.record != nil && splash.display == "window" {
      throw SettingsError("--record renders offscreen and cannot be combined with --display window")
    }
  }
}

extension Settings {
  /// `[screen-power]`: host mode's, and a schedule of both lists with no
  /// time in both.
  private func validateScreenPower(sibling: (String, String) -> String) throws(SettingsError) {
    let power = screenPower
    let given: [(PartialKeyPath<Settings>, String, Bool)] = [
      (\Settings.screenPower.idleOff, "idle-off", power.idleOff > 0),
      (\Settings.screenPower.onAt, "on-at", !power.onAt.isEmpty),
      (\Settings.screenPower.offAt, "off-at", !power.offAt.isEmpty),
    ].filter(\.2)
    if let (field, key, _) = given.first, handoff.host != .wayland {
      throw SettingsError(
        "\(origin(of: field)) needs \(sibling("host", key)) wayland: only host mode decides when its screen "
          + "is off (splashctl screen off works without)")
    }
    if power.onAt.isEmpty != power.offAt.isEmpty {
      let (field, key, missing) =
        power.onAt.isEmpty
        ? (\Settings.screenPower.offAt, "off-at", "on-at") : (\Settings.screenPower.onAt, "on-at", "off-at")
      throw SettingsError(
        "\(origin(of: field)) needs \(sibling(missing, key)): the screen would go \(key == "on-at" ? "on" : "off") "
          + "and never back")
    }
    if let both = power.onAt.first(where: power.offAt.contains) {
      throw SettingsError("\(origin(of: \Settings.screenPower.onAt)): \(both) is an off-at time too")
    }
  }
}

/// The `[screen-power]` section: when host mode's screen is off
/// (`ScreenPower`).
public struct ScreenPowerSettings: Equatable, Sendable {
  /// Seconds without input before the screen goes off; 0: never.
  public var idleOff: Double = 0
  /// The times of day the screen goes on.
  public var onAt: [DayTime] = []
  /// The times of day it goes off.
  public var offAt: [DayTime] = []

  public init() {}

  /// The schedule `on-at` and `off-at` make; nil without them.
  public var schedule: ScreenSchedule? { try? ScreenSchedule(onAt: onAt, offAt: offAt) }
}

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

/// Parses `WxH` with both sides from 1 to `PixelSize.maxSide`.
public func parseSize(_ text: String) -> PixelSize? {
  let parts = text.split(separator: "x", omittingEmptySubsequences: false)
  guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
    let w = Int(parts[0]), let h = Int(parts[1]),
    (1...PixelSize.maxSide).contains(w), (1...PixelSize.maxSide).contains(h)
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
