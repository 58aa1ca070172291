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
      descriptor = try FileDescriptor.open(path, O_RDONLY)
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
      let type = drmModeGetConnectorTypeName(connector.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
      let name = "\(type)-\(connector.pointee.connector_type_id)"
      if let value = enumProperty("panel orientation", of: connector.pointee.connector_id, on: descriptor) {
        return Answer(connector: name, value: value, rotation: panelOrientationRotation(value))
      }
      if first == nil { first = Answer(connector: name, value: nil, rotation: nil) }
    }
    guard let first else { throw DeviceError("\(path): no connected connector") }
    return first
  }

  /// The current value's name of the enum property `name` of a connector.
  private static func enumProperty(_ name: String, of connector: UInt32, on descriptor: FileDescriptor) -> String? {
    guard
      let properties = drmModeObjectGetProperties(descriptor.rawValue, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR))
    else { return nil }
    defer { drmModeFreeObjectProperties(properties) }
    for index in 0..<Int(properties.pointee.count_props) {
      guard let property = drmModeGetProperty(descriptor.rawValue, properties.pointee.props[index]) else { continue }
      defer { drmModeFreeProperty(property) }
      let propertyName = withUnsafeBytes(of: property.pointee.name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard propertyName == name else { continue }
      let value = properties.pointee.prop_values[index]
      for item in 0..<Int(property.pointee.count_enums) where property.pointee.enums[item].value == value {
        return withUnsafeBytes(of: property.pointee.enums[item].name) {
          String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
      }
    }
    return nil
  }
}
