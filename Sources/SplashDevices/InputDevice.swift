// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashCore
import SplashSystem

/// An evdev input device (/dev/input/eventN), open for reading without
/// blocking: its capabilities and state by ioctl, its events as they come.
public final class InputDevice {
  public let path: String
  public let descriptor: FileDescriptor
  private var decoder = InputEventDecoder()

  /// Where evdev devices appear.
  public static let directory = "/dev/input"

  /// Opens the evdev device at `path`; anything that does not answer
  /// EVIOCGVERSION is refused as "not an evdev input device".
  public init(path: String) throws(DeviceError) {
    self.path = path
    do {
      descriptor = try FileDescriptor.openDevice(path, O_RDONLY | O_NONBLOCK, kind: "an evdev input device")
    } catch {
      throw DeviceError("\(path): \(error.phrase)")
    }
    var version: Int32 = 0
    guard (try? descriptor.control(splashd_eviocgversion(), &version, call: "EVIOCGVERSION")) != nil else {
      try? descriptor.close()
      throw DeviceError("\(path): not an evdev input device")
    }
  }

  deinit { try? descriptor.close() }

  /// The eventN devices under `directory`, by number.
  public static func all(under directory: String = directory) -> [String] {
    let names = ((try? Files.entries(of: directory)) ?? []).filter { $0.hasPrefix("event") }
    return names.compactMap { name in Int(name.dropFirst(5)).map { ($0, directory + "/" + name) } }.sorted {
      $0.0 < $1.0
    }
    .map(\.1)
  }

  /// The device's name, as its driver gives it.
  public var name: String {
    guard let bytes = try? descriptor.control(splashd_eviocgname(256), filling: 256, call: "EVIOCGNAME") else {
      return "?"
    }
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// Bit `bit` of the bitmap an EVIOCG… request fills.
  private func bit(_ bit: Int, of request: (UInt32) -> UInt) -> Bool {
    guard let bytes = try? descriptor.control(request(96), filling: 96, call: "EVIOCG…"), bit / 8 < bytes.count else {
      return false
    }
    return bytes[bit / 8] & (1 << UInt8(bit % 8)) != 0
  }

  /// Whether the device has input property `property` (INPUT_PROP_…).
  public func hasProperty(_ property: Int) -> Bool { bit(property, of: splashd_eviocgprop) }

  /// Whether the device can send events of `type` with `code`.
  public func supports(type: UInt16, code: UInt16) -> Bool {
    bit(Int(code)) { splashd_eviocgbit(UInt32(type), $0) }
  }

  /// Whether switch `code` (SW_…) is on now.
  public func switchIsOn(_ code: UInt16) -> Bool { bit(Int(code), of: splashd_eviocgsw) }

  /// Whether key `code` (KEY_…) is down now.
  public func keyIsDown(_ code: UInt16) -> Bool { bit(Int(code), of: splashd_eviocgkey) }

  /// An absolute axis's current value and units (EVIOCGABS).
  public func axis(_ code: UInt16) throws(DeviceError) -> input_absinfo {
    var info = input_absinfo()
    do {
      try descriptor.control(splashd_eviocgabs(UInt32(code)), &info, call: "EVIOCGABS")
    } catch {
      throw DeviceError("\(path): EVIOCGABS axis \(code): \(error.phrase)")
    }
    return info
  }

  /// The events waiting to be read (none when nothing is); throws when
  /// the device is gone or cannot be read.
  public func readEvents() throws(DeviceError) -> [InputEvent] {
    var events: [InputEvent] = []
    while true {
      switch descriptor.readAvailable(limit: InputEvent.size * 64) {
      case .bytes(let bytes): events += decoder.decode(bytes)
      case .wouldBlock, .closed: return events
      case .failed(let error): throw DeviceError("\(path): \(error.phrase)")
      }
    }
  }

  /// The udev property `name` of this device, from udev's database.
  public func udevProperty(_ name: String) -> String? {
    guard let number = try? descriptor.status().st_rdev else { return nil }
    // The device number's major and minor parts, as gnu_dev_major/minor split them.
    let major = (number >> 8) & 0xFFF | (number >> 32) & ~0xFFF
    let minor = number & 0xFF | (number >> 12) & ~0xFF
    return UdevDatabase.property(name, of: "c\(major):\(minor)")
  }
}

/// Properties udev recorded for devices (/run/udev/data/ID, "E:NAME=VALUE" lines).
public enum UdevDatabase {
  public static let directory = "/run/udev/data"

  /// Property `name` of the device whose database entry is `id` ("c13:66", "+iio:iio:device0").
  public static func property(_ name: String, of id: String, under directory: String = directory) -> String? {
    guard let text = try? Files.readText(directory + "/" + id) else { return nil }
    let prefix = "E:" + name + "="
    return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }
}
