// SPDX-License-Identifier: Apache-2.0
/// splashd's figures for a fleet's monitoring (`metrics-file`): what
/// Prometheus' node_exporter reads from its textfile collector's folder,
/// in Prometheus' text exposition format (version 0.0.4). A figure not
/// known yet (the reveal before it happened, host mode's program without
/// host mode) is left out rather than given as 0.
public struct FleetMetrics: Equatable, Sendable {
  /// Seconds from splashd's start to its first frame on the screen.
  public var firstFrameSeconds: Double?
  /// Seconds from splashd's start to the reveal (the transition's start).
  public var revealSeconds: Double?
  /// The display back end (`kms`, `fbdev`, `sdl`, `window`, `offscreen`, …).
  public var display: String
  /// How host mode's program reaches each screen (`direct`, `composed`, `software`),
  /// while it shows; empty otherwise.
  public var scanout: [String] = []
  /// Host mode: the program's starts, its ends counted as failures (a
  /// status other than 0, a signal, a hang) and its hangs; nil without host
  /// mode.
  public var program: ProgramCounts?
  /// The screen's power (`[screen-power]`, `splashctl screen`): whether
  /// it is on, and for how many seconds it was on since splashd started.
  public var screen: ScreenTime?
  /// When this was written: seconds since the Unix epoch.
  public var writtenAt: Double

  /// The screen's on-time.
  public struct ScreenTime: Equatable, Sendable {
    public var isOn: Bool
    public var onSeconds: Double

    public init(isOn: Bool, onSeconds: Double) {
      self.isOn = isOn
      self.onSeconds = onSeconds
    }
  }

  /// Host mode's program, counted since splashd started.
  public struct ProgramCounts: Equatable, Sendable {
    public var starts: Int
    public var failures: Int
    public var hangs: Int

    public init(starts: Int, failures: Int, hangs: Int) {
      self.starts = starts
      self.failures = failures
      self.hangs = hangs
    }
  }

  public init(display: String, writtenAt: Double) {
    self.display = display
    self.writtenAt = writtenAt
  }

  /// The file's text: each figure with its HELP and TYPE lines, names
  /// prefixed `splashd_`, ending with a line break.
  public var text: String {
    var lines: [String] = []
    func figure(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
      lines.append("# HELP splashd_\(name) \(help)")
      lines.append("# TYPE splashd_\(name) \(type)")
      for sample in samples { lines.append("splashd_\(name)\(sample.labels) \(sample.value)") }
    }
    if let firstFrameSeconds {
      figure(
        "first_frame_seconds", "gauge", "Seconds from splashd's start to its first frame on the screen.",
        [("", Self.number(firstFrameSeconds))])
    }
    if let revealSeconds {
      figure(
        "reveal_seconds", "gauge", "Seconds from splashd's start to the reveal (the transition's start).",
        [("", Self.number(revealSeconds))])
    }
    let paths = scanout.isEmpty ? [""] : scanout
    figure(
      "display_info", "gauge",
      "The display path in use: the back end and, while host mode's program shows, how its frames reach each "
        + "screen (scanout: direct, composed or software).",
      paths.enumerated().map { index, path in
        let screen = scanout.isEmpty ? "" : ",screen=\"\(index)\",scanout=\(Self.quoted(path))"
        return ("{display=\(Self.quoted(display))\(screen)}", "1")
      })
    if let program {
      figure(
        "program_starts_total", "counter", "Host mode: the program's starts (the first and each restart).",
        [("", String(program.starts))])
      figure(
        "program_failures_total", "counter",
        "Host mode: the program's ends counted as failures (a status other than 0, a signal, a hang).",
        [("", String(program.failures))])
      figure(
        "program_hangs_total", "counter", "Host mode: the program's hangs (no answer within hang-timeout).",
        [("", String(program.hangs))])
    }
    if let screen {
      figure("screen_on", "gauge", "Whether the screen is on (1) or off (0).", [("", screen.isOn ? "1" : "0")])
      figure(
        "screen_on_seconds_total", "counter", "Seconds the screen was on since splashd started, as of the last write.",
        [("", Self.number(screen.onSeconds))])
    }
    figure(
      "metrics_written_timestamp_seconds", "gauge", "When splashd last wrote these figures (Unix time).",
      [("", Self.number(writtenAt))])
    return lines.joined(separator: "\n") + "\n"
  }

  /// The same figures as one entry of systemd's journal, in its native
  /// protocol (a datagram of `FIELD=value` lines): `MESSAGE` for people
  /// (`splashd: figures: display=kms first_frame_seconds=0.412000 …`), the fixed
  /// `MESSAGE_ID` of splashd's figures (`journalctl MESSAGE_ID=…` finds them
  /// all), and each figure as a field of its own (`SPLASHD_DISPLAY`,
  /// `SPLASHD_SCANOUT` (comma-separated), `SPLASHD_FIRST_FRAME_SECONDS`,
  /// `SPLASHD_REVEAL_SECONDS`, `SPLASHD_PROGRAM_STARTS`,
  /// `SPLASHD_PROGRAM_FAILURES`, `SPLASHD_PROGRAM_HANGS`,
  /// `SPLASHD_SCREEN_ON`, `SPLASHD_SCREEN_ON_SECONDS`), left out where the
  /// file leaves it out. Values are single lines (a line break becomes a space).
  public var journalEntry: String {
    var fields: [(name: String, value: String)] = [("DISPLAY", display)]
    if !scanout.isEmpty { fields.append(("SCANOUT", scanout.joined(separator: ","))) }
    if let firstFrameSeconds { fields.append(("FIRST_FRAME_SECONDS", Self.number(firstFrameSeconds))) }
    if let revealSeconds { fields.append(("REVEAL_SECONDS", Self.number(revealSeconds))) }
    if let program {
      fields += [
        ("PROGRAM_STARTS", String(program.starts)), ("PROGRAM_FAILURES", String(program.failures)),
        ("PROGRAM_HANGS", String(program.hangs)),
      ]
    }
    if let screen {
      fields += [("SCREEN_ON", screen.isOn ? "1" : "0"), ("SCREEN_ON_SECONDS", Self.number(screen.onSeconds))]
    }
    let line: (String) -> String = { $0.replacingLineBreaks }
    let summary = fields.map { "\($0.name.lowercased())=\(line($0.value))" }.joined(separator: " ")
    let lines =
      [
        "MESSAGE=splashd: figures: \(summary)", "MESSAGE_ID=\(Self.journalMessageID)", "SYSLOG_IDENTIFIER=splashd",
        "PRIORITY=6",
      ]
      + fields.map { "SPLASHD_\($0.name)=\(line($0.value))" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The journal's MESSAGE_ID of splashd's figures (a 128-bit ID, as
  /// `systemd-id128 new` makes them).
  public static let journalMessageID = "5b0c2f3e8d7a4c1e9f6a2b4d8c0e1f37"

  /// A sample's value: six decimals at most, no exponent.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "+Inf" : "-Inf") }
    return formatFixed(value, decimals: 6)
  }

  /// A label's value in quotes, with `\`, `"` and line breaks escaped as
  /// the format asks.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result + "\""
  }
}

extension String {
  /// With each line break a space: a journal field's value on one line.
  fileprivate var replacingLineBreaks: String {
    String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
  }
}
