// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import SplashSystem

/// `[progress] source = time`, Plymouth's way: the bar moves with the time
/// since the first frame against how long the last boot took from its
/// first frame to its reveal, and at the reveal this boot's time is
/// recorded for the next one (atomically; a file that cannot be written
/// costs one log line, never the splash).
final class TimedProgress: EventSource {
  private let controller: Controller
  private let log: Log
  private let file: String
  /// Seconds the last boot took, or the assumption when none was recorded.
  let expected: Double
  /// The bar's value when it was last moved.
  private var shown = 0.0
  private var movedAt = -Double.infinity

  /// The bar moves in steps this big, in percent, at most `maxRate` a second.
  static let step = 0.25
  static let maxRate = 30.0
  /// The longest boot a record may say, in seconds.
  static let longestRecord = 86400.0

  init(_ settings: Settings, controller: Controller, log: Log) {
    self.controller = controller
    self.log = log
    let path = settings.progress.durationFile
    file = path
    let origin = "\(settings.origin(of: \.progress.durationFile)) \(printable(path))"
    let assumed = ProgressSettings.assumedBootSeconds
    switch Result(catching: { () throws(SystemError) in try Files.readRegularFile(path, limit: 64) }) {
    case .success(let bytes):
      let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
      if let seconds = parseDecimal(text), seconds > 0, seconds <= Self.longestRecord {
        expected = seconds
        log.info("progress: the last boot took \(formatNumber(seconds)) s from its first frame (\(origin))")
      } else {
        expected = assumed
        log.info("progress: \(origin) holds no number of seconds; assuming \(formatNumber(assumed)) s")
      }
    case .failure(let error):
      expected = assumed
      log.info("progress: no boot time recorded yet (\(origin): \(error.phrase)); assuming \(formatNumber(assumed)) s")
    }
    controller.observe { [weak self] event in
      if event == .willDisappear { self?.revealed() }
    }
  }

  var descriptors: [FileDescriptor] { [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {}

  var wakeTime: Double? {
    guard controller.phase.isHolding, let start = controller.appearedAt else { return nil }
    let next = start + timeToReach(shown + Self.step, expected: expected)
    return max(next, movedAt + 1 / Self.maxRate)
  }

  func wake() {
    guard controller.phase.isHolding, let start = controller.appearedAt else { return }
    let now = controller.now()
    shown = timeProgress(elapsed: now - start, expected: expected)
    movedAt = now
    _ = controller.execute(.progress(shown), because: "the boot's time")
  }

  /// The reveal: the bar is full, and this boot's time is kept for the next.
  private func revealed() {
    _ = controller.execute(.progress(100), because: "the reveal")
    guard let start = controller.appearedAt else { return }
    let seconds = controller.now() - start
    do {
      try Files.makeDirectories(Files.directory(of: file))
      try Files.writeAtomically(Array((formatFixed(seconds, decimals: 3) + "\n").utf8), to: file)
    } catch {
      log.error("progress: cannot record this boot's time in \(printable(file)): \(error.phrase)")
    }
  }
}
