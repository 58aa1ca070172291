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
      environment["JOURNAL_STREAM"].map { FileDescriptor.standardError.deviceAndInode() == $0 }
      ?? FileDescriptor.standardError.isKernelLog
    return Log(toJournal: journal) { try? FileDescriptor.standardError.writeAll($0) }
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
