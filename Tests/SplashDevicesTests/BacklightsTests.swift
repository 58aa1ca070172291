// SPDX-License-Identifier: Apache-2.0
import SplashDevices
import SplashSystem
import SplashTestSupport
import Testing

/// The backlights turned down before the screen goes off and put back, on
/// a folder laid out as /sys/class/backlight is.
@Suite struct BacklightsTests {
  @Test func turnedDownThenPutBackAsEachWas() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path + "/class"
    for (name, level) in [("intel_backlight", "937"), ("panel", "12")] {
      try Files.makeDirectories(folder + "/" + name)
      try Files.write(level + "\n", to: folder + "/\(name)/brightness")
    }
    let lights = Backlights(folder: folder, putBackOnCrash: false)
    #expect(lights.turnDown() == [] && lights.areDown)
    #expect(try Files.readText(folder + "/intel_backlight/brightness") == "0")
    #expect(try Files.readText(folder + "/panel/brightness") == "0")
    // Twice down keeps the first brightness.
    #expect(lights.turnDown() == [])
    #expect(lights.restore() == [] && !lights.areDown)
    #expect(try Files.readText(folder + "/intel_backlight/brightness") == "937")
    #expect(try Files.readText(folder + "/panel/brightness") == "12")
  }

  /// One that cannot be read is said, the others still turned down; a
  /// machine without a folder has none.
  @Test func oneThatCannotBeTurnedDownIsSaid() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path + "/class"
    try Files.makeDirectories(folder + "/broken")
    try Files.makeDirectories(folder + "/panel")
    try Files.write("5", to: folder + "/panel/brightness")
    let lights = Backlights(folder: folder, putBackOnCrash: false)
    let failed = lights.turnDown()
    #expect(failed.count == 1 && failed[0].hasPrefix(folder + "/broken: cannot turn it down: "), "\(failed)")
    #expect(try Files.readText(folder + "/panel/brightness") == "0")
    #expect(Backlights(folder: folder + "/none", putBackOnCrash: false).turnDown() == [])
  }
}
