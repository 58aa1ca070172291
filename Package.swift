// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "splashd",
  products: [
    .executable(name: "splashd", targets: ["splashd"]),
    .executable(name: "splashctl", targets: ["splashctl"]),
    .executable(name: "splashd-bench", targets: ["splashd-bench"]),
  ],
  targets: [
    // C libraries from Debian's -dev packages.
    .systemLibrary(
      name: "CSDL2", pkgConfig: "sdl2",
      providers: [.apt(["libsdl2-dev"])]),
    .systemLibrary(
      name: "CSDL2Image", pkgConfig: "SDL2_image",
      providers: [.apt(["libsdl2-image-dev"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
      name: "CInih", pkgConfig: "inih",
      providers: [.apt(["libinih-dev"])]),
    .systemLibrary(
      name: "CDRM", pkgConfig: "libdrm",
      providers: [.apt(["libdrm-dev"])]),

    // Pure core: no SDL, no I/O.
    .target(name: "SplashCore"),
    // Linux headers that Swift's Glibc module leaves out (signalfd, inotify).
    .target(name: "CLinux"),
    // Platform calls wrapped once: descriptors, errno, clocks, files, processes.
    .target(name: "SplashSystem", dependencies: ["SplashCore", "CLinux"]),
    // The INI config file, read with libinih, fed into the core's settings.
    .target(name: "SplashConfigFile", dependencies: ["CInih", "SplashCore", "SplashSystem"]),
    // Devices: orientation sources (evdev and IIO accelerometers, rotation
    // switches, DRM panel orientation, the kernel command line) and DRM
    // cards' connectors in sysfs.
    .target(name: "SplashDevices", dependencies: ["SplashCore", "SplashSystem", "CLinux", "CDRM"]),
    // SDL side: images, prepared assets, scene drawing, displays, PNG frames.
    .target(
      name: "SplashRender",
      dependencies: ["CSDL2", "CSDL2Image", "CPNG", "SplashCore", "SplashSystem"]),
    // The command: parse, resolve, play.
    .target(
      name: "SplashApp",
      dependencies: ["SplashCore", "SplashSystem", "SplashConfigFile", "SplashDevices", "SplashRender"]),
    .executableTarget(name: "splashd", dependencies: ["SplashApp"]),
    .executableTarget(name: "splashctl", dependencies: ["SplashCore", "SplashSystem"]),
    .executableTarget(
      name: "splashd-bench",
      dependencies: ["SplashCore", "SplashSystem", "SplashRender", "CSDL2", "CSDL2Image"]),

    .testTarget(name: "SplashCoreTests", dependencies: ["SplashCore"]),
    .testTarget(
      name: "SplashRenderTests", dependencies: ["SplashCore", "SplashRender", "SplashSystem", "CSDL2", "CSDL2Image"]),
    .testTarget(name: "SplashDevicesTests", dependencies: ["SplashCore", "SplashSystem", "SplashDevices"]),
    .testTarget(name: "SplashdTests", dependencies: ["SplashCore"]),
  ],
  swiftLanguageModes: [.v6]
)
