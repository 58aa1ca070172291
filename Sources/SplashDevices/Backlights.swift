// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem

/// The machine's backlights (/sys/class/backlight/*, a panel's own light):
/// turned down to 0 before the display is switched off, so that a panel
/// whose light does not follow the display's power is dark too, and put
/// back to the brightness each had once it is on again, or when splashd
/// crashes meanwhile (`CrashHandOff.write`: a kiosk is never left dark).
public final class Backlights {
  /// Where the kernel lists them (a test's own folder in tests).
  private let folder: String
  /// Whether a crash puts the brightness back (splashd's own crash handler;
  /// not in a test's process).
  private let putBackOnCrash: Bool
  /// Each one turned down: its brightness file, kept open for the crash
  /// handler, and the brightness it had.
  private var kept: [(light: String, file: FileDescriptor, brightness: String)] = []

  public init(folder: String = "/sys/class/backlight", putBackOnCrash: Bool) {
    self.folder = folder
    self.putBackOnCrash = putBackOnCrash
  }

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
        let file = try FileDescriptor.open(light + "/brightness", O_WRONLY | O_TRUNC | O_CLOEXEC)
        // A crash from now on puts it back, even one while it turns down.
        if putBackOnCrash { CrashHandOff.write(brightness, to: file.rawValue) }
        do throws(SystemError) {
          try file.writeAll("0")
        } catch {
          if putBackOnCrash { CrashHandOff.stopWriting(to: file.rawValue) }
          try? file.close()
          throw error
        }
        kept.append((light, file, brightness))
      } catch {
        failed.append("\(light): cannot turn it down: \(error.phrase)")
      }
    }
    return failed
  }

  /// Puts back the brightness each had; returns what could not be done.
  public func restore() -> [String] {
    var failed: [String] = []
    for (light, file, brightness) in kept {
      do throws(SystemError) {
        try Files.write(brightness, to: light + "/brightness")
      } catch {
        failed.append("\(light): cannot put its brightness back: \(error.phrase)")
      }
      // Kept for a crash until it is back.
      if putBackOnCrash { CrashHandOff.stopWriting(to: file.rawValue) }
      try? file.close()
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
