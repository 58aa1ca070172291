// SPDX-License-Identifier: Apache-2.0
import SplashSystem

/// The machine's backlights (/sys/class/backlight/*, a panel's own light):
/// turned down to 0 before the display is switched off, so that a panel
/// whose light does not follow the display's power is dark too, and put
/// back to the brightness each had once it is on again.
public final class Backlights {
  /// Where the kernel lists them (a test's own folder in tests).
  private let folder: String
  /// The brightness each had when turned down, by its folder.
  private var kept: [(folder: String, brightness: String)] = []

  public init(folder: String = "/sys/class/backlight") { self.folder = folder }

  /// Whether they are turned down now.
  public var areDown: Bool { !kept.isEmpty }

  /// Turns each backlight there is to 0, keeping its brightness; returns
  /// what could not be done, one line each (a machine without any is none).
  public func turnDown() -> [String] {
    guard kept.isEmpty else { return [] }
    var failed: [String] = []
    for name in ((try? Files.entries(of: folder)) ?? []).sorted() {
      let light = folder + "/" + name
      do throws(SystemError) {
        let brightness = try Files.readText(light + "/brightness").trimmingNewlines
        try Files.write("0", to: light + "/brightness")
        kept.append((light, brightness))
      } catch {
        failed.append("\(light): cannot turn it down: \(error.phrase)")
      }
    }
    return failed
  }

  /// Puts back the brightness each had; returns what could not be done.
  public func restore() -> [String] {
    var failed: [String] = []
    for (light, brightness) in kept {
      do throws(SystemError) {
        try Files.write(brightness, to: light + "/brightness")
      } catch {
        failed.append("\(light): cannot put its brightness back: \(error.phrase)")
      }
    }
    kept = []
    return failed
  }
}

extension String {
  /// Without the newlines at its end (a sysfs attribute's).
  fileprivate var trimmingNewlines: String {
    var text = Substring(self)
    while text.last == "\n" { text = text.dropLast() }
    return String(text)
  }
}
