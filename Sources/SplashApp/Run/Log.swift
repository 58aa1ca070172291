// SPDX-License-Identifier: Apache-2.0
import SplashSystem

/// splashd's messages, one line each, prefixed "splashd: ". When standard
/// error is the systemd journal (JOURNAL_STREAM names it) or the kernel's
/// log (/dev/kmsg, in the initramfs), each line starts with its priority as
/// well (`<6>splashd: appeared …`).
public final class Log {
  private let write: (String) -> Void
  private let toJournal: Bool

  /// A log whose lines go to `write` (newline included).
  public init(toJournal: Bool = false, write: @escaping (String) -> Void) {
    self.toJournal = toJournal
    self.write = write
  }

  /// The log on standard error, with priorities when that is the journal
  /// named by `environment`'s JOURNAL_STREAM, or /dev/kmsg.
  public static func standardError(environment: [String: String]) -> Log {
    let journal =
      environment["JOURNAL_STREAM"] == nil
      ? FileDescriptor.standardError.isKernelLog : standardErrorIsTheJournal(environment: environment)
    return Log(toJournal: journal) { try? FileDescriptor.standardError.writeAll($0) }
  }

  /// Whether standard error is the journal's stream `environment`'s
  /// JOURNAL_STREAM names (systemd sets it for a unit's output; a program
  /// that redirected its output keeps the variable but not the stream).
  public static func standardErrorIsTheJournal(environment: [String: String]) -> Bool {
    environment["JOURNAL_STREAM"].map { FileDescriptor.standardError.deviceAndInode() == $0 } ?? false
  }

  /// A normal event of the splash's life.
  public func info(_ text: String) { line(6, text) }
  /// Something that went wrong.
  public func error(_ text: String) { line(3, text) }
  /// A detail for whoever debugs a boot (an ignored command, say).
  public func debug(_ text: String) { line(7, text) }

  private func line(_ priority: Int, _ text: String) {
    write((toJournal ? "<\(priority)>splashd: " : "splashd: ") + text + "\n")
  }
}

/// Writes `text` to standard output.
func printOut(_ text: String) {
  try? FileDescriptor.standardOutput.writeAll(text)
}

/// Lines of one kind that clients may cause without bound (psplash's
/// ignored commands, Plymouth's refused requests): the first `burst` are
/// said, then at most one every `interval` seconds, each saying how many
/// were left unsaid before it. A client's flood never floods the log (in
/// the initramfs, the kernel's).
struct LogLimit {
  let burst: Int
  let interval: Double
  private var said = 0
  private var lastSaid = -Double.infinity
  private var unsaid = 0

  init(burst: Int = 20, interval: Double = 1) {
    self.burst = burst
    self.interval = interval
  }

  /// Whether a line may be said at `time`, and the text to add to it (how
  /// many were left unsaid since the last one); nil when it is left unsaid.
  mutating func admit(at time: Double) -> String? {
    guard said < burst || time - lastSaid >= interval else {
      unsaid += 1
      return nil
    }
    said += 1
    lastSaid = time
    defer { unsaid = 0 }
    return unsaid == 0 ? "" : " (\(unsaid) more like it not said)"
  }
}
