// SPDX-License-Identifier: Apache-2.0
import CDRM
import Glibc
import SplashCore
import SplashSystem

/// The "panel orientation" property of a DRM card's connected connectors
/// (libdrm): how the panel is mounted, as the kernel knows it from quirks,
/// the device tree or `video=…:panel_orientation=`.
public enum PanelOrientation {
  /// What the card says: the first connected connector's name and, when it
  /// has the property, the turn that shows content upright on it.
  public struct Answer: Equatable, Sendable {
    /// The connector's name, such as "eDP-1".
    public var connector: String
    /// The property's value ("Left Side Up"), nil when it has none.
    public var value: String?
    /// The turn for that value, nil when there is none or it is unknown.
    public var rotation: Rotation?
  }

  /// Reads the property from the connected connectors of `card`
  /// (/dev/dri/cardN); the first connector that has it answers, else the
  /// first connected one, without a rotation.
  public static func read(card path: String) throws(DeviceError) -> Answer {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.openDevice(path, O_RDONLY)
    } catch {
      throw DeviceError("\(path): \(error.phrase)")
    }
    defer { try? descriptor.close() }
    guard let resources = drmModeGetResources(descriptor.rawValue) else {
      throw DeviceError("\(path): not a KMS device (\(SystemError("", code: errno).phrase))")
    }
    defer { drmModeFreeResources(resources) }
    var first: Answer?
    for index in 0..<Int(resources.pointee.count_connectors) {
      guard let connector = drmModeGetConnector(descriptor.rawValue, resources.pointee.connectors[index]) else {
        continue
      }
      defer { drmModeFreeConnector(connector) }
      guard connector.pointee.connection == DRM_MODE_CONNECTED else { continue }
      let name = DRMDevice.connectorName(
        type: connector.pointee.connector_type, number: connector.pointee.connector_type_id)
      if let value = orientation(ofConnector: connector.pointee.connector_id, on: descriptor.rawValue) {
        return Answer(connector: name, value: value, rotation: panelOrientationRotation(value))
      }
      if first == nil { first = Answer(connector: name, value: nil, rotation: nil) }
    }
    guard let first else { throw DeviceError("\(path): no connected connector") }
    return first
  }

  /// The "panel orientation" property's value of connector `id`, if it has one.
  public static func orientation(ofConnector id: UInt32, on fd: Int32) -> String? {
    DRMDevice.enumProperty("panel orientation", of: id, kind: UInt32(DRM_MODE_OBJECT_CONNECTOR), on: fd)
  }
}
