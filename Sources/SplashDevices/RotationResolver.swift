import SplashCore
import SplashSystem

/// Where an angle came from, for the log and `--check`.
public struct ResolvedRotation {
  public let rotation: Rotation
  /// "iio /sys/bus/iio/devices/iio:device0 (right-up)", "kernel command line /proc/cmdline", …
  public let source: String
  /// Why each source consulted before it gave no answer.
  public let misses: [String]
  /// The device to follow while the splash holds: the one that answered,
  /// else the first that was opened.
  public var followed: FollowedDevice? = nil
}

/// An input device whose changes may turn a held splash.
public enum FollowedDevice {
  /// An accelerometer, with the orientation it last decided (nil: lying flat).
  case accelerometer(EvdevAccelerometer, Orientation?)
  /// A rotation switch or keys, with their map.
  case switches(InputDevice, SwitchMap)
}

extension InputDevice {
  /// The angle of the first entry of `map` that is on now.
  public func rotation(from map: SwitchMap) -> Rotation? {
    map.rotation { $0.isKey ? keyIsDown($0.code) : switchIsOn($0.code) }
  }
}

/// Resolves `rotate = auto`: the orientation sources in order, first answer wins.
public enum RotationResolver {
  /// `clock` paces the wait of up to `settings.settle` seconds for an evdev
  /// accelerometer's first reading.
  public static func resolve(_ settings: Settings, clock: MonotonicClock) -> ResolvedRotation {
    var misses: [String] = []
    var followed: FollowedDevice?
    func answer(_ rotation: Rotation, _ source: String, following device: FollowedDevice? = nil) -> ResolvedRotation {
      ResolvedRotation(rotation: rotation, source: source, misses: misses, followed: device ?? followed)
    }
    for source in settings.orientationSources {
      switch source {
      case .switch:
        guard let path = settings.switchDevice, let map = settings.switchMap else {
          misses.append("switch: [orientation] needs switch = DEVICE and switch-map = NAME=ANGLE, …")
          continue
        }
        do {
          let device = try InputDevice(path: path)
          if followed == nil { followed = .switches(device, map) }
          let name = "\(path) \"\(device.name)\""
          guard let rotation = device.rotation(from: map) else {
            misses.append("switch: \(name): none of \(map.entries.map(\.name).joined(separator: ", ")) is on")
            continue
          }
          return answer(rotation, "switch \(name)", following: .switches(device, map))
        } catch {
          misses.append("switch: \(error.message)")
        }
      case .evdev:
        guard let path = settings.evdev ?? EvdevAccelerometer.find() else {
          misses.append("evdev: no accelerometer (INPUT_PROP_ACCELEROMETER) under \(InputDevice.directory)")
          continue
        }
        do {
          let device = try EvdevAccelerometer(path: path, matrix: settings.mountMatrix)
          if followed == nil { followed = .accelerometer(device, nil) }
          let deadline = clock.now() + settings.settle
          while !device.hasReading, clock.sleep(until: deadline, wakingFor: [device.device.descriptor]) != nil {
            _ = try device.update()
          }
          let name = "\(path) (\(device.device.name))"
          guard device.hasReading else {
            misses.append("evdev: \(name) gave no reading within \(formatNumber(settings.settle)) s")
            continue
          }
          guard let orientation = OrientationRule.decide(device.reading, previous: nil) else {
            misses.append("evdev: \(name) lies flat or on a diagonal")
            continue
          }
          return answer(
            orientation.rotation, "evdev \(path) \"\(device.device.name)\" (\(orientation.rawValue))",
            following: .accelerometer(device, orientation))
        } catch {
          misses.append("evdev: \(error.message)")
        }
      case .panel:
        guard let card = settings.panel ?? DRMCards.firstConnected().map({ "/dev/dri/card\($0.card)" }) else {
          misses.append("panel: no DRM card with a connected connector")
          continue
        }
        do {
          let found = try PanelOrientation.read(card: card)
          guard let rotation = found.rotation, let value = found.value else {
            let value = found.value.map { " (\"\($0)\" is not an orientation)" } ?? ""
            misses.append("panel: \(card) \(found.connector) has no panel orientation\(value)")
            continue
          }
          return answer(rotation, "panel orientation of \(card) \(found.connector) (\(value))")
        } catch {
          misses.append("panel: \(error.message)")
        }
      case .cmdline:
        guard let text = try? Files.readText(settings.cmdline) else {
          misses.append("cmdline: cannot read \(settings.cmdline)")
          continue
        }
        if let rotation = kernelCommandLineRotation(text) {
          return answer(rotation, "kernel command line \(settings.cmdline)")
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
          return answer(orientation.rotation, "iio \(device.directory) (\(orientation.rawValue))")
        } catch {
          misses.append("iio: \(error.message)")
        }
      }
    }
    return answer(.none, "no orientation source answered")
  }
}
