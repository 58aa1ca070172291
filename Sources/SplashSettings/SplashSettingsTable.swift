// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// The `[splash]`, `[handoff]`, `[screen-power]` and `[orientation]`
/// settings: the picture, the transition, the display, what holds the
/// splash and what follows it, when host mode's screen is off, and where
/// `rotate = auto` looks.
enum SplashSettingsTable {
  static let all: [SettingSpec] = splash + handoff + screenPower + orientation

  private static let splash: [SettingSpec] =
    [
      SettingSpec(
        "image", .splash, .option(placeholder: "FILE"), .picture,
        help: "The splash picture: PNG, JPEG, BMP, GIF, ... at most 16384 pixels on a side.",
        unset: "the bundled demo picture", \.splash.image, read: { try $0.path() }, print: { $0.map(quotedForFile) }),
      SettingSpec(
        "left", .splash, .option(placeholder: "FILE"), .picture,
        help: "The picture of the left door leaf, instead of --image; needs --right. Each leaf fills its half.",
        \.splash.left, read: { try $0.path() }, print: { $0.map(quotedForFile) }),
      SettingSpec(
        "right", .splash, .option(placeholder: "FILE"), .picture,
        help: "The picture of the right door leaf; needs --left.", \.splash.right, read: { try $0.path() },
        print: { $0.map(quotedForFile) }),
    ] + shapedPictures + [
      SettingSpec(
        "image-shutdown", .splash, .option(placeholder: "FILE"), .boot,
        help: "The picture of the shutdown splash (--boot shutdown, splashd-shutdown.service), instead of --image "
          + "and the leaves.", unset: "the boot's pictures", \.splash.imageShutdown, read: { try $0.path() },
        print: { $0.map(quotedForFile) }),
      SettingSpec(
        "without-splash-word", .splash, .option(placeholder: "show|hide"), .boot,
        help: "Whether a boot splash (--boot) shows when the kernel command line has neither splash nor nosplash. "
          + "Whatever this says, nosplash, splashd.enable=0 and single keep it off, and splash shows it; "
          + "splashd.initramfs=0 keeps only the initramfs's start off.",
        values: SplashWordDefault.allCases.map(\.rawValue), \.splash.withoutSplashWord,
        read: { try $0.choice(SplashWordDefault.self) }, print: { $0.rawValue }),
      SettingSpec(
        "background", .splash, .option(placeholder: "FILE|#RRGGBB"), .picture,
        help: "What the transition reveals: a colour (#RRGGBB or #RGB), or a picture, scaled to cover the screen "
          + "(its transparency is ignored).", field: \.splash.background,
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
          + "around), stretch (ignore the aspect), center (unscaled).", values: Fit.allCases.map(\.rawValue),
        \.splash.fit, read: { try $0.choice(Fit.self) }, print: { $0.rawValue }),
      SettingSpec(
        "transition", .splash, .option(placeholder: "KIND"), .transition,
        help: "doors: the picture splits at the vertical centre line and both leaves slide out; crossfade: the "
          + "picture fades out.", values: TransitionKind.allCases.map(\.rawValue), \.splash.transition,
        read: { try $0.choice(TransitionKind.self) }, print: { $0.rawValue }),
      SettingSpec(
        "duration", .splash, .option(placeholder: "SECONDS"), .transition,
        help: "The length of the transition, at most 60 seconds; crossfade takes 0.5 unless one is given.",
        field: \.splash.duration,
        parse: { $0.splash.duration = try $1.seconds(upTo: Settings.maxDuration) },
        show: { formatNumber($0.splash.effectiveDuration) }),
      SettingSpec(
        "hold", .splash, .option(placeholder: "SECONDS"), .transition,
        help: "How long the picture stands still before the transition, counted from the first frame on the "
          + "screen; meanwhile only the status layers are drawn again, when they change and as an animation plays.",
        \.splash.hold, read: { try $0.seconds(upTo: Settings.maxHold) }, print: { formatNumber($0) }),
      SettingSpec(
        "easing", .splash, .option(placeholder: "CURVE"), .transition,
        help: "linear, ease-in, ease-out, ease-in-out or cubic-bezier(X1,Y1,X2,Y2) with X1, X2 in 0..1 (CSS's "
          + "definitions).", values: ["linear", "ease-in", "ease-out", "ease-in-out", "cubic-bezier("],
        field: \.splash.easing,
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
          + "orientation, the kernel command line), 0 when none answers.", values: ["0", "90", "180", "270", "auto"],
        field: \.splash.rotate,
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
          + "used here and opens, each that fails logged with its reason.", field: \.splash.display,
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
        unset: "kms, kmsdrm: the first card with a connected connector; fbdev: /dev/fb0", \.splash.device,
        read: { try $0.path() }, print: { $0.map(quotedForFile) }),
      SettingSpec(
        "mode", .splash, .option(placeholder: "WxH[@HZ]"), .display,
        help: "The KMS mode to set, one the connector offers (the message lists them).",
        unset: "the connector's preferred mode", field: \.splash.mode,
        parse: { settings, value in
          guard let mode = DisplayModeRequest(value.text) else {
            throw value.fail("WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, such as 1280x800 or 1920x1080@60")
          }
          settings.splash.mode = mode
        }, show: { $0.splash.mode?.description }),
      SettingSpec(
        "size", .splash, .option(placeholder: "WxH"), .display,
        help: "The display's size in pixels: the window's inner size, or offscreen's; kms, kmsdrm and fbdev use their "
          + "mode's. At most 3840x2160's pixels in all.", field: \.splash.size,
        parse: { settings, value in
          guard let size = parseSize(value.text), size.width * size.height <= Settings.maxSizePixels else {
            throw value.fail(
              "WIDTHxHEIGHT, each from 1 to \(PixelSize.maxSide) and at most 3840x2160's \(Settings.maxSizePixels) "
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
        field: \.splash.maxMegapixels,
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
        field: \.splash.cache,
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
        help: "The frame rate of offscreen rendering and recording.", field: \.splash.fps,
        parse: { settings, value in
          settings.splash.fps = try value.positiveDecimal(
            upTo: Settings.maxFPS, expected: "frames per second above 0, at most \(formatNumber(Settings.maxFPS))")
        }, show: { formatNumber($0.splash.fps) }),
      SettingSpec(
        "record", .splash, .option(placeholder: "DIR"), .display,
        help: "Renders offscreen as fast as it can and writes DIR/frame-00000.png, ... one frame every 1/fps "
          + "seconds from the first frame through the hold and the transition, the last exactly at its end, and "
          + "DIR/frames.csv (frame,time_s,phase,progress). The same command always writes the same bytes.",
        \.splash.record, read: { try $0.path() }, print: { $0.map(quotedForFile) }),
    ]

  /// `image-portrait`, `left-portrait`, …, `right-landscape`.
  private static let shapedPictures: [SettingSpec] = ["portrait", "landscape"].flatMap { shape in
    ["image", "left", "right"].map { picture in
      let key = "\(picture)-\(shape)"
      let tall = shape == "portrait" ? "taller than wide" : "not taller than wide"
      return SettingSpec(
        key, .splash, .option(placeholder: "FILE"), .picture,
        help: "Like --\(picture), taken when the logical canvas (the display's size turned by the angle) is \(tall).",
        \.splash.shapedArtwork[key], read: { try $0.path() }, print: { $0.map(quotedForFile) })
    }
  }

  private static let handoff: [SettingSpec] = [
    SettingSpec(
      "exec", .handoff, .fileOnly(placeholder: "PROGRAM [ARGS...]"), .reveal,
      help: "The program splashd becomes once the splash is done (execve: same PID, streams and cgroup), with "
        + "SPLASHD_ROTATION=<degrees> in its environment. Words are split as a shell does ('single' and "
        + "\"double\" quotes, backslash escapes; no variables); a bare name is looked up in PATH. A program "
        + "after -- on the command line wins over it.", field: \.handoff.program,
      parse: { settings, value in settings.handoff.program = try programWords(value) },
      show: { $0.handoff.program.map(shellQuoted) }),
    SettingSpec(
      "user", .handoff, .option(placeholder: "NAME"), .reveal,
      help: "The user the program runs as (a name or a number): splashd, run as root, becomes the program with that "
        + "user's ids and groups, HOME, USER, LOGNAME, SHELL, and XDG_RUNTIME_DIR=/run/user/UID (made when missing, "
        + "the user's, 0700), keeping the display's devices it opened. A user that cannot be found, or a runtime "
        + "directory that is not the user's, means the program is not run (exit 127): never as root by mistake.",
      unset: "splashd's own", \.handoff.user, read: { try $0.word("a user name or number") },
      print: { $0.map(quotedForFile) }),
    SettingSpec(
      "group", .handoff, .option(placeholder: "NAME"), .reveal,
      help: "The group the program runs as, instead of its user's own (with --user).", unset: "the user's",
      \.handoff.group, read: { try $0.word("a group name or number") }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "pass-environment", .handoff, .option(placeholder: "NAMES|none"), .reveal,
      help: "Names of splashd's environment variables the program gets too, separated by spaces. Whichever way it "
        + "starts, the program gets only what systemd gives a service (PATH, LANG and LC_*, TERM, INVOCATION_ID, "
        + "JOURNAL_STREAM), what its user has (HOME, USER, LOGNAME, SHELL, XDG_RUNTIME_DIR, TZ), a desktop "
        + "session's display and bus (DISPLAY, WAYLAND_DISPLAY, XAUTHORITY, DBUS_SESSION_BUS_ADDRESS, XDG_*), "
        + "SPLASHD_CONTROL, these, and what splashd adds (SPLASHD_ROTATION; its own NOTIFY_SOCKET with ready = "
        + "notify; host mode's display): never splashd's unit's credentials, directories or systemd's "
        + "NOTIFY_SOCKET. none: no more.",
      field: \.handoff.passEnvironment,
      parse: { settings, value in
        let names = value.text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if names == ["none"] {
          settings.handoff.passEnvironment = []
          return
        }
        guard !names.isEmpty, names.allSatisfy(ProgramEnvironment.isName) else {
          throw value.fail("environment variables' names separated by spaces (letters, digits, _), or none")
        }
        settings.handoff.passEnvironment = names
      }, show: { $0.handoff.passEnvironment.isEmpty ? "none" : $0.handoff.passEnvironment.joined(separator: " ") }),
    SettingSpec(
      "ready", .handoff, .option(placeholder: "exec|notify|first-frame"), .reveal,
      help: "exec: become the program after the transition (in host mode: as first-frame). notify: start the "
        + "PROGRAM first, as splashd's child, with NOTIFY_SOCKET set, and reveal when it sends READY=1 (or ends; in "
        + "host mode, READY=1 and its first frame, for a web view whose first frame is blank); splashd then stays "
        + "its parent, passes SIGTERM, SIGINT and SIGHUP on, and exits with its status (128+signal if a signal "
        + "ended it). first-frame (host mode): reveal when the program's window shows its first frame.",
      values: ReadySource.allCases.map(\.rawValue), \.handoff.ready, read: { try $0.choice(ReadySource.self) },
      print: { $0.rawValue }),
    SettingSpec(
      "host", .handoff, .option(placeholder: "none|wayland"), .reveal,
      help: "wayland: splashd is the PROGRAM's Wayland compositor (host mode): the program starts once the splash "
        + "is on the screen, as splashd's child, draws under the splash, and the transition plays over its live "
        + "frames; splashd then stays its compositor until it ends, and exits with its status. A reveal asked "
        + "before the program's first frame waits for that frame (at most timeout). Other clients (the "
        + "program's children, grim) connect at wayland-N in its XDG_RUNTIME_DIR (its WAYLAND_DISPLAY). On a card or "
        + "framebuffer the machine's keyboards, pointers and touch screens reach the program (libinput, as root; "
        + "the layout of /etc/default/keyboard, XKB_DEFAULT_* overriding it; touches turned with the screen), the "
        + "console's own keyboard off meanwhile. Needs the libraries splashd's package recommends "
        + "(libwayland-server0, libevdev2, libinput-bin, …; wlroots and libinput are built in). none: the program takes the display itself.",
      values: HostMode.allCases.map(\.rawValue), \.handoff.host, read: { try $0.choice(HostMode.self) },
      print: { $0.rawValue }),
    SettingSpec(
      "xwayland", .handoff, .flag, .reveal,
      help: "Host mode: serve X11 programs too. The program gets DISPLAY; Xwayland starts when the first X client "
        + "connects, and the first X window that is not a menu or a tooltip is the program's window, full screen, "
        + "revealed at its first frame like a Wayland one (menus lie where X puts them, other windows centred over "
        + "it). Needs Xwayland (the xwayland package).", values: ["yes", "no"], \.handoff.xwayland,
      read: { try $0.yesOrNo() }, print: { $0 ? "yes" : "no" }),
    SettingSpec(
      "gpu", .handoff, .option(placeholder: "yes|no"), .reveal,
      help: "Host mode: on a card with a render node (a GPU's), the program renders on that GPU and hands its "
        + "buffers over as they are (linux-dmabuf); under the splash its frames are composed with the splash on "
        + "the GPU (splashctl status: scanout=composed), and alone on the only screen, unturned and the screen's "
        + "size, its buffer is scanned out with no copy (scanout=direct). no: the program renders into "
        + "shared memory and splashd copies each frame, as on a card without a GPU.", values: ["yes", "no"],
      \.handoff.gpu, read: { try $0.yesOrNo() }, print: { $0 ? "yes" : "no" }),
    SettingSpec(
      "screens", .handoff, .option(placeholder: "mirror|extend|last|NAME"), .reveal,
      help: "Host mode with several screens (kms): mirror: the program's window is the first screen's canvas and "
        + "each other screen shows it scaled to fit; extend: one window across all the screens side by side, in "
        + "the order the status lists them, their tops in line, each showing its part; last: the window is the "
        + "last screen's canvas and shows there alone (the others show the background); NAME, a screen's name as "
        + "the status lists it, letter case included (HDMI-A-1; a screen of another card's with or without its "
        + "cardN-, the first listed of that name): the same on that "
        + "screen, and while no screen of that name is connected on the first (said in the log). Screens plugged "
        + "in or unplugged later change the window's size when the arrangement does. A touch screen or tablet that "
        + "udev's WL_OUTPUT property puts on a screen (its name as the status lists it) points into that screen's "
        + "part; the others into the first screen's (the one the window shows on, with last or NAME).",
      values: ScreenSharing.keywords + ["NAME (a screen's)"], \.handoff.screens,
      read: { value throws(SettingsError) in
        guard let sharing = ScreenSharing(text: value.text) else {
          throw value.fail("mirror, extend, last or a screen's name as splashctl status lists it (HDMI-A-1)")
        }
        return sharing
      },
      print: { $0.text }),
    SettingSpec(
      "keyboard", .handoff, .option(placeholder: "COMMAND"), .reveal,
      help: "Host mode: an on-screen keyboard splashd starts beside the program, as a client of the display's "
        + "socket (WAYLAND_DISPLAY), as the program's user with the program's environment, its standard error "
        + "splashd's: wvkbd-mobintl --hidden -H 200, docked at the screen's bottom with the program's window above it. Words "
        + "are split as exec's; a bare name is looked up in PATH. One that ends is started again a second later "
        + "(twice as long each time it lasted less than 10 s, at most a minute), and it is ended (SIGTERM to its "
        + "process group) when splashd stops or ends. See keyboard-popup.", unset: "none", field: \.handoff.keyboard,
      parse: { settings, value in settings.handoff.keyboard = try programWords(value) },
      show: { settings -> String? in
        settings.handoff.keyboard.isEmpty ? nil : shellQuoted(settings.handoff.keyboard)
      }),
    SettingSpec(
      "keyboard-popup", .handoff, .option(placeholder: "signals|itself"), .reveal,
      help:
        "How the on-screen keyboard of keyboard comes and goes. signals: splashd hides it (SIGUSR1) while no text field of "
        + "the program's has the keyboard's focus and takes text (text-input-v3: GTK's, WebKit's in cog, "
        + "Chromium's with --enable-wayland-ime --wayland-text-input-version=3) and shows it (SIGUSR2) while one does, as wvkbd wants; each only "
        + "once the keyboard takes that signal (a handler, or blocked for a signalfd; it would end one that does "
        + "not; one that does not within "
        + "10 s of its start is sent none until it does, said in the log). itself: no signals, for a keyboard that shows "
        + "itself when a field asks (an input method: squeekboard) or always shows.",
      values: KeyboardPopup.allCases.map(\.rawValue), \.handoff.keyboardPopup,
      read: { try $0.choice(KeyboardPopup.self) }, print: { $0.rawValue }),
    SettingSpec(
      "until-file", .handoff, .option(placeholder: "PATH"), .reveal,
      help: "After the hold, keep holding until PATH exists (watched with inotify, not polled; its directories "
        + "may appear later).", \.handoff.untilFile, read: { try $0.path() }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "until-reveal", .handoff, .flag, .reveal,
      help: "After the hold, keep holding until `splashctl reveal` (on the control socket).", values: ["yes", "no"],
      \.handoff.untilReveal, read: { try $0.yesOrNo() }, print: { $0 ? "yes" : "no" }),
    SettingSpec(
      "keep-last-frame", .handoff, .flag, .reveal,
      help: "With no program to hand off to: leave the transition's last frame on the display when splashd ends, "
        + "instead of putting back what it showed before (the console), for a kiosk program that its own unit "
        + "starts next (kiosk-revealed-by-splashctl.service): nothing shows between the two. Where the kernel keeps "
        + "a frame only while its card is open (before Linux 6.8), splashd stays until another program shows a frame, "
        + "SIGTERM or the timeout (60 s with timeout = 0).", values: ["yes", "no"], \.handoff.keepLastFrame,
      read: { try $0.yesOrNo() }, print: { $0 ? "yes" : "no" }),
    SettingSpec(
      "restart-window", .handoff, .option(placeholder: "SECONDS"), .reveal,
      help: "Under systemd, a start less than this many seconds after splashd last handed the screen to the same "
        + "program (one that failed at once and was started again by Restart=) hands off at once, without the "
        + "splash, and says so: a restart loop never replays the transition. 0 always plays it.",
      \.handoff.restartWindow, read: { try $0.seconds(upTo: Settings.maxRestartWindow, zero: " (always play)") },
      print: { formatNumber($0) }),
    SettingSpec(
      "restart", .handoff, .option(placeholder: "no|on-failure|always"), .reveal,
      help: "Host mode: when the program ends (on-failure: with a status other than 0 or by a signal, or frozen: "
        + "hang-timeout; always: however it ends; not when splashd is stopped), the splash comes back, cross-faded "
        + "from the program's last frame, with a message line saying how it ended; the program is started again "
        + "after a pause (half a second, doubled at each restart up to 8), and the transition opens onto its new "
        + "first frame. After restart-limit restarts the splash shows the diagnostic screen (how the program "
        + "ended, when, the last lines of its standard error, the machine's name and addresses; splashctl status "
        + "says the same) for 30 s, then splashd exits with the program's status, the screen kept. no: splashd "
        + "exits with the program's status at once.",
      values: RestartPolicy.allCases.map(\.rawValue), \.handoff.restart, read: { try $0.choice(RestartPolicy.self) },
      print: { $0.rawValue }),
    SettingSpec(
      "restart-limit", .handoff, .option(placeholder: "N"), .reveal,
      help: "Host mode with restart: the most times the program is started again (from 1 to "
        + "\(Settings.maxRestartLimit)).", \.handoff.restartLimit,
      read: { value in
        guard let number = Int(value.text), (1...Settings.maxRestartLimit).contains(number) else {
          throw value.fail("a whole number from 1 to \(Settings.maxRestartLimit)")
        }
        return number
      }, print: { String($0) }),
    SettingSpec(
      "hang-timeout", .handoff, .option(placeholder: "SECONDS"), .reveal,
      help: "Host mode: once the program has shown its first frame, its window's client is pinged (xdg-shell's "
        + "ping) and must answer within this many seconds; one that does not is frozen, and is treated as a "
        + "failure: the splash comes back over its last frame saying so, the program is ended (SIGTERM, then "
        + "SIGKILL after 5 s) and started again as restart says. X11 programs are not pinged. 0 (off) never pings.",
      \.handoff.hangTimeout, read: { try $0.seconds(upTo: Settings.maxHangTimeout, zero: " (off)") },
      print: { formatNumber($0) }),
    SettingSpec(
      "timeout", .handoff, .option(placeholder: "SECONDS"), .reveal,
      help: "The longest --ready notify, --until-file or --until-reveal holds the splash, counted from the first "
        + "frame; 0 for no limit. A question asked on the splash (a disk's passphrase: see --prompt-tty) holds it "
        + "until it is answered, and the timeout counts again from the answer.", \.handoff.timeout,
      read: { try $0.seconds(upTo: Settings.maxTimeout, zero: " (no limit)") }, print: { formatNumber($0) }),
    SettingSpec(
      "control", .handoff, .option(placeholder: "PATH"), .control, help: "Serves splashctl at this socket.",
      unset: "$RUNTIME_DIRECTORY/control under systemd, /run/splashd/control with --until-reveal, else none",
      \.handoff.control, read: { try $0.path() }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "control-group", .handoff, .option(placeholder: "NAME"), .control,
      help: "Lets this group use the control socket too (mode 0660 instead of 0600).", \.handoff.controlGroup,
      read: { try $0.word("a group name") }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "metrics-file", .handoff, .option(placeholder: "PATH"), .control,
      help: "Writes splashd's figures for Prometheus' node_exporter here (its textfile collector reads the "
        + "files ending in .prom in its --collector.textfile.directory): the first frame's and the reveal's "
        + "seconds from the start, the display path, host mode's program starts, failures and hangs, the "
        + "screen's on-time; replaced at once at each of those events and each time the screen goes off or on. "
        + "A folder that is a symbolic link, or a file that cannot be written, is said in one line and the "
        + "splash goes on.",
      \.handoff.metricsFile,
      read: { value in
        let path = try value.path()
        guard path.hasSuffix(".prom") else {
          throw value.fail("a file name ending in .prom (node_exporter reads only those)")
        }
        return path
      }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "compat", .handoff, .option(placeholder: "CLIENTS"), .control,
      help: "Answers a peer's clients too, so that boot scripts written for it work unchanged: psplash (its FIFO, "
        + "$PSPLASH_FIFO_DIR/psplash_fifo, /run by default: psplash-write's PROGRESS, MSG and QUIT); plymouth "
        + "(its socket: plymouth --ping, display-message, system-update --progress, quit, ...; root's requests "
        + "only, as Plymouth). A name another program holds is left to it, with a log line. Names separated by "
        + "spaces or commas; none for none.", values: CompatClient.allCases.map(\.rawValue), field: \.handoff.compat,
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
      field: \.handoff.plymouthSocket,
      parse: { settings, value in
        let name = try value.word("an abstract socket name such as /org/freedesktop/plymouthd")
        guard name.utf8.count < 100, !name.utf8.contains(0) else {
          throw value.fail("an abstract socket name of at most 99 bytes")
        }
        settings.handoff.plymouthSocket = name
      }, show: { quotedForFile($0.handoff.plymouthSocket) }),
    SettingSpec(
      "plymouth-pid-file", .handoff, .option(placeholder: "PATH|none"), .control,
      help: "Where splashd names itself, as plymouthd does, while it answers on Plymouth's socket: systemd's "
        + "console password agent then stands aside, and splashd-ask-password.path hands password requests "
        + "(a disk's passphrase from systemd-cryptsetup) to the splash. Removed when the splash ends; none for "
        + "none.",
      field: \.handoff.plymouthPIDFile,
      parse: { settings, value in
        settings.handoff.plymouthPIDFile = value.text == "none" ? nil : try value.path()
      }, show: { $0.handoff.plymouthPIDFile.map(quotedForFile) ?? "none" }),
    SettingSpec(
      "prompt-tty", .handoff, .option(placeholder: "PATH|auto"), .control,
      help: "The terminal whose keys answer a question asked on the splash (Plymouth's ask-for-password, "
        + "ask-question and watch-keystroke; splashctl ask-password): auto, the console's active virtual terminal "
        + "(/sys/class/tty/tty0/active, else /dev/tty1), so that the console's keymap applies; or a terminal's "
        + "path. It is read only while a question is asked, its echo off.",
      field: \.handoff.promptTerminal,
      parse: { settings, value in
        settings.handoff.promptTerminal = value.text == "auto" ? nil : try value.path()
      }, show: { $0.handoff.promptTerminal.map(quotedForFile) ?? "auto" }),
  ]

  private static let screenPower: [SettingSpec] = [
    SettingSpec(
      "idle-off", .screenPower, .option(placeholder: "SECONDS"), .screenPower,
      help: "Host mode: the screen goes off (the display powered down, DPMS, a backlight under "
        + "/sys/class/backlight turned down first) after this many seconds without a key, a touch or the pointer "
        + "moving, once the program is shown; any of them wakes it, and the one that woke it does not reach the "
        + "program. A client's idle inhibitor (a video playing) holds it on. While the screen is off the program "
        + "gets no frame callbacks. 0 (off) never.",
      \.screenPower.idleOff, read: { try $0.seconds(upTo: Settings.maxIdleOff, zero: " (never)") },
      print: { formatNumber($0) }),
    SettingSpec(
      "on-at", .screenPower, .option(placeholder: "HH:MM ..."), .screenPower,
      help: "Host mode: the times of day (local time) the screen goes on, with off-at: each time switches it, so "
        + "off-at 22:00 and on-at 07:00 keep it off through the night. The schedule wins over idle inhibitors; "
        + "input in its off hours wakes the screen for idle-off seconds after the last of it (5 minutes without "
        + "idle-off). Times separated by spaces or commas.",
      field: \.screenPower.onAt, parse: { $0.screenPower.onAt = try dayTimes($1) },
      show: { $0.screenPower.onAt.isEmpty ? nil : $0.screenPower.onAt.map(\.description).joined(separator: " ") }),
    SettingSpec(
      "off-at", .screenPower, .option(placeholder: "HH:MM ..."), .screenPower,
      help: "Host mode: the times of day the screen goes off (see on-at).", field: \.screenPower.offAt,
      parse: { $0.screenPower.offAt = try dayTimes($1) },
      show: { $0.screenPower.offAt.isEmpty ? nil : $0.screenPower.offAt.map(\.description).joined(separator: " ") }),
  ]

  /// Times of day ("07:00 13:30"), each once.
  private static func dayTimes(_ value: SettingValue) throws(SettingsError) -> [DayTime] {
    let words = value.text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    let times = words.map { DayTime($0) }
    guard !times.isEmpty, times.allSatisfy({ $0 != nil }), Set(times).count == times.count else {
      throw value.fail("times of day as HH:MM (00:00 to 23:59), each once, separated by spaces or commas")
    }
    return times.map { $0! }
  }

  private static let orientation: [SettingSpec] = [
    SettingSpec(
      "sources", .orientation, .fileOnly(placeholder: "SOURCE ..."), .orientation,
      help: "The orientation sources, in order; the first that answers wins: evdev (an evdev accelerometer), "
        + "switch (a rotation switch or keys), iio (an IIO accelerometer in sysfs), panel (a DRM connector's "
        + "\"panel orientation\"), cmdline (the kernel command line: video=<conn>:...,rotate=<deg>, "
        + "panel_orientation=..., fbcon=rotate:<0-3>).", values: OrientationSource.allCases.map(\.rawValue),
      field: \.orientation.sources,
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
      "evdev", .orientation, .fileOnly(placeholder: "DEVICE"), .orientation, help: "The evdev accelerometer.",
      unset: "the first /dev/input/event* with INPUT_PROP_ACCELEROMETER", \.orientation.evdev, read: { try $0.path() },
      print: { $0.map(quotedForFile) }),
    SettingSpec(
      "switch", .orientation, .fileOnly(placeholder: "DEVICE"), .orientation,
      help: "The evdev device with the rotation switch or keys (see switch-map).", \.orientation.switchDevice,
      read: { try $0.path() }, print: { $0.map(quotedForFile) }),
    SettingSpec(
      "switch-map", .orientation, .fileOnly(placeholder: "NAME=ANGLE, ..."), .orientation,
      help: "Which switch or key, when on, means which angle, such as SW_TABLET_MODE=90, KEY_F13=180 (names "
        + "SW_LID ... SW_MACHINE_COVER, KEY_F13 ... KEY_F24, SW_<code>, KEY_<code>); the first on wins.",
      field: \.orientation.switchMap,
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
      unset: "the first under /sys/bus/iio/devices with in_accel_x_raw", \.orientation.iio, read: { try $0.path() },
      print: { $0.map(quotedForFile) }),
    SettingSpec(
      "panel", .orientation, .fileOnly(placeholder: "CARD"), .orientation,
      help: "The DRM card whose connected connectors' \"panel orientation\" is read.",
      unset: "the first card with a connected connector", \.orientation.panel, read: { try $0.path() },
      print: { $0.map(quotedForFile) }),
    SettingSpec(
      "cmdline", .orientation, .fileOnly(placeholder: "FILE"), .orientation,
      help: "Where the kernel command line is read.", \.orientation.cmdline, read: { try $0.path() },
      print: { quotedForFile($0) }),
    SettingSpec(
      "mount-matrix", .orientation, .fileOnly(placeholder: "X, Y, Z; X, Y, Z; X, Y, Z"), .orientation,
      help: "Maps the accelerometer's axes onto the display's, overriding the device's own (udev's "
        + "ACCEL_MOUNT_MATRIX, or sysfs's).", field: \.orientation.mountMatrix,
      parse: { settings, value in
        guard let matrix = MountMatrix(value.text) else {
          throw value.fail(
            "three rows of three numbers from -\(formatNumber(MountMatrix.maxEntry)) to "
              + "\(formatNumber(MountMatrix.maxEntry)), such as \"0, -1, 0; -1, 0, 0; 0, 0, 1\", no row all zeros")
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
        + "most 5).", \.orientation.settle, read: { try $0.seconds(upTo: Settings.maxSettle) },
      print: { formatNumber($0) }),
    SettingSpec(
      "follow", .orientation, .fileOnly(placeholder: "yes|no"), .orientation,
      help: "Keep following the evdev accelerometer or rotation switch while the splash holds (in host mode, "
        + "while the program runs): a new angle turns the held splash (the program's window).", values: ["yes", "no"],
      \.orientation.follow, read: { try $0.yesOrNo() },
      print: { $0 ? "yes" : "no" }),
  ]
}

/// A program and its arguments, split as a shell does (`exec`,
/// `keyboard`); a bare name is looked up as `value`'s source says.
private func programWords(_ value: SettingValue) throws(SettingsError) -> [String] {
  let words: [String]
  switch splitShellWords(value.raw) {
  case .success(let split): words = split
  case .failure(let problem): throw value.fail("a program and its arguments (\(problem.description))")
  }
  guard let first = words.first else { throw value.fail("a program and its arguments") }
  return [value.source.resolve(program: first)] + words.dropFirst()
}
