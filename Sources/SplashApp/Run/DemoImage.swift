// SPDX-License-Identifier: Apache-2.0
import SplashSystem

/// Finds the bundled demo picture: installed beside the binary
/// (`../share/splashd/`), or in the source tree's `Config/` above a build
/// directory.
enum DemoImage {
  static let fileName = "splashd-demo.png"

  /// The places searched, in order.
  static func candidates() -> [String] {
    guard let executable = Files.executablePath() else { return [] }
    var directory = Files.directory(of: executable)
    var paths = [directory + "/../share/splashd/" + fileName]
    for _ in 0..<6 {
      paths.append(directory + "/Config/" + fileName)
      directory = Files.directory(of: directory)
      if directory == "/" { break }
    }
    return paths
  }

  static func locate() -> String? {
    candidates().lazy.filter { Files.exists($0) }.compactMap { Files.realPath($0) }.first
  }
}
