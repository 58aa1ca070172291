// SPDX-License-Identifier: Apache-2.0
/// How a setting is written on the command line.
public enum SettingForm: Equatable, Sendable {
  /// `--key VALUE` on the command line (and `key = VALUE` in the file).
  case option(placeholder: String)
  /// `--key` alone means yes; the file takes `key = yes` or `no`.
  case flag
  /// In the config file only: `key = VALUE`.
  case fileOnly(placeholder: String)

  /// The value's placeholder in help texts (`FILE`, `SECONDS`); nil for a flag.
  public var placeholder: String? {
    switch self {
    case .option(let placeholder), .fileOnly(let placeholder): return placeholder
    case .flag: return nil
    }
  }
}

/// The groups `--help` lists the settings in.
public enum SettingGroup: String, CaseIterable, Equatable, Sendable {
  case picture = "Picture"
  case transition = "Transition"
  case reveal = "When to reveal"
  case control = "Control socket (see splashctl --help)"
  case display = "Display"
  case orientation = "Rotation from the hardware (rotate = auto)"
  case status = "Boot status over the picture (see splashctl progress, message)"
  case boot = "Boot and shutdown (--boot STAGE)"
}

/// A setting's text as given, with the parsers the table's entries use.
/// Every error names where the value came from and what was expected.
public struct SettingValue: Sendable {
  public let key: String
  /// The value exactly as given.
  public let raw: String
  public let source: SettingSource

  public init(key: String, text: String, source: SettingSource) {
    self.key = key
    raw = text
    self.source = source
  }

  /// The value, without one pair of quotes around all of it (`"#000000"`).
  public var text: String { unquoted(raw) }

  /// The error for a value that is not `expected`.
  public func fail(_ expected: String) -> SettingsError {
    SettingsError("\(source.name(of: key)): expected \(expected), got \"\(printable(raw))\"")
  }

  /// A file name; relative to the config file's directory when it came from one.
  public func path() throws(SettingsError) -> String {
    guard !text.isEmpty else { throw fail("a file name") }
    return source.resolve(path: text)
  }

  /// A number of seconds from 0 to `limit`; `zero` says what 0 means, if anything special.
  public func seconds(upTo limit: Double, zero: String = "") throws(SettingsError) -> Double {
    guard let seconds = parseDecimal(text), seconds <= limit else {
      throw fail("a number of seconds from 0\(zero) to \(formatNumber(limit))")
    }
    return seconds
  }

  public func yesOrNo() throws(SettingsError) -> Bool {
    switch text {
    case "yes", "true", "1": return true
    case "no", "false", "0": return false
    default: throw fail("yes or no")
    }
  }

  /// One of `T`'s cases, by its raw value.
  public func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(SettingsError) -> T
  where T.RawValue == String {
    guard let value = T(rawValue: text) else { throw fail(listing(T.allCases.map(\.rawValue), last: "or")) }
    return value
  }

  /// A word that is not empty.
  public func word(_ expected: String) throws(SettingsError) -> String {
    guard !text.isEmpty else { throw fail(expected) }
    return text
  }
}

/// One setting, declared once: its key and section, how the command line
/// spells it, its help, how its text is parsed and how it is printed. The
/// table of them drives the config file, the command line, `--help` and
/// `--check`.
public struct SettingSpec: Sendable {
  /// The setting's name: the command line's `--key`, unique among all.
  public let key: String
  /// Its key in its section of the config file (`color` in `[progress]`).
  public let fileKey: String
  public let section: SettingsSection
  public let form: SettingForm
  public let group: SettingGroup
  /// What the setting does, as one paragraph (for `--help` and the manual).
  public let help: String
  /// The default, as `--help` says it; nil when there is nothing to say.
  public let defaultText: String?
  /// The values an enumerated setting takes, for help and completion; empty when free-form.
  public let values: [String]
  let parse: @Sendable (inout Settings, SettingValue) throws -> Void
  let show: @Sendable (Settings) -> String?

