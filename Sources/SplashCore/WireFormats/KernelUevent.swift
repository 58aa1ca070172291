// SPDX-License-Identifier: Apache-2.0

/// One message of the kernel's device events (a netlink uevent): a header
/// `ACTION@DEVPATH`, then `KEY=VALUE` fields, each ended by a NUL byte.
/// Anything else (udev's own messages, garbage) is refused.
public struct KernelUevent: Equatable, Sendable {
  /// add, remove, change, bind, …
  public var action: String
  /// The device's path under /sys, such as /devices/pci0000:00/…/drm/card0.
  public var devicePath: String
  /// The fields: SUBSYSTEM, DEVNAME, DEVTYPE, HOTPLUG, …
  public var fields: [String: String]

  /// The largest message the kernel sends (its UEVENT_BUFFER_SIZE).
  public static let maxLength = 2048

  public init?(_ bytes: [UInt8]) {
    guard bytes.count <= Self.maxLength, bytes.last == 0 else { return nil }
    let parts = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false)
    guard let header = parts.first, let at = header.firstIndex(of: UInt8(ascii: "@")) else { return nil }
    action = String(decoding: header[header.startIndex..<at], as: UTF8.self)
    devicePath = String(decoding: header[(at + 1)...], as: UTF8.self)
    guard !action.isEmpty, devicePath.hasPrefix("/") else { return nil }
    fields = [:]
    for part in parts.dropFirst() {
      guard let equals = part.firstIndex(of: UInt8(ascii: "=")), equals > part.startIndex else { return nil }
      fields[String(decoding: part[part.startIndex..<equals], as: UTF8.self)] = String(
        decoding: part[(equals + 1)...], as: UTF8.self)
    }
    // The header repeats what the fields say.
    guard fields["ACTION"] == action, fields["DEVPATH"] == devicePath else { return nil }
  }

  public var subsystem: String? { fields["SUBSYSTEM"] }

  /// The device node under /dev it is about ("dri/card0" → "/dev/dri/card0"), if any.
  public var deviceNode: String? {
    guard let name = fields["DEVNAME"], !name.isEmpty, !name.contains("..") else { return nil }
    return name.hasPrefix("/") ? name : "/dev/" + name
  }

  /// What a display back end cares about: a DRM card (not its connectors
  /// or render nodes) or a framebuffer appearing, going away or changing
  /// (a connector plugged or unplugged: HOTPLUG=1).
  public var display: DisplayDeviceEvent? {
    guard let node = deviceNode else { return nil }
    let change: DisplayDeviceEvent.Change
    switch action {
    case "add": change = .added
    case "remove": change = .removed
    case "change": change = .changed
    default: return nil
    }
    switch subsystem {
    case "drm" where fields["DEVTYPE"] == "drm_minor" && node.hasPrefix("/dev/dri/card"):
      return DisplayDeviceEvent(change: change, kind: .card, node: node)
    case "graphics" where node.hasPrefix("/dev/fb"):
      return DisplayDeviceEvent(change: change, kind: .framebuffer, node: node)
    default: return nil
    }
  }
}

/// A display device that appeared, went away or changed.
public struct DisplayDeviceEvent: Equatable, Sendable {
  public enum Change: String, Equatable, Sendable {
    case added, removed, changed
  }
  public enum Kind: String, Equatable, Sendable {
    case card, framebuffer
  }
  public var change: Change
  public var kind: Kind
  /// /dev/dri/cardN or /dev/fbN.
  public var node: String

  public init(change: Change, kind: Kind, node: String) {
    self.change = change
    self.kind = kind
    self.node = node
  }
}
