// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The splashd binary built beside this test bundle.
public let splashdPath: String = {
  let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  return directory.appendingPathComponent("splashd").path
}()

/// The folder of the binaries a boot test installs: the release build when
/// `make build` made one (what ships, and what the figures measure), else
/// this bundle's own.
public let installedBuildDirectory: String = {
  let release = packageRoot + "/.build/release"
  return FileManager.default.isExecutableFile(atPath: release + "/splashd")
    ? release : URL(fileURLWithPath: splashdPath).deletingLastPathComponent().path
}()

/// splashctl, built beside splashd.
public let splashctlPath = URL(fileURLWithPath: splashdPath).deletingLastPathComponent().appendingPathComponent(
  "splashctl"
)
.path

/// Whether the shared library at `path` is one a splash that draws a picture
/// on fbdev, KMS or offscreen must not map: a GL stack (EGL, GL, GBM, a Mesa
/// driver), X11, Wayland, audio, or a shared SDL (splashd links a trimmed
/// SDL statically and loads the rest when first used).
public func isUnusedOnAPlainStart(_ path: String) -> Bool {
  let name = path.split(separator: "/").last.map(String.init) ?? path
  let unused = [
    "libEGL", "libGL", "libgbm", "_dri.so", "libglapi", "libX", "libxcb", "libwayland", "libdecor", "libpulse",
    "libasound", "libpipewire", "libsndfile", "libSDL2",
  ]
  return unused.contains { name.contains($0) }
}
