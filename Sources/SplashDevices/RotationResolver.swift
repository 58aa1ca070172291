// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSettings
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
  public var followed: AngleSource? = nil

  public init(rotation: Rotation, source: String, misses: [String], followed: AngleSource? = nil) {
    self.rotation = rotation
    self.source = source
    self.misses = misses
    self.followed = followed
  }
}

/// A device whose changes may turn a held splash, read when its descriptor
/// is readable.
public protocol AngleSource: AnyObject {
  var descriptor: FileDescriptor { get }
  /// The device, for messages.
  var path: String { get }
  /// What turns the splash, for the log ("the accelerometer").
  var cause: String { get }
  /// Reads what the device sent; returns the angle it now means, or nil
  /// when it means no new one (no change, a diagonal, lying flat, no switch
  /// of the map on). Throws when the device fails (unplugged, say).
  func read() throws(DeviceError) -> Rotation?
}

/// An evdev accelerometer, followed: each new orientation by the rule, the
/// previous one kept on diagonals and when lying flat.
public final class FollowedAccelerometer: AngleSource {
  public let accelerometer: EvdevAccelerometer
  private var orientation: Orientation?

  /// Follows `accelerometer`, whose last decided orientation is `orientation`.
  public init(_ accelerometer: EvdevAccelerometer, orientation: Orientation?) {
    self.accelerometer = accelerometer
    self.orientation = orientation
  }

  public var descriptor: FileDescriptor { accelerometer.device.descriptor }
  public var path: String { accelerometer.device.path }
  public var cause: String { "the accelerometer" }

  public func read() throws(DeviceError) -> Rotation? {
    guard try accelerometer.update(),
      let decided = OrientationRule.decide(accelerometer.reading, previous: orientation), decided != orientation
    else { return nil }
    orientation = decided
    return decided.rotation
  }
}

/// A rotation switch or keys, followed: the map's angle for the first entry on.
public final class FollowedSwitches: AngleSource {
  public let device: InputDevice
  public let map: SwitchMap

  public init(_ device: InputDevice, map: SwitchMap) {
    self.device = device
    self.map = map
  }

  public var descriptor: FileDescriptor { device.descriptor }
  public var path: String { device.path }
  public var cause: String { "the rotation switch" }

  public func read() throws(DeviceError) -> Rotation? {
    guard try !device.readEvents().isEmpty else { return nil }
    return device.rotation(from: map)
  }
}

extension InputDevice {
  /// The angle of the first entry of `map` that is on now.
  public func rotation(from map: SwitchMap) -> Rotation? {
    map.rotation { $0.isKey ? keyIsDown($0.code) : switchIsOn($0.code) }
  }
}

/// Resolves `rotate = auto`: the orientation sources in order, first answer wins.
public enum RotationResolver {
  /// Consults `settings`' sources in order; `clock` paces the wait of up
  /// to `settle` seconds for an evdev accelerometer's first reading.
  public static func resolve(_ settings: OrientationSettings, clock: EventClock) -> ResolvedRotation {
    var misses: [String] = []
    var followed: AngleSource?
    func answer(_ rotation: Rotation, _ source: String, following device: AngleSource? = nil) -> ResolvedRotation {
      ResolvedRotation(rotation: rotation, source: source, misses: misses, followed: device ?? followed)
    }
    for source in settings.sources {
      switch source {
      case .switch:
        guard let path = settings.switchDevice, let map = settings.switchMap else {
          misses.append("switch: [orientation] needs switch = DEVICE and switch-map = NAME=ANGLE, …")
          continue
        }
        do {
          let device = try InputDevice(path: path)
          if followed == nil { followed = FollowedSwitches(device, map: map) }
          let name = "\(path) \"\(device.name)\""
          guard let rotation = device.rotation(from: map) else {
            misses.append("switch: \(name): none of \(map.entries.map(\.name).joined(separator: ", ")) is on")
            continue
          }
          return answer(rotation, "switch \(name)", following: FollowedSwitches(device, map: map))
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
          if followed == nil { followed = FollowedAccelerometer(device, orientation: nil) }
          let deadline = clock.now() + settings.settle
          var polled = [pollfd(fd: device.device.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
          while !device.hasReading, clock.poll(&polled, until: deadline) {
            let hungUp = polled[0].revents & Int16(POLLHUP | POLLERR) != 0
            _ = try device.update()
            if hungUp { break }
            polled[0].revents = 0
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
            following: FollowedAccelerometer(device, orientation: orientation))
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
