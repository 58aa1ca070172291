// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `metrics-file` read by the real consumer: Debian's
/// prometheus-node-exporter, its textfile collector pointed at the folder
/// splashd wrote its figures into, serves them over HTTP without a scrape
/// error.
@Suite struct NodeExporterTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  static let exporter = "/usr/bin/prometheus-node-exporter"

  @Test func nodeExporterServesWhatSplashdWrote() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.exporter) else {
      throw TestFailure("needs prometheus-node-exporter (make test installs it)")
    }
    let folder = dir.path + "/textfile"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let splashd = try run(
      splashdPath,
      [
        "--config", dir.testConfig, "--display", "offscreen", "--size", "64x48", "--duration", "0.1", "--hold", "0",
        "--metrics-file", folder + "/splashd.prom",
      ])
    #expect(splashd.status == 0, "\(splashd.stderr)")
    // A port nobody listens on now.
    let port = try run(
      "/usr/bin/python3",
      ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let exporter = try StartedProcess(
      Self.exporter,
      [
        "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=" + folder,
        "--web.listen-address=127.0.0.1:" + port,
      ])
    defer {
      kill(exporter.pid, SIGTERM)
      _ = try? exporter.finish(timeout: 10)
    }
    let fetch = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())"
    var served = ""
    waitUntil(20) {
      served = (try? run("/usr/bin/python3", ["-c", fetch, "http://127.0.0.1:\(port)/metrics"]))?.stdout ?? ""
      return served.contains("splashd_")
    }
    let lines = served.split(separator: "\n").map(String.init)
    #expect(lines.contains("node_textfile_scrape_error 0"), "\(served)")
    #expect(lines.contains { $0.hasPrefix("splashd_first_frame_seconds ") }, "\(served)")
    #expect(lines.contains { $0.hasPrefix("splashd_reveal_seconds ") }, "\(served)")
    #expect(lines.contains("splashd_display_info{display=\"offscreen\"} 1"), "\(served)")
  }
}
