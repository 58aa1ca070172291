// SPDX-License-Identifier: Apache-2.0
import CSystemdProgress
import SplashCore
import SplashSystem

/// `[progress] source = systemd`: the bar follows systemd's own count of the
/// boot's jobs (the manager's Progress property over sd-bus), read again
/// each time a job finishes, and never goes backwards. When systemd cannot
/// be reached the bar stays where it is, with one log line.
final class SystemdProgress: EventSource {
  private let controller: Controller
  private let log: Log
  private var connection: OpaquePointer?
  private var shown = 0.0

  /// Connects, or logs why it cannot (the splash goes on without it).
  init(controller: Controller, log: Log) {
    self.controller = controller
    self.log = log
    var reason = [CChar](repeating: 0, count: 256)
    connection = splashd_boot_progress_open(&reason, reason.count)
    if connection == nil { log.error("progress: source systemd: \(Self.text(reason)); the bar stays as it is") }
  }

  deinit { close() }

  var descriptors: [FileDescriptor] {
    guard let connection else { return [] }
    return [FileDescriptor(rawValue: splashd_boot_progress_fd(connection))]
  }

  var writeDescriptors: [FileDescriptor] {
    guard let connection,
      PollEvents(rawValue: Int16(truncatingIfNeeded: splashd_boot_progress_events(connection))).contains(.writable)
    else { return [] }
    return descriptors
  }

  /// sd-bus may hold messages it has read already, and must send what it queued.
  func prepareToWait() { process() }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) { process() }

  private func process() {
    guard let connection else { return }
    var reason = [CChar](repeating: 0, count: 256)
    let value = splashd_boot_progress_process(connection, &reason, reason.count)
    if value == -2 {
      log.error("progress: source systemd: \(Self.text(reason)); the bar stays as it is")
      close()
    } else if value >= 0, value * 100 > shown {
      shown = value * 100
      _ = controller.execute(.progress(shown), because: "systemd")
    }
  }

  private func close() {
    splashd_boot_progress_close(connection)
    connection = nil
  }

  private static func text(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