  init(
    _ key: String, _ section: SettingsSection, _ form: SettingForm, _ group: SettingGroup, file fileKey: String? = nil,
    help: String, default defaultText: String? = nil, values: [String] = [],
    parse: @escaping @Sendable (inout Settings, SettingValue) throws -> Void,
    show: @escaping @Sendable (Settings) -> String?
  ) {
    self.key = key
    self.fileKey = fileKey ?? key
    self.section = section
    self.form = form
    self.group = group
    self.help = help
    self.defaultText = defaultText
    self.values = values
    self.parse = parse
    self.show = show
  }

  /// Whether the command line takes it (`--key`).
  public var onCommandLine: Bool {
    if case .fileOnly = form { return false }
    return true
  }

  /// Sets this setting of `settings` from `value`.
  public func apply(_ value: SettingValue, to settings: inout Settings) throws(SettingsError) {
    do {
      try parse(&settings, value)
    } catch let error as SettingsError {
      throw error
    } catch {
      throw value.fail("a valid value (\(error))")
    }
  }

  /// The setting's value in `settings` as the config file would spell it;
  /// nil when it is not set.
  public func text(in settings: Settings) -> String? { show(settings) }
}

/// Every setting splashd has.
public enum SettingsTable {
  /// The settings, grouped by section in the order the config file and
  /// `--check` list them.
  public static let all: [SettingSpec] = splash + handoff + orientation + StatusSettingsTable.all

  /// The setting named `key` (its command-line name).
  public static func spec(_ key: String) -> SettingSpec? { byKey[key] }

  /// The setting a config file's `section` names `fileKey`.
  public static func spec(in section: SettingsSection, fileKey: String) -> SettingSpec? {
    byFileKey[section.rawValue + "." + fileKey]
  }

  /// The settings of `section`, in order.
  public static func specs(in section: SettingsSection) -> [SettingSpec] { all.filter { $0.section == section } }

