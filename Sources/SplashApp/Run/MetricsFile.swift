// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// `metrics-file`: splashd's figures (`FleetMetrics`, published by
/// `FleetFigures`) for node_exporter's textfile collector, replaced at once
/// (written beside it, renamed over it) each time. It is written only into
/// a folder that is not a link, and only over a regular file; what keeps
/// it from being written is said in one line (again only after a write has
/// worked meanwhile), and the splash goes on.
final class MetricsFile {
  let path: String
  private let log: Log
  /// Whether the last write failed (said once).
  private var failing = false

  init(path: String, log: Log) {
    self.path = path
    self.log = log
  }

  /// Replaces the file with `figures`.
  func write(_ figures: FleetMetrics) {
    let folder = Files.directory(of: path)
    do throws(SystemError) {
      guard !Files.isLink(folder) else {
        throw SystemError(folder, code: ELOOP, reason: "the folder is a symbolic link: not written through")
      }
      try Files.writeAtomically(Array(figures.text.utf8), to: path)
      if failing { log.info("metrics-file: \(path) written again") }
      failing = false
    } catch {
      if !failing { log.error("metrics-file: \(path): \(error.description); the figures are not written") }
      failing = true
    }
  }
}
