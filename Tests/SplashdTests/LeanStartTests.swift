// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// What a plain start loads: splashd links a trimmed SDL, SDL2_ttf and
/// FreeType statically (tools/build/build-sdl.sh) and loads X11, Wayland, KMSDRM
/// and GL only when they are used (WindowTests opens the window under Xvfb,
/// BootPathTests SDL's KMSDRM under QEMU).
@Suite struct LeanStartTests {
  /// Where the toolchain's shared Swift runtime is (libswiftCore.so's folder).
  let swiftRuntimeFolder: String = {
    let core = mappedLibraries(of: getpid()).first { $0.hasSuffix("/libswiftCore.so") }
    return core.map { String($0.dropLast("libswiftCore.so".count)) } ?? "/nonexistent/"
  }()

  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  /// A running offscreen splash with a picture maps no GL, X11, Wayland,
  /// audio or shared SDL library, and at most 12 shared libraries in all.
  @Test func aPlainSplashMapsOnlyWhatItDrawsWith() throws {
    let picture = dir.solidPNG("red.png", width: 64, height: 48, rgb: (255, 0, 0))
    var libraries: [String] = []
    let (_, outcome) = try spawnSplashd(
      ["--display", "offscreen", "--size", "320x240", "--image", picture, "--hold", "30", "--duration", "0"], in: dir,
      whileRunning: { splash in
        guard splash.waitForLog("splashd: appeared") else { return }
        libraries = mappedLibraries(of: splash.pid)
        kill(splash.pid, SIGTERM)
      })
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(!libraries.isEmpty, "\(outcome.stderr)")
    #expect(libraries.filter(isUnusedOnAPlainStart).isEmpty, "\(libraries)")
    // The build under test maps the Swift runtime from the toolchain; the
    // release build links it statically (tools/release/check-release.sh counts that one).
    let own = libraries.filter { !$0.hasPrefix(swiftRuntimeFolder) }
    #expect(own.count <= 12, "\(own)")
    print("plain_start_mapped_libraries: \(own.count) (besides the Swift runtime)")
  }

  /// A message maps no library more: SDL2_ttf and FreeType are linked into
  /// splashd (tools/build/build-sdl.sh), not loaded from Debian's shared SDL2_ttf
  /// with its shared SDL2 and their ~60 libraries. The message is drawn
  /// (the reply comes once the frame that shows it is on the screen).
  @Test func aMessageMapsNoLibraryMore() throws {
    let picture = dir.solidPNG("red.png", width: 64, height: 48, rgb: (255, 0, 0))
    let control = dir.path + "/control"
    var before: [String] = []
    var after: [String] = []
    var reply: Outcome?
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "320x240", "--image", picture, "--hold", "30", "--duration", "0",
        "--control", control,
      ], in: dir,
      whileRunning: { splash in
        defer { kill(splash.pid, SIGTERM) }
        guard splash.waitForLog("splashd: appeared"), waitUntil(30, { FileManager.default.fileExists(atPath: control) })
        else { return }
        before = mappedLibraries(of: splash.pid)
        reply = try? run(splashctlPath, ["--control", control, "message", "Hello"], environment: [:])
        after = mappedLibraries(of: splash.pid)
      })
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(reply?.status == 0, "\(String(describing: reply))")
    #expect(!before.isEmpty, "\(outcome.stderr)")
    #expect(Set(after).subtracting(before).isEmpty, "mapped for the message: \(Set(after).subtracting(before))")
    let own = after.filter { !$0.hasPrefix(swiftRuntimeFolder) }
    #expect(own.count <= 12, "\(own)")
    print("message_mapped_libraries: \(own.count) (besides the Swift runtime)")
  }
}
