// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// An accelerometer under /sys/bus/iio/devices: raw axis values, their
/// scale (per axis, or shared) and the mount matrix the kernel reports.
public struct IIOAccelerometer: Sendable {
  public let directory: String

  public init(directory: String) { self.directory = directory }

  /// Where IIO devices appear.
  public static let devicesDirectory = "/sys/bus/iio/devices"

  /// The first device under `root` (by name) that has `in_accel_x_raw`.
  public static func find(under root: String = devicesDirectory) -> IIOAccelerometer? {
    let names = (try? Files.entries(of: root)) ?? []
    return names.sorted().lazy.map { root + "/" + $0 }.first { Files.exists($0 + "/in_accel_x_raw") }
      .map(IIOAccelerometer.init(directory:))
  }

  /// One reading, normalised for the orientation rule (1 g = 256), with
  /// `matrix` (when given) in place of the device's own mount matrix.
  public func reading(matrix override: MountMatrix?) throws(DeviceError) -> (Double, Double, Double) {
    let raw = (try number("in_accel_x_raw"), try number("in_accel_y_raw"), try number("in_accel_z_raw"))
    let scale: (Double, Double, Double)
    if let x = try? number("in_accel_x_scale"), let y = try? number("in_accel_y_scale"),
      let z = try? number("in_accel_z_scale")
    {
      scale = (x, y, z)
    } else {
      let shared = (try? number("in_accel_scale")) ?? (try? number("scale")) ?? 1
      scale = (shared, shared, shared)
    }
    var matrix = MountMatrix.identity
    if let override { matrix = override } else { matrix = try mountMatrix() }
    return OrientationRule.normalise(raw: raw, scale: scale, matrix: matrix)
  }

  /// The device's mount matrix: udev's ACCEL_MOUNT_MATRIX (hwdb), else
  /// sysfs's, else identity.
  func mountMatrix() throws(DeviceError) -> MountMatrix {
    let name = directory.split(separator: "/").last.map(String.init) ?? directory
    if let text = UdevDatabase.property("ACCEL_MOUNT_MATRIX", of: "+iio:" + name) {
      guard let matrix = MountMatrix(text) else {
        throw DeviceError("\(directory): udev's ACCEL_MOUNT_MATRIX is not a mount matrix: \"\(text)\"")
      }
      return matrix
    }
    for name in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"] {
      guard let text = try? Files.readText(directory + "/" + name) else { continue }
      guard let matrix = MountMatrix(trimmingBlanks(text)) else {
        throw DeviceError("\(directory)/\(name): not a mount matrix: \"\(trimmingBlanks(text))\"")
      }
      return matrix
    }
    return .identity
  }

  private func number(_ name: String) throws(DeviceError) -> Double {
    let path = directory + "/" + name
    let text: String
    do {
      text = try Files.readText(path)
    } catch {
      throw DeviceError("\(path): \(error.phrase)")
    }
    guard let value = Double(trimmingBlanks(text)), value.isFinite else {
      throw DeviceError("\(path): not a number: \"\(trimmingBlanks(text))\"")
    }
    return value
  }
}

/// A device that could not be read; `message` names it and says why.
public struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
