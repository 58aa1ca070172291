// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// `metrics-file`'s text, in Prometheus' text exposition format: each
/// figure with its HELP and TYPE lines, the unknown ones left out, label
/// values escaped.
@Suite struct FleetMetricsTests {
  /// The samples of `text`: each line that is not a comment, split at its
  /// last space into the metric (with its labels) and the value.
  func samples(_ text: String) -> [String: String] {
    var samples: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " ") else { continue }
      samples[String(line[..<space])] = String(line[line.index(after: space)...])
    }
    return samples
  }

  @Test func aSplashWithoutAProgramSaysItsTimesAndDisplay() {
    var figures = FleetMetrics(display: "kms", writtenAt: 1_796_000_000.25)
    figures.firstFrameSeconds = 0.0123
    figures.revealSeconds = 2.5
    #expect(
      samples(figures.text) == [
        "splashd_first_frame_seconds": "0.012300", "splashd_reveal_seconds": "2.500000",
        "splashd_display_info{display=\"kms\"}": "1",
        "splashd_metrics_written_timestamp_seconds": "1796000000.250000",
      ])
    #expect(figures.text.hasSuffix("\n"))
    // Each sample follows its own HELP and TYPE lines.
    let lines = figures.text.split(separator: "\n")
    for (index, line) in lines.enumerated() where !line.hasPrefix("#") {
      let name = String(line.prefix { $0 != " " && $0 != "{" })
      #expect(lines[index - 1].hasPrefix("# TYPE \(name) "), "\(lines)")
      #expect(lines[index - 2].hasPrefix("# HELP \(name) "), "\(lines)")
    }
  }

  @Test func whatIsNotKnownYetIsLeftOut() {
    let text = FleetMetrics(display: "offscreen", writtenAt: 0).text
    #expect(!text.contains("first_frame"))
    #expect(!text.contains("reveal"))
    #expect(!text.contains("program_"))
  }

  @Test func hostModeCountsItsProgramAndSaysEachScreensPath() {
    var figures = FleetMetrics(display: "kms", writtenAt: 0)
    figures.program = .init(starts: 3, failures: 2, hangs: 1)
    figures.scanout = ["direct", "software"]
    let found = samples(figures.text)
    #expect(found["splashd_program_starts_total"] == "3")
    #expect(found["splashd_program_failures_total"] == "2")
    #expect(found["splashd_program_hangs_total"] == "1")
    #expect(found["splashd_display_info{display=\"kms\",screen=\"0\",scanout=\"direct\"}"] == "1")
    #expect(found["splashd_display_info{display=\"kms\",screen=\"1\",scanout=\"software\"}"] == "1")
    #expect(figures.text.contains("# TYPE splashd_program_starts_total counter\n"))
  }

  @Test func theScreensOnTime() {
    var figures = FleetMetrics(display: "kms", writtenAt: 0)
    figures.screen = .init(isOn: false, onSeconds: 3600.5)
    let found = samples(figures.text)
    #expect(found["splashd_screen_on"] == "0" && found["splashd_screen_on_seconds_total"] == "3600.500000")
    #expect(figures.text.contains("# TYPE splashd_screen_on_seconds_total counter\n"))
    figures.screen?.isOn = true
    #expect(samples(figures.text)["splashd_screen_on"] == "1")
  }

  @Test func labelValuesAreEscaped() {
    let text = FleetMetrics(display: "a\"b\\c\nd", writtenAt: 0).text
    #expect(text.contains("splashd_display_info{display=\"a\\\"b\\\\c\\nd\"} 1\n"), "\(text)")
  }

  /// The journal's entry: its message, its ID and a field a figure, left
  /// out where the file leaves it out, on one line each.
  @Test func theJournalsEntryHasAFieldAFigure() {
    var figures = FleetMetrics(display: "kms", writtenAt: 1_796_000_000.25)
    #expect(
      figures.journalEntry == """
        MESSAGE=splashd: figures: display=kms
        MESSAGE_ID=\(FleetMetrics.journalMessageID)
        SYSLOG_IDENTIFIER=splashd
        PRIORITY=6
        SPLASHD_DISPLAY=kms

        """)
    figures.firstFrameSeconds = 0.4125
    figures.revealSeconds = 3.5
    figures.scanout = ["composed", "software"]
    figures.program = .init(starts: 2, failures: 1, hangs: 0)
    figures.screen = .init(isOn: false, onSeconds: 12)
    figures.display = "odd\nname"
    let fields = figures.journalEntry.split(separator: "\n")
    #expect(
      fields.first.map(String.init)
        == "MESSAGE=splashd: figures: display=odd name scanout=composed,software "
        + "first_frame_seconds=0.412500 reveal_seconds=3.500000 program_starts=2 program_failures=1 program_hangs=0 "
        + "screen_on=0 screen_on_seconds=12.000000")
    #expect(
      Array(fields.dropFirst(4)) == [
        "SPLASHD_DISPLAY=odd name", "SPLASHD_SCANOUT=composed,software", "SPLASHD_FIRST_FRAME_SECONDS=0.412500",
        "SPLASHD_REVEAL_SECONDS=3.500000", "SPLASHD_PROGRAM_STARTS=2", "SPLASHD_PROGRAM_FAILURES=1",
        "SPLASHD_PROGRAM_HANGS=0", "SPLASHD_SCREEN_ON=0", "SPLASHD_SCREEN_ON_SECONDS=12.000000",
      ])
  }
}