  private static let byKey: [String: SettingSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
  private static let byFileKey: [String: SettingSpec] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.section.rawValue + "." + $0.fileKey, $0) })

  private static let splash: [SettingSpec] =
    [
      SettingSpec(
        "image", .splash, .option(placeholder: "FILE"), .picture,
        help: "The splash picture: PNG, JPEG, BMP, GIF, ... at most 16384 pixels on a side.",
        default: "the bundled demo picture", parse: { $0.splash.image = try $1.path() }, show: { $0.splash.image }),
      SettingSpec(
        "left", .splash, .option(placeholder: "FILE"), .picture,
        help: "The picture of the left door leaf, instead of --image; needs --right. Each leaf fills its half.",
        parse: { $0.splash.left = try $1.path() }, show: { $0.splash.left }),
      SettingSpec(
        "right", .splash, .option(placeholder: "FILE"), .picture,
        help: "The picture of the right door leaf; needs --left.",
        parse: { $0.splash.right = try $1.path() }, show: { $0.splash.right }),
    ] + shapedPictures + [
      SettingSpec(
        "image-shutdown", .splash, .option(placeholder: "FILE"), .boot,
        help: "The picture of the shutdown splash (--boot shutdown, splashd-shutdown.service), instead of --image "
          + "and the leaves.",
        default: "the boot's pictures",
        parse: { $0.splash.imageShutdown = try $1.path() }, show: { $0.splash.imageShutdown }),
      SettingSpec(
        "without-splash-word", .splash, .option(placeholder: "show|hide"), .boot,
        help: "Whether a boot splash (--boot) shows when the kernel command line has neither splash nor nosplash. "
          + "Whatever this says, nosplash, splashd.enable=0 and single keep it off, and splash shows it; "
          + "splashd.initramfs=0 keeps only the initramfs's start off.",
        default: "show", values: SplashWordDefault.allCases.map(\.rawValue),
        parse: { $0.splash.withoutSplashWord = try $1.choice(SplashWordDefault.self) },
        show: { $0.splash.withoutSplashWord.rawValue }),
      SettingSpec(
        "background", .splash, .option(placeholder: "FILE|#RRGGBB"), .picture,
        help: "What the transition reveals: a colour (#RRGGBB or #RGB), or a picture, scaled to cover the screen "
          + "(its transparency is ignored).",
        default: "#000000",
        parse: { settings, value in
          let text = value.text
          let expected = "#RRGGBB, #RGB or a picture file"
          if text.hasPrefix("#") {
            guard let color = Color(hex: text) else { throw value.fail(expected) }
            settings.splash.background = .color(color)
          } else if !text.contains("/") && !text.contains(".") {
            // A word such as "red": no colour names, and no picture file looks like that.
            throw value.fail(expected)
          } else {
            settings.splash.background = .image(try value.path())
          }
        }, show: { $0.splash.background.text }),
      SettingSpec(
        "fit", .splash, .option(placeholder: "MODE"), .picture,
        help: "How the picture fills the screen: cover (fill, cut the overflow), contain (fit inside, background "
          + "around), stretch (ignore the aspect), center (unscaled).",
        default: "cover", values: Fit.allCases.map(\.rawValue),
        parse: { $0.splash.fit = try $1.choice(Fit.self) }, show: { $0.splash.fit.rawValue }),
      SettingSpec(
        "transition", .splash, .option(placeholder: "KIND"), .transition,
        help: "doors: the picture splits at the vertical centre line and both leaves slide out; crossfade: the "
          + "picture fades out.",
        default: "doors", values: TransitionKind.allCases.map(\.rawValue),
        parse: { $0.splash.transition = try $1.choice(TransitionKind.self) },
        show: { $0.splash.transition.rawValue }),
      SettingSpec(
        "duration", .splash, .option(placeholder: "SECONDS"), .transition,
        help: "The length of the transition, at most 60 seconds.", default: "1.2 for doors, 0.5 for crossfade",
        parse: { $0.splash.duration = try $1.seconds(upTo: Settings.maxDuration) },
        show: { formatNumber($0.splash.effectiveDuration) }),
      SettingSpec(
        "hold", .splash, .option(placeholder: "SECONDS"), .transition,
        help: "How long the picture stands still before the transition, counted from the first frame on the "
          + "screen; meanwhile only the status layers are drawn again, when they change and as an animation plays.",
        default: "0", parse: { $0.splash.hold = try $1.seconds(upTo: Settings.maxHold) },
        show: { formatNumber($0.splash.hold) }),
      SettingSpec(
        "easing", .splash, .option(placeholder: "CURVE"), .transition,
        help: "linear, ease-in, ease-out, ease-in-out or cubic-bezier(X1,Y1,X2,Y2) with X1, X2 in 0..1 (CSS's "
          + "definitions).",
        default: "ease-in-out = cubic-bezier(0.42,0,0.58,1)",
        values: ["linear", "ease-in", "ease-out", "ease-in-out", "cubic-bezier("],
        parse: { settings, value in
          guard let easing = parseEasing(value.text) else {
            throw value.fail(
              "linear, ease-in, ease-out, ease-in-out or cubic-bezier(X1,Y1,X2,Y2) with X1 and X2 in 0…1")
          }
          settings.splash.easing = easing
        }, show: { $0.splash.easing.name }),
      SettingSpec(
        "rotate", .splash, .option(placeholder: "DEGREES|auto"), .display,
        help: "Turns the content 0, 90, 180 or 270 degrees clockwise on the display; for 90 and 270 the picture "
          + "is laid out on the display's size with width and height swapped. auto: from the [orientation] "
          + "sources of the config file (an evdev or IIO accelerometer, a rotation switch, DRM panel "
          + "orientation, the kernel command line), 0 when none answers.",
        default: "0", values: ["0", "90", "180", "270", "auto"],
        parse: { settings, value in
          if value.text == "auto" {
            settings.splash.rotate = .auto
            return
          }
          guard let degrees = Int(value.text), let rotation = Rotation(rawValue: degrees) else {
            throw value.fail("0, 90, 180, 270 or auto")
          }
          settings.splash.rotate = .fixed(rotation)
        }, show: { $0.splash.rotate.text }),
      SettingSpec(
        "display", .splash, .option(placeholder: "NAME"), .display,
        help: "Where the splash is shown: one of the back ends below, or auto: the first of them that can be "
          + "used here and opens, each that fails logged with its reason.",
        default: "auto",
        parse: { settings, value in
          let name = try value.word("a back end's name or auto")
          guard name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) }) else {
            throw value.fail("a back end's name or auto")
          }
          settings.splash.display = name
        }, show: { $0.splash.display }),
      SettingSpec(
        "device", .splash, .option(placeholder: "PATH"), .display,
        help: "The DRM card for kms and kmsdrm (/dev/dri/cardN or a link to one), or the framebuffer for fbdev.",
        default: "kms, kmsdrm: the first card with a connected connector; fbdev: /dev/fb0",
        parse: { $0.splash.device = try $1.path() }, show: { $0.splash.device }),
      SettingSpec(
        "mode", .splash, .option(placeholder: "WxH[@HZ]"), .display,
        help: "The KMS mode to set, one the connector offers (the message lists them).",
        default: "the connector's preferred mode",
        parse: { settings, value in
          guard let mode = DisplayModeRequest(value.text) else {
            throw value.fail("WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60")
          }
          settings.splash.mode = mode
        }, show: { $0.splash.mode?.description }),
      SettingSpec(
        "size", .splash, .option(placeholder: "WxH"), .display,
        help: "The display's size in pixels: the window's inner size, or offscreen's; kms, kmsdrm and fbdev use their "
          + "mode's. At most 3840x2160's pixels in all.",
        default: "1280x720",
        parse: { settings, value in
          guard let size = parseSize(value.text), size.width * size.height <= Settings.maxSizePixels else {
            throw value.fail(
              "WIDTHxHEIGHT, each from 1 to \(Settings.maxSide) and at most 3840x2160's \(Settings.maxSizePixels) "
                + "pixels in all, such as 1920x1080")
          }
          settings.splash.size = size
        }, show: { $0.splash.effectiveSize.description }),
      SettingSpec(
        "max-megapixels", .splash, .option(placeholder: "N"), .picture,
        help: "The most memory the pictures may take while they are decoded, all together, counted in "
          + "megapixels of 4 bytes (32 is 122 MiB: a 4K splash and a 4K background): a PNG takes 4 bytes a pixel, "
          + "the other formats up to 8 while SDL_image's pixels are converted. A picture that would take more is "
          + "refused from its header, before anything is decoded. At most \(Settings.maxMegapixels).",
        default: "32",
        parse: { settings, value in
          guard let number = Int(value.text), (1...Settings.maxMegapixels).contains(number) else {
            throw value.fail("a whole number of megapixels from 1 to \(Settings.maxMegapixels)")
          }
          settings.splash.maxMegapixels = number
        }, show: { String($0.splash.maxMegapixels) }),
      SettingSpec(
        "cache", .splash, .option(placeholder: "DIRS|none"), .picture,
        help: "Where the pictures are kept as prepared for a display (decoded, scaled, cut, turned, in its pixel "
          + "format), so that the next start maps them instead of decoding: folders separated by spaces, looked in "
          + "in order, the first that can be written taking what is prepared. A file is used only when it was made "
          + "for the same picture files (device, inode, size, time, contents at both ends), display and settings; "
          + "anything else in it is ignored and replaced. none: decode at every start. See also --prepare.",
        default: SplashSettings.defaultCache.joined(separator: " "),
        parse: { settings, value in
          let words = value.text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
          if words == ["none"] {
            settings.splash.cache = []
            return
          }
          // A quote in a folder's name could not be printed back (--check) as the same folders.
          guard !words.isEmpty, !words.contains(where: { $0.contains("\"") || $0.contains("'") }) else {
            throw value.fail("folders separated by spaces (without quotes in their names), or none")
          }
          settings.splash.cache = words.map { value.source.resolve(path: $0) }
        }, show: { $0.splash.cache.isEmpty ? "none" : $0.splash.cache.joined(separator: " ") }),
      SettingSpec(
        "fps", .splash, .option(placeholder: "N"), .display,
        help: "The frame rate of offscreen rendering and recording.", default: "60",
        parse: { settings, value in
          guard let fps = parseDecimal(value.text), fps > 0, fps <= Settings.maxFPS else {
            throw value.fail("frames per second above 0, at most \(formatNumber(Settings.maxFPS))")
          }
          settings.splash.fps = fps
        }, show: { formatNumber($0.splash.fps) }),
      SettingSpec(
        "record", .splash, .option(placeholder: "DIR"), .display,
        help: "Renders offscreen as fast as it can and writes DIR/frame-00000.png, ... one frame every 1/fps "
          + "seconds from the first frame through the hold and the transition, the last exactly at its end, and "
          + "DIR/frames.csv (frame,time_s,phase,progress). The same command always writes the same bytes.",
        parse: { $0.splash.record = try $1.path() }, show: { $0.splash.record }),
    ]

  /// `image-portrait`, `left-portrait`, …, `right-landscape`.
  private static let shapedPictures: [SettingSpec] = ["portrait", "landscape"].flatMap { shape in
    ["image", "left", "right"].map { picture in
      let key = "\(picture)-\(shape)"
      let tall = shape == "portrait" ? "taller than wide" : "not taller than wide"
      return SettingSpec(
        key, .splash, .option(placeholder: "FILE"), .picture,
        help: "Like --\(picture), taken when the logical canvas (the display's size turned by the angle) is \(tall).",
        parse: { $0.splash.shapedArtwork[key] = try $1.path() }, show: { $0.splash.shapedArtwork[key] })
    }
  }

  private static let handoff: [SettingSpec] = [
    SettingSpec(
      "exec", .handoff, .fileOnly(placeholder: "PROGRAM [ARGS...]"), .reveal,
      help: "The program splashd becomes once the splash is done (execve: same PID, streams and cgroup), with "
        + "SPLASHD_ROTATION=<degrees> in its environment. Words are split as a shell does ('single' and "
        + "\"double\" quotes, backslash escapes; no variables); a bare name is looked up in PATH. A program "
        + "after -- on the command line wins over it.",
      parse: { settings, value in
        let words: [String]
        switch splitShellWords(value.raw) {
        case .success(let split): words = split
        case .failure(let problem): throw value.fail("a program and its arguments (\(problem.description))")
        }
        guard let first = words.first else { throw value.fail("a program and its arguments") }
        settings.handoff.program = [value.source.resolve(program: first)] + words.dropFirst()
      }, show: { $0.handoff.program.map(shellQuoted) }),
    SettingSpec(
      "ready", .handoff, .option(placeholder: "notify|exec"), .reveal,
      help: "notify: start the PROGRAM first, as splashd's child, with NOTIFY_SOCKET set, and reveal when it "
        + "sends READY=1 (or ends); splashd then stays its parent, passes SIGTERM, SIGINT and SIGHUP on, and "
        + "exits with its status (128+signal if a signal ended it). exec: become the program after the "
        + "transition.",
      default: "exec", values: ["notify", "exec"],
      parse: { settings, value in
        switch value.text {
        case "notify": settings.handoff.readyNotify = true
        case "exec": settings.handoff.readyNotify = false
        default: throw value.fail("notify (start the program first, reveal on its READY=1) or exec")
        }
      }, show: { $0.handoff.readyNotify ? "notify" : "exec" }),
    SettingSpec(
      "until-file", .handoff, .option(placeholder: "PATH"), .reveal,
      help: "After the hold, keep holding until PATH exists (watched with inotify, not polled; its directories "
        + "may appear later).",
      parse: { $0.handoff.untilFile = try $1.path() }, show: { $0.handoff.untilFile }),
    SettingSpec(
      "until-reveal", .handoff, .flag, .reveal,
      help: "After the hold, keep holding until `splashctl reveal` (on the control socket).", default: "no",
      values: ["yes", "no"], parse: { $0.handoff.untilReveal = try $1.yesOrNo() },
      show: { $0.handoff.untilReveal ? "yes" : "no" }),
    SettingSpec(
      "keep-last-frame", .handoff, .flag, .reveal,
      help: "With no program to hand off to: leave the transition's last frame on the display when splashd ends, "
        + "instead of putting back what it showed before (the console), for a kiosk program that its own unit "
        + "starts next (kiosk-revealed-by-splashctl.service): nothing shows between the two. Where the kernel keeps "
        + "a frame only while its card is open (before Linux 6.8), splashd stays until another program shows a frame, "
        + "SIGTERM or the timeout (60 s with timeout = 0).",
      default: "no", values: ["yes", "no"], parse: { $0.handoff.keepLastFrame = try $1.yesOrNo() },
      show: { $0.handoff.keepLastFrame ? "yes" : "no" }),
    SettingSpec(
      "timeout", .handoff, .option(placeholder: "SECONDS"), .reveal,
      help: "The longest --ready notify, --until-file or --until-reveal holds the splash, counted from the first "
        + "frame; 0 for no limit.",
      default: "30", parse: { $0.handoff.timeout = try $1.seconds(upTo: Settings.maxTimeout, zero: " (no limit)") },
      show: { formatNumber($0.handoff.timeout) }),
    SettingSpec(
      "control", .handoff, .option(placeholder: "PATH"), .control,
      help: "Serves splashctl at this socket.",
      default: "$RUNTIME_DIRECTORY/control under systemd, /run/splashd/control with --until-reveal, else none",
      parse: { $0.handoff.control = try $1.path() }, show: { $0.handoff.control }),
    SettingSpec(
      "control-group", .handoff, .option(placeholder: "NAME"), .control,
      help: "Lets this group use the control socket too (mode 0660 instead of 0600).",
      parse: { $0.handoff.controlGroup = try $1.word("a group name") }, show: { $0.handoff.controlGroup }),
    SettingSpec(
      "compat", .handoff, .option(placeholder: "CLIENTS"), .control,
      help: "Answers a peer's clients too, so that boot scripts written for it work unchanged: psplash (its FIFO, "
        + "$PSPLASH_FIFO_DIR/psplash_fifo, /run by default: psplash-write's PROGRESS, MSG and QUIT); plymouth "
        + "(its socket: plymouth --ping, display-message, system-update --progress, quit, ...; root's requests "
        + "only, as Plymouth). A name another program holds is left to it, with a log line. Names separated by "
        + "spaces or commas; none for none.",
      default: "none", values: CompatClient.allCases.map(\.rawValue),
      parse: { settings, value in
        let names = value.text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        let expected = "client names among \(listing(CompatClient.allCases.map(\.rawValue), last: "and")), or none"
        if names == ["none"] {
          settings.handoff.compat = []
          return
        }
        let clients = names.map { CompatClient(rawValue: $0) }
        guard !clients.isEmpty, clients.allSatisfy({ $0 != nil }) else { throw value.fail(expected) }
        var unique: [CompatClient] = []
        for client in clients.map({ $0! }) where !unique.contains(client) { unique.append(client) }
        settings.handoff.compat = unique
      },
      show: { settings in
        settings.handoff.compat.isEmpty ? "none" : settings.handoff.compat.map(\.rawValue).joined(separator: " ")
      }),
    SettingSpec(
      "plymouth-socket", .handoff, .option(placeholder: "NAME"), .control,
      help: "The abstract socket name Plymouth's clients connect to (a client built with another name, or tests).",
      default: HandoffSettings.defaultPlymouthSocket,
      parse: { settings, value in
        let name = try value.word("an abstract socket name such as /org/freedesktop/plymouthd")
        guard name.utf8.count < 100, !name.utf8.contains(0) else {
          throw value.fail("an abstract socket name of at most 99 bytes")
        }
        settings.handoff.plymouthSocket = name
      }, show: { $0.handoff.plymouthSocket }),
  ]

  private static let orientation: [SettingSpec] = [
    SettingSpec(
      "sources", .orientation, .fileOnly(placeholder: "SOURCE ..."), .orientation,
      help: "The orientation sources, in order; the first that answers wins: evdev (an evdev accelerometer), "
        + "switch (a rotation switch or keys), iio (an IIO accelerometer in sysfs), panel (a DRM connector's "
        + "\"panel orientation\"), cmdline (the kernel command line: video=<conn>:...,rotate=<deg>, "
        + "panel_orientation=..., fbcon=rotate:<0-3>).",
      default: "evdev iio panel cmdline", values: OrientationSource.allCases.map(\.rawValue),
      parse: { settings, value in
        let names = value.text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        let sources = names.map { OrientationSource(rawValue: String($0)) }
        guard !sources.isEmpty, sources.allSatisfy({ $0 != nil }) else {
          throw value.fail(
            "sources among \(OrientationSource.allCases.map(\.rawValue).joined(separator: ", ")), in order")
        }
        settings.orientation.sources = sources.map { $0! }
      }, show: { $0.orientation.sources.map(\.rawValue).joined(separator: " ") }),
    SettingSpec(
      "evdev", .orientation, .fileOnly(placeholder: "DEVICE"), .orientation,
      help: "The evdev accelerometer.", default: "the first /dev/input/event* with INPUT_PROP_ACCELEROMETER",
      parse: { $0.orientation.evdev = try $1.path() }, show: { $0.orientation.evdev }),
    SettingSpec(
      "switch", .orientation, .fileOnly(placeholder: "DEVICE"), .orientation,
      help: "The evdev device with the rotation switch or keys (see switch-map).",
      parse: { $0.orientation.switchDevice = try $1.path() }, show: { $0.orientation.switchDevice }),
    SettingSpec(
      "switch-map", .orientation, .fileOnly(placeholder: "NAME=ANGLE, ..."), .orientation,
      help: "Which switch or key, when on, means which angle, such as SW_TABLET_MODE=90, KEY_F13=180 (names "
        + "SW_LID ... SW_MACHINE_COVER, KEY_F13 ... KEY_F24, SW_<code>, KEY_<code>); the first on wins.",
      parse: { settings, value in
        guard let map = SwitchMap(value.text) else {
          throw value.fail(
            "NAME=ANGLE pairs separated by commas, such as \"SW_ROTATE_LOCK=90, KEY_F13=180\" (names: SW_LID … "
              + "SW_MACHINE_COVER, KEY_F13 … KEY_F24, SW_<code>, KEY_<code>; angles 0, 90, 180, 270)")
        }
        settings.orientation.switchMap = map
      }, show: { $0.orientation.switchMap?.description }),
    SettingSpec(
      "iio", .orientation, .fileOnly(placeholder: "DIR"), .orientation,
      help: "The IIO accelerometer's sysfs directory.",
      default: "the first under /sys/bus/iio/devices with in_accel_x_raw",
      parse: { $0.orientation.iio = try $1.path() }, show: { $0.orientation.iio }),
    SettingSpec(
      "panel", .orientation, .fileOnly(placeholder: "CARD"), .orientation,
      help: "The DRM card whose connected connectors' \"panel orientation\" is read.",
      default: "the first card with a connected connector",
      parse: { $0.orientation.panel = try $1.path() }, show: { $0.orientation.panel }),
    SettingSpec(
      "cmdline", .orientation, .fileOnly(placeholder: "FILE"), .orientation,
      help: "Where the kernel command line is read.", default: "/proc/cmdline",
      parse: { $0.orientation.cmdline = try $1.path() }, show: { $0.orientation.cmdline }),
    SettingSpec(
      "mount-matrix", .orientation, .fileOnly(placeholder: "X, Y, Z; X, Y, Z; X, Y, Z"), .orientation,
      help: "Maps the accelerometer's axes onto the display's, overriding the device's own (udev's "
        + "ACCEL_MOUNT_MATRIX, or sysfs's).",
      parse: { settings, value in
        guard let matrix = MountMatrix(value.text) else {
          throw value.fail("three rows of three numbers, such as \"0, -1, 0; -1, 0, 0; 0, 0, 1\", no row all zeros")
        }
        settings.orientation.mountMatrix = matrix
      },
      show: { settings in
        settings.orientation.mountMatrix.map {
          $0.rows.map { $0.map(formatNumber).joined(separator: ", ") }.joined(separator: "; ")
        }
      }),
    SettingSpec(
      "settle", .orientation, .fileOnly(placeholder: "SECONDS"), .orientation,
      help: "Seconds an accelerometer that has not sampled yet may take to report before the first frame (at "
        + "most 5).",
      default: "0.2", parse: { $0.orientation.settle = try $1.seconds(upTo: Settings.maxSettle) },
      show: { formatNumber($0.orientation.settle) }),
    SettingSpec(
      "follow", .orientation, .fileOnly(placeholder: "yes|no"), .orientation,
      help: "Keep following the evdev accelerometer or rotation switch while the splash holds: a new angle "
        + "turns the held splash.",
      default: "yes", values: ["yes", "no"], parse: { $0.orientation.follow = try $1.yesOrNo() },
      show: { $0.orientation.follow ? "yes" : "no" }),
  ]
}

