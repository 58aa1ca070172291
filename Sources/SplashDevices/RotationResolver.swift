import SplashCore
import SplashSystem

/// Where an angle came from, for the log and `--check`.
public struct ResolvedRotation: Equatable, Sendable {
  public let rotation: Rotation
  /// "iio /sys/bus/iio/devices/iio:device0 (right-up)", "kernel command line /proc/cmdline", …
  public let source: String
  /// Why each source consulted before it gave no answer.
  public let misses: [String]
}

/// Resolves `rotate = auto`: the orientation sources in order, first answer wins.
public enum RotationResolver {
  public static func resolve(_ settings: Settings) -> ResolvedRotation {
    var misses: [String] = []
    for source in settings.orientationSources {
      switch source {
      case .cmdline:
        guard let text = try? Files.readText(settings.cmdline) else {
          misses.append("cmdline: cannot read \(settings.cmdline)")
          continue
        }
        if let rotation = kernelCommandLineRotation(text) {
          return ResolvedRotation(rotation: rotation, source: "kernel command line \(settings.cmdline)", misses: misses)
        }
        misses.append("cmdline: no rotation in \(settings.cmdline)")
      case .iio:
        guard let device = settings.iio.map(IIOAccelerometer.init(directory:)) ?? IIOAccelerometer.find() else {
          misses.append("iio: no accelerometer under \(IIOAccelerometer.devicesDirectory)")
          continue
        }
        do {
          let reading = try device.reading(matrix: settings.mountMatrix)
          guard let orientation = OrientationRule.decide(reading, previous: nil) else {
            misses.append("iio: \(device.directory) lies flat or on a diagonal")
            continue
          }
          return ResolvedRotation(
            rotation: orientation.rotation, source: "iio \(device.directory) (\(orientation.rawValue))", misses: misses)
        } catch {
          misses.append("iio: \(error.message)")
        }
      }
    }
    return ResolvedRotation(rotation: .none, source: "no orientation source answered", misses: misses)
  }
}
