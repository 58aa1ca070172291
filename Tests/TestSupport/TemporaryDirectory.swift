// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A scratch directory with a few files the tests share, removed with its
/// contents when released.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("splashd-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: emptyConfig, contents: Data())
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// An empty config file, so that a machine's own /etc/splashd/splashd.conf
  /// cannot change a test's outcome.
  public var emptyConfig: String { path + "/empty.conf" }

  /// Writes `contents` to `name` in the directory; returns its path.
  @discardableResult
  public func file(_ name: String, _ contents: String) -> String {
    file(name, Data(contents.utf8))
  }

  @discardableResult
  public func file(_ name: String, _ data: Data) -> String {
    let p = path + "/" + name
    FileManager.default.createFile(atPath: p, contents: data)
    return p
  }

  /// A PNG of one colour (see `makePNG`).
  @discardableResult
  public func solidPNG(_ name: String, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> String {
    file(name, makePNG(width: width, height: height) { _, _ in rgb })
  }
}
