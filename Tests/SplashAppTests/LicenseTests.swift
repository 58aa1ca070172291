// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// splashd is under the Apache License 2.0 (LICENSE); every source file says so.
@Suite struct LicenseTests {
  @Test func everySourceFileCarriesTheSPDXLine() throws {
    let root = CheckTests.packageRoot
    #expect(try String(contentsOfFile: root + "/LICENSE", encoding: .utf8).contains("Apache License"))
    var files = ["Package.swift", "Makefile", ".ci/run"]
    let fileManager = FileManager.default
    for folder in ["Sources", "Tests", "tools", "systemd", "Config", "wayland-host"] {
      guard let walker = fileManager.enumerator(atPath: root + "/" + folder) else { continue }
      for case let path as String in walker where !path.hasPrefix("Fuzz/") {
        let kinds = [".swift", ".c", ".h", ".modulemap", ".py", ".sh", ".service", ".conf"]
        if kinds.contains(where: { path.hasSuffix($0) }) { files.append(folder + "/" + path) }
      }
    }
    #expect(files.count > 100)
    for file in files {
      let head = (try String(contentsOfFile: root + "/" + file, encoding: .utf8)).split(separator: "\n").prefix(2)
      #expect(head.contains { $0.hasSuffix("SPDX-License-Identifier: Apache-2.0") }, "\(file) has no SPDX line")
    }
  }
}
