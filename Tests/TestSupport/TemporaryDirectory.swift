// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A scratch directory with a few files the tests share, removed with its
/// contents when released.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("splashd-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let config =
      "[splash]\ncache = \(cache)\n[handoff]\nprompt-tty = /dev/null\nplymouth-pid-file = \(plymouthPIDFile)\n"
    guard FileManager.default.createFile(atPath: testConfig, contents: Data(config.utf8)) else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A config file that sets only the cache folder (`cache`), so that
  /// neither a machine's own /etc/splashd/splashd.conf nor its
  /// /var/cache/splashd can change a test's outcome, and a test leaves no
  /// prepared pictures behind; and the terminal a question is answered on
  /// (`prompt-tty`) to /dev/null, which is none, so that no test reads or
  /// changes the machine's console; and where splashd names itself as
  /// plymouthd (`plymouth-pid-file`) to a file in the directory, so that no
  /// test writes the machine's /run/plymouth/pid.
  public var testConfig: String { path + "/test.conf" }

  /// Where the test's splashd names itself as plymouthd.
  public var plymouthPIDFile: String { path + "/plymouth/pid" }

  /// The prepared-picture cache of the test's splashd runs.
  public var cache: String { path + "/cache" }

  /// Writes `contents` to `name` in the directory; returns its path.
  @discardableResult
  public func file(_ name: String, _ contents: String) -> String {
    file(name, Data(contents.utf8))
  }

  @discardableResult
  public func file(_ name: String, _ data: Data) -> String {
    let p = path + "/" + name
    precondition(FileManager.default.createFile(atPath: p, contents: data), "cannot write \(p)")
    return p
  }

  /// A PNG of one colour (see `makePNG`).
  @discardableResult
  public func solidPNG(_ name: String, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> String {
    file(name, makePNG(width: width, height: height) { _, _ in rgb })
  }
}

/// Writes `contents` (nothing for nil) to `path`, replacing what is there;
/// a file that cannot be written stops the test run.
public func writeFile(atPath path: String, contents: Data?) {
  precondition(FileManager.default.createFile(atPath: path, contents: contents), "cannot write \(path)")
}
