// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
  name: "splashd",
  products: [
    .executable(name: "splashd", targets: ["splashd"]),
    .executable(name: "splashctl", targets: ["splashctl"]),
    .executable(name: "splashd-bench", targets: ["splashd-bench"]),
    .executable(name: "splashd-fuzz", targets: ["splashd-fuzz"]),
    .executable(name: "splashd-docs", targets: ["splashd-docs"]),
  ],
  targets: [
    // C libraries from Debian's -dev packages. SDL2, SDL2_image and SDL2_ttf
    // (with FreeType) are the trimmed static builds of tools/build/build-sdl.sh,
    // found through the pkg-config files it writes (make points
    // PKG_CONFIG_PATH at them).
    .systemLibrary(name: "CSDL2", pkgConfig: "splashd-sdl2"),
    .systemLibrary(name: "CSDL2Image", pkgConfig: "splashd-sdl2-image"),
    .systemLibrary(name: "CSDL2TTF", pkgConfig: "splashd-sdl2-ttf"),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
      name: "CInih", pkgConfig: "inih",
      providers: [.apt(["libinih-dev"])]),
    .systemLibrary(
      name: "CDRM", pkgConfig: "libdrm",
      providers: [.apt(["libdrm-dev"])]),

    // Pure core: no SDL, no I/O: playback, geometry, orientation, the wire formats.
    .target(name: "SplashCore"),
    // The settings, declared once in a table: the config file's and the
    // command line's model and parsers, --help and the synopsis.
    .target(name: "SplashSettings", dependencies: ["SplashCore"]),
    // The manual pages and the shell completions, made from the settings table.
    .target(name: "SplashManual", dependencies: ["SplashCore", "SplashSettings"]),
    // Linux headers that Swift's Glibc module leaves out (signalfd, inotify).
    .target(name: "CLinux"),
    // The display-server connection behind an SDL window (X11, Wayland).
    .target(name: "CSDLWindow", dependencies: ["CSDL2"]),
    .target(name: "CTTF", dependencies: ["CSDL2", "CSDL2TTF"]),
    .target(name: "CSystemdProgress"),
    // Host mode: the table of the Wayland host's functions and its loader
    // (dlopen), beside the host in wayland-host/loader. The host itself, a
    // compositor on wlroots, is a shared object of its own (wayland-host/,
    // built by make: libsplashd-wayland-host.so beside the binaries), loaded
    // only in host mode: a plain splash never maps wlroots.
    .target(name: "CWaylandHostLoader", path: "wayland-host/loader"),
    // Platform calls wrapped once: descriptors, errno, clocks, files, processes.
    .target(name: "SplashSystem", dependencies: ["SplashCore", "CLinux"]),
    // Host mode's compositor as splashd drives it (`WaylandHosting`, over
    // libsplashd-wayland-host.so, loaded when used), and what only host mode
    // needs of the system: the display's socket, the console's keyboard off.
    .target(
      name: "SplashWaylandHost", dependencies: ["CWaylandHostLoader", "CLinux", "SplashCore", "SplashSystem"]),
    // The INI config file, read with libinih, fed into the core's settings.
    .target(name: "SplashConfigFile", dependencies: ["CInih", "SplashCore", "SplashSettings", "SplashSystem"]),
    // Devices: orientation sources (evdev and IIO accelerometers, rotation
    // switches, DRM panel orientation, the kernel command line) and DRM
    // cards' connectors in sysfs.
    .target(name: "SplashDevices", dependencies: ["SplashCore", "SplashSettings", "SplashSystem", "CLinux", "CDRM"]),
    // SDL side: images, prepared assets, scene drawing, the outputs (display
    // back ends), PNG frames.
    .target(
      name: "SplashRender",
      dependencies: [
        "CSDL2", "CSDL2Image", "CPNG", "CSDLWindow", "CTTF", "SplashCore", "SplashSettings", "SplashSystem",
        "SplashDevices",
      ]),
    // The command: the plan, the session (run loop, controller, event
    // sources), play, hand off.
    .target(
      name: "SplashApp",
      dependencies: [
        "SplashCore", "SplashSettings", "SplashSystem", "SplashConfigFile", "SplashDevices", "SplashRender",
        "SplashWaylandHost", "CSystemdProgress",
      ]),
    .executableTarget(name: "splashd", dependencies: ["SplashApp"]),
    .executableTarget(name: "splashctl", dependencies: ["SplashCore", "SplashSystem"]),
    // libFuzzer's driver (linked by `make fuzz` only) and the fuzz targets.
    .target(name: "CFuzzer"),
    .executableTarget(
      name: "splashd-fuzz",
      dependencies: ["CFuzzer", "SplashCore", "SplashSettings", "SplashConfigFile", "SplashRender"]),
    // The manual pages and completions, made from the settings table.
    .executableTarget(
      name: "splashd-docs", dependencies: ["SplashApp", "SplashCore", "SplashManual", "SplashSystem"]),
    .executableTarget(
      name: "splashd-bench",
      dependencies: ["SplashCore", "SplashSettings", "SplashSystem", "SplashRender", "CSDL2", "CSDL2Image"]),

    // What the test targets share: scratch folders, a PNG writer, a process
    // runner, the binaries built beside the tests, QEMU's screendumps.
    .target(name: "SplashTestSupport", dependencies: ["CSDL2", "CLinux"], path: "Tests/TestSupport"),
    // One test target a module, in process (`make check`).
    .testTarget(name: "SplashCoreTests", dependencies: ["SplashCore"]),
    .testTarget(name: "SplashSettingsTests", dependencies: ["SplashCore", "SplashSettings"]),
    .testTarget(
      name: "SplashManualTests", dependencies: ["SplashCore", "SplashSettings", "SplashManual", "SplashTestSupport"]),
    .testTarget(
      name: "SplashSystemTests", dependencies: ["CLinux", "SplashCore", "SplashSystem", "SplashTestSupport"]),
    .testTarget(
      name: "SplashConfigFileTests",
      dependencies: ["SplashConfigFile", "SplashCore", "SplashSettings", "SplashTestSupport"]),
    .testTarget(
      name: "SplashDevicesTests",
      dependencies: ["CLinux", "SplashCore", "SplashSettings", "SplashSystem", "SplashDevices", "SplashTestSupport"]),
    .testTarget(
      name: "SplashRenderTests",
      dependencies: [
        "SplashCore", "SplashSettings", "SplashRender", "SplashSystem", "SplashTestSupport", "CSDL2", "CSDL2Image",
      ]),
    // The app in process: sessions on a test clock, with stand-in outputs,
    // fake DRM cards and a stand-in compositor.
    .testTarget(
      name: "SplashAppTests",
      dependencies: [
        "SplashApp", "SplashCore", "SplashSettings", "SplashConfigFile", "SplashDevices", "SplashRender",
        "SplashSystem", "SplashWaylandHost", "SplashTestSupport", "CLinux",
      ]),
    // Host mode's compositor with real Wayland programs (weston's clients,
    // foot), and what only host mode uses of the system.
    .testTarget(
      name: "SplashWaylandHostTests",
      dependencies: ["CLinux", "SplashCore", "SplashSystem", "SplashWaylandHost", "SplashTestSupport"]),
    // The real binaries, black-box: exec, signals, splashctl, windows under
    // Xvfb, host mode with real programs, hostile inputs (`make test`).
    .testTarget(
      name: "SplashdTests", dependencies: ["SplashCore", "SplashSettings", "SplashSystem", "SplashTestSupport"]),
    // The QEMU boots (`make systest`) and the figures measured in them
    // (`make figures`): a real kernel, one boot at a time.
    .testTarget(name: "SplashBootTests", dependencies: ["SplashTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
