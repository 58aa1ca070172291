/// splashd's version.
public let splashdVersion = "0.1.0"

/// The text `splashd --help` prints.
public let usageText = """
  Usage: splashd [OPTIONS] [-- PROGRAM [ARGS...]]

  Shows a splash picture, holds it, then reveals the background with a
  door-open or cross-fade transition paced to the display's vsync. Given a
  PROGRAM, splashd then becomes it (execve: same PID, streams and cgroup),
  with SPLASHD_ROTATION=<degrees> added to its environment. The PROGRAM is
  found (in PATH, like a shell) before anything else and runs even when the
  splash fails: a bad option or picture, no display, a crash. If it cannot be
  run, splashd exits 127. SIGTERM or SIGINT end the splash at once and hand
  off (or exit 0 without a PROGRAM).

  Picture:
    --image FILE            the splash picture (PNG, JPEG, BMP, GIF, ...);
                            default: the bundled demo picture
    --left FILE --right FILE
                            two pictures, one per door leaf, instead of --image
    --image-portrait FILE, --left-portrait FILE --right-portrait FILE,
    --image-landscape FILE, --left-landscape FILE --right-landscape FILE
                            pictures made for a tall (portrait) or wide
                            (landscape) logical canvas, taken instead of the
                            above when the display turned by --rotate has
                            that shape
    --background FILE|#RRGGBB
                            what the transition reveals: a picture (always
                            scaled to cover the screen) or a colour
                            [default: #000000]
    --fit MODE              how the picture fills the screen: cover (fill, cut
                            the overflow), contain (fit inside), stretch,
                            center (unscaled) [default: cover]

  Transition:
    --transition KIND       doors: the picture splits at the vertical centre
                            line and both leaves slide out; crossfade: the
                            picture fades out [default: doors]
    --duration SECONDS      length of the transition [default: 1.2 for doors,
                            0.5 for crossfade; at most 60]
    --hold SECONDS          how long the picture stands still before the
                            transition; nothing is drawn meanwhile [default: 0]
    --easing CURVE          linear, ease-in, ease-out, ease-in-out or
                            cubic-bezier(X1,Y1,X2,Y2) with X1, X2 in 0..1
                            [default: ease-in-out = cubic-bezier(0.42,0,0.58,1)]

  When to reveal:
    --ready notify          start the PROGRAM first, as splashd's child, with
                            NOTIFY_SOCKET set, and reveal when it sends
                            READY=1 (or ends); splashd then stays its parent,
                            passes SIGTERM, SIGINT and SIGHUP on, and exits
                            with its status (128+signal if a signal ended it)
    --until-file PATH       after the hold, keep holding until PATH exists
                            (watched with inotify; its directories may appear
                            later)
    --until-reveal          after the hold, keep holding until `splashctl
                            reveal` (on the control socket)
    --timeout SECONDS       the longest --ready, --until-file or --until-reveal holds
                            the splash, counted from the first frame; 0 for no
                            limit [default: 30]

  Control socket (see splashctl --help):
    --control PATH          serve splashctl here [default: $RUNTIME_DIRECTORY/
                            control under systemd, /run/splashd/control with
                            --until-reveal, else none]
    --control-group NAME    let this group use the socket too (mode 0660)

  Display:
    --rotate DEGREES|auto   turn the content 0, 90, 180 or 270 degrees
                            clockwise on the display; for 90 and 270 the
                            picture is laid out on the display's size with
                            width and height swapped; auto: from the
                            [orientation] sources of the config file (an
                            evdev or IIO accelerometer, a rotation switch,
                            DRM panel orientation, the kernel command line),
                            0 when none answers [default: 0]
    --display MODE          window: a desktop window (X11 or Wayland), vsync;
                            kmsdrm: full screen on a DRM card through SDL's
                            KMSDRM driver (needs Mesa's EGL and GLES), vsync;
                            fbdev: a Linux framebuffer (--device), the VT in
                            graphics mode, the last frame left on the screen;
                            offscreen: render into memory, paced by --fps;
                            auto: window when DISPLAY or WAYLAND_DISPLAY is
                            set, else kmsdrm when a DRM card has a connected
                            connector, else fbdev when the device exists,
                            else offscreen; each that fails to open is
                            logged and the next is tried [default: auto]
    --device PATH           the DRM card for kmsdrm (/dev/dri/cardN) [default:
                            the first with a connected connector], or the
                            framebuffer for fbdev [default: /dev/fb0]
    --mode WxH[@HZ]         the KMS mode to set, one the connector offers
                            [default: its preferred mode]
    --size WxH              the display's size in pixels (the window's inner
                            size; kmsdrm and fbdev use their mode's)
                            [default: 1280x720]
    --fps N                 frame rate of offscreen rendering and recording
                            [default: 60]
    --record DIR            render offscreen as fast as possible and write
                            DIR/frame-00000.png, ... one frame every 1/fps
                            seconds from the first frame to the end of the
                            transition, plus DIR/frames.csv
                            (frame,time_s,phase,progress); the same command
                            always writes the same bytes

  Other:
    --config FILE           read settings from FILE [default:
                            /etc/splashd/splashd.conf when it exists]
    --check                 validate the settings and decode the pictures,
                            print the resolved settings, open no display
    --help                  print this help
    --version               print the version

  Options take their value as the next argument or after '=' (--hold=2).

  Config file: INI with a [splash] section whose keys are the long option
  names, and a [handoff] section with the program to run, e.g.

    [splash]
    image = door.png        ; relative to the config file's directory
    transition = crossfade
    background = #102030    ; comments: a line starting with ; or #,
                            ; or the rest of a line after " ;"
    [handoff]
    exec = /usr/bin/kiosk-app --fullscreen   ; words split at spaces
    ready = exec                             ; or notify (spawn mode)
    until-file = /run/kiosk/ready
    until-reveal = no
    timeout = 30

    [orientation]           ; for rotate = auto
    sources = evdev iio panel cmdline   ; in order, the first answer wins
    evdev = /dev/input/event3     ; default: the first INPUT_PROP_ACCELEROMETER
    switch = /dev/input/event5    ; a rotation switch or keys, mapped:
    switch-map = SW_TABLET_MODE=90, KEY_F13=180   ; the first one on wins
    settle = 0.2            ; seconds to wait for a first reading (at most 5)
    follow = yes            ; turn the held splash when the device turns
    iio = /sys/bus/iio/devices/iio:device0   ; default: the first accelerometer
    panel = /dev/dri/card0  ; its connectors' "panel orientation" property
    cmdline = /proc/cmdline ; video=...,rotate=N, panel_orientation=, fbcon=rotate:N
    mount-matrix = 0, -1, 0; -1, 0, 0; 0, 0, 1   ; overrides the device's

  Options on the command line override the file; a program after -- wins
  over exec.

  Exit status without a PROGRAM: 0 done; 1 runtime failure (such as no
  desktop for --display window); 2 bad usage, settings or files. With one:
  the PROGRAM's own, or 127 when it cannot be run.
  """
