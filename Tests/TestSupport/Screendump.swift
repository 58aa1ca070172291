// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A screendump in binary PPM (P6) form, as QEMU writes it.
public struct Screendump {
  public var width: Int
  public var height: Int
  public var bytes: [UInt8]
  public var start: Int

  public init?(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    bytes = [UInt8](data)
    // "P6\n<width> <height>\n<maxval>\n" then RGB triplets.
    var fields: [Int] = []
    var index = 2
    while fields.count < 3 && index < bytes.count {
      while index < bytes.count && (bytes[index] == 10 || bytes[index] == 32) { index += 1 }
      var number = 0
      while index < bytes.count && bytes[index] >= 48 && bytes[index] <= 57 {
        number = number * 10 + Int(bytes[index] - 48)
        index += 1
      }
      fields.append(number)
    }
    guard bytes.starts(with: [80, 54]), fields.count == 3 else { return nil }
    width = fields[0]
    height = fields[1]
    start = index + 1
  }

  public func at(_ x: Int, _ y: Int) -> UInt32 {
    let i = start + (y * width + x) * 3
    return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
  }

  /// Where the QEMU tests leave their screendumps, as PNG, for people to look at.
  public static let folder = packageRoot + "/.build/systest"

  /// Writes this screendump as `folder/NAME.png`.
  public func keep(as name: String) {
    try? FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
    let png = makePNG(width: width, height: height) { x, y in
      let i = start + (y * width + x) * 3
      return (bytes[i], bytes[i + 1], bytes[i + 2])
    }
    writeFile(atPath: Self.folder + "/" + name + ".png", contents: png)
  }
}