/// `items` joined for a sentence: "a, b or c".
public func listing(_ items: [String], last conjunction: String) -> String {
  guard items.count > 1 else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

/// `text` without one pair of matching quotes (single or double) around
/// all of it, when no other quote of that kind is inside.
public func unquoted(_ text: String) -> String {
  guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
    return text
  }
  let inner = text.dropFirst().dropLast()
  return inner.contains(first) ? text : String(inner)
}

/// `text` as a config file's value that reads back as `text`: wrapped in
/// quotes when the file would otherwise change it (blanks at its ends, or
/// quotes around it). A " ;" inside cannot be written: the file takes it
/// for a comment.
public func quotedForFile(_ text: String) -> String {
  let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
  let needs = text.first.map(blank) == true || text.last.map(blank) == true || unquoted(text) != text
  guard needs else { return text }
  for quote in ["\"", "'"] where !text.contains(quote) { return quote + text + quote }
  return text
}

extension SettingsTable {
  /// `settings` as a config file: every section and every key, those not
  /// set as comments. Reading it back gives the same settings.
  public static func configText(_ settings: Settings) -> String {
    var lines: [String] = []
    for section in SettingsSection.allCases {
      if !lines.isEmpty { lines.append("") }
      lines.append("[\(section.rawValue)]")
      for spec in specs(in: section) {
        if let value = spec.text(in: settings) {
          lines.append("\(spec.fileKey) = \(value)")
        } else {
          lines.append("; \(spec.fileKey): not set")
        }
      }
    }
    let screens = ScreenSettingsTable.configText(settings)
    return lines.joined(separator: "\n") + "\n" + (screens.isEmpty ? "" : "\n" + screens)
  }
}
