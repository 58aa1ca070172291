// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashCore
import SplashSystem

/// An accelerometer that is an evdev device: ABS_X, ABS_Y and ABS_Z with
/// the INPUT_PROP_ACCELEROMETER property. Seeded with the axes' current
/// values (EVIOCGABS), then kept up to date from its events.
public final class EvdevAccelerometer {
  public let device: InputDevice
  /// Maps the sensor's axes onto the display's.
  public let matrix: MountMatrix
  /// Units per g of each axis (absinfo.resolution), 0 when not given.
  private let unitsPerG: (Double, Double, Double)
  private var events: AccelerometerEvents

  /// INPUT_PROP_ACCELEROMETER.
  public static let property = 0x06

  /// Opens the accelerometer at `path`; `matrix` (when given) overrides
  /// the device's own mount matrix (udev's ACCEL_MOUNT_MATRIX).
  public init(path: String, matrix override: MountMatrix?) throws(DeviceError) {
    let device = try InputDevice(path: path)
    guard InputEvent.axes.allSatisfy({ device.supports(type: InputEvent.absolute, code: $0) }) else {
      throw DeviceError("\(path) (\(device.name)): not an accelerometer (no ABS_X, ABS_Y and ABS_Z)")
    }
    self.device = device
    var infos: [input_absinfo] = []
    for axis in InputEvent.axes { infos.append(try device.axis(axis)) }
    unitsPerG = (Double(infos[0].resolution), Double(infos[1].resolution), Double(infos[2].resolution))
    events = AccelerometerEvents(seed: infos.map(\.value))
    if let override {
      matrix = override
    } else if let text = device.udevProperty("ACCEL_MOUNT_MATRIX") {
      guard let parsed = MountMatrix(text) else {
        throw DeviceError("\(path): udev's ACCEL_MOUNT_MATRIX is not a mount matrix: \"\(text)\"")
      }
      matrix = parsed
    } else {
      matrix = .identity
    }
  }

  /// The first evdev device under `directory` with INPUT_PROP_ACCELEROMETER.
  public static func find(under directory: String = InputDevice.directory) -> String? {
    InputDevice.all(under: directory).first { path in
      (try? InputDevice(path: path))?.hasProperty(property) == true
    }
  }

  /// The latest reading, normalised for the orientation rule (1 g = 256).
  public var reading: (Double, Double, Double) {
    let axes = events.axes.map(Double.init)
    return OrientationRule.normalise(raw: (axes[0], axes[1], axes[2]), unitsPerG: unitsPerG, matrix: matrix)
  }

  /// Whether any axis has reported anything but 0 (a sensor that has not
  /// sampled yet reads 0, 0, 0).
  public var hasReading: Bool { events.axes.contains { $0 != 0 } }

  /// Reads the events waiting; true when they committed a new reading
  /// (after lost events, the axes are asked for again).
  public func update() throws(DeviceError) -> Bool {
    var changed = false
    for event in try device.readEvents() {
      switch events.apply(event) {
      case .pending: break
      case .committed: changed = true
      case .needsResync:
        var values: [Int32] = []
        for axis in InputEvent.axes { values.append(try device.axis(axis).value) }
        events.reseed(values)
        changed = true
      }
    }
    return changed
  }
}
