// SPDX-License-Identifier: Apache-2.0
/// What a technician needs on the spot once host mode's program has failed
/// for good (`restart-limit` reached, or it could not be started again):
/// the program and how it ended, when, after how many restarts, the last
/// lines it wrote to its standard error, and the machine's name and
/// addresses. The splash shows its `lines` (the diagnostic screen), and
/// `splashctl status` says the same in `statusFields`.
public struct FailureReport: Equatable, Sendable {
  /// The program, as it was started (its path).
  public var program: String
  /// How it ended the last time; nil when it could not be started again.
  public var end: ProgramEnd?
  /// Why it is not started again: "not started again after 5 restarts",
  /// "cannot be started again: …".
  public var verdict: String
  /// When it ended, local time ("2026-12-06 22:10:03 CET").
  public var when: String
  /// The same time for `status` (ISO 8601, no blanks).
  public var whenField: String
  public var restarts: Int
  /// The last lines it wrote to standard error, oldest first.
  public var stderr: [String]
  /// The machine's name and its addresses (IPv4 and IPv6, not loopback's).
  public var hostname: String
  public var addresses: [String]

  public init(
    program: String, end: ProgramEnd?, verdict: String, when: String, whenField: String, restarts: Int,
    stderr: [String], hostname: String, addresses: [String]
  ) {
    self.program = program
    self.end = end
    self.verdict = verdict
    self.when = when
    self.whenField = whenField
    self.restarts = restarts
    self.stderr = stderr
    self.hostname = hostname
    self.addresses = addresses
  }

  /// The most standard error lines the screen and `status` show (the
  /// last ones).
  public static let shownStderrLines = 12

  /// The diagnostic screen's lines, top to bottom (each cut to the screen
  /// where it is drawn).
  public var lines: [String] {
    let name = program.split(separator: "/").last.map(String.init) ?? program
    var lines = [
      "\(name) has failed: \(verdict)",
      "Program: \(program)",
      "How it ended: " + (end.map { Self.how($0) } ?? "it could not be started"),
      "When: \(when)",
      "Restarts: \(restarts)",
      "Machine: \(hostname)" + (addresses.isEmpty ? " (no address)" : "  " + addresses.joined(separator: "  ")),
    ]
    let tail = stderr.suffix(Self.shownStderrLines)
    if tail.isEmpty {
      lines.append("Its standard error: nothing")
    } else {
      lines.append("The last lines of its standard error:")
      lines += tail.map { "  " + $0 }
    }
    return lines
  }

  /// How `end` is said on the screen.
  private static func how(_ end: ProgramEnd) -> String {
    switch end {
    case .exited(let status) where status > 128: "ended by signal \(status - 128)"
    case .exited(let status): "exited with status \(status)"
    case .hung(let timeout, _): "stopped answering (no reply in \(formatNumber(timeout)) s), so it was ended"
    }
  }

  /// The same for `splashctl status`: `program=failed`, `ended=` (status:N,
  /// signal:N, hung, not-started), `ended_at=`, `hostname=`, `addresses=`
  /// (comma-separated), `stderr=` (the last lines, percent-encoded: `%20`
  /// a space, `%0A` between lines, `%25` a percent sign).
  public var statusFields: [String] {
    [
      "program=failed", "ended=\(end?.field ?? "not-started")", "ended_at=\(whenField)",
      "hostname=\(Self.encoded(hostname))", "addresses=\(addresses.map(Self.encoded).joined(separator: ","))",
      "stderr=" + stderr.suffix(Self.shownStderrLines).map(Self.encoded).joined(separator: "%0A"),
    ]
  }

  /// `text` with what would split or end a status field percent-encoded:
  /// blanks, control characters, `%`, `,` and `=`.
  public static func encoded(_ text: String) -> String {
    let digits = Array("0123456789ABCDEF")
    var result = ""
    for scalar in text.unicodeScalars {
      let value = Int(scalar.value)
      if value <= 0x20 || value == 0x7F || value == 0x25 || value == 0x2C || value == 0x3D {
        result += "%" + String(digits[value >> 4]) + String(digits[value & 15])
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
