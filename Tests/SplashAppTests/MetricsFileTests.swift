// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// `metrics-file`, in process on the test clock: the figures a splash
/// writes for node_exporter (its first frame, its reveal, the display),
/// replaced at each event; a folder that is a symbolic link or a file that
/// cannot be written is said in one line and the splash goes on. Host
/// mode's counts are HostModeLivenessTests' (a hang among the failures).
@Suite struct MetricsFileTests {
  let quick = ["--display", "screen", "--size", "32x32", "--duration", "0.5", "--hold", "2"]

  /// The samples of the file's text, by metric (with its labels).
  func samples(_ text: String) -> [String: Double] {
    var samples: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
        continue
      }
      samples[String(line[..<space])] = value
    }
    return samples
  }

  @Test func aSplashWritesWhenItAppearedAndWhenItWasRevealed() throws {
    let splash = try Harness()
    let path = splash.dir.path + "/splashd.prom"
    // What the file says once the first frame is on the screen, before the reveal.
    var early: String?
    splash.clock.at(1) { early = try? Files.readText(path) }
    #expect(splash.run(quick + ["--metrics-file", path]) == .exit(0), "\(splash.lines)")
    let appeared = try #require(early.map(samples), "nothing written by 1 s in: \(splash.lines)")
    let firstFrame = try #require(appeared["splashd_first_frame_seconds"], "\(appeared)")
    #expect(firstFrame >= 0 && firstFrame < 1)
    #expect(appeared["splashd_reveal_seconds"] == nil, "\(appeared)")
    let last = samples(try Files.readText(path))
    // Revealed after the 2 s hold (the transition's start), on the test clock.
    let reveal = try #require(last["splashd_reveal_seconds"], "\(last)")
    #expect(abs(reveal - firstFrame - 2) < 0.1, "\(last)")
    #expect(last["splashd_display_info{display=\"screen\"}"] == 1, "\(last)")
    #expect(last.keys.allSatisfy { !$0.hasPrefix("splashd_program_") }, "\(last)")
    // Nothing of the writes left beside it.
    #expect(try Files.entries(of: splash.dir.path).filter { $0.hasPrefix("splashd.prom") } == ["splashd.prom"])
  }

  @Test func aFolderThatIsALinkIsNotWrittenThroughAndTheSplashGoesOn() throws {
    let splash = try Harness()
    let real = splash.dir.path + "/real"
    try Files.makeDirectories(real)
    let link = splash.dir.path + "/link"
    #expect(symlink(real, link) == 0)
    #expect(splash.run(quick + ["--metrics-file", link + "/splashd.prom"]) == .exit(0), "\(splash.lines)")
    #expect(try Files.entries(of: real) == [])
    // Said once, however many events there were.
    let said = splash.lines.filter { $0.hasPrefix("splashd: metrics-file: ") }
    #expect(
      said == [
        "splashd: metrics-file: \(link)/splashd.prom: \(link): the folder is a symbolic link: not written "
          + "through; the figures are not written"
      ], "\(splash.lines)")
  }

  @Test func aFolderThatIsNotThereIsSaidOnceAndTheSplashGoesOn() throws {
    let splash = try Harness()
    let path = splash.dir.path + "/missing/splashd.prom"
    #expect(splash.run(quick + ["--metrics-file", path]) == .exit(0), "\(splash.lines)")
    let said = splash.lines.filter { $0.hasPrefix("splashd: metrics-file: ") }
    #expect(said.count == 1 && said[0].contains("No such file or directory"), "\(splash.lines)")
  }

  @Test func aPathNotEndingInPromIsRefusedByName() throws {
    let splash = try Harness()
    #expect(splash.run(quick + ["--metrics-file", splash.dir.path + "/splashd.txt"]) == .exit(2))
    #expect(splash.lines.first?.contains("--metrics-file") == true, "\(splash.lines)")
    #expect(splash.lines.first?.contains("ending in .prom") == true, "\(splash.lines)")
  }

  /// With its output the journal (JOURNAL_STREAM), splashd sends the same
  /// figures to the journal's native socket as fields of their own, at each
  /// change; without it, nothing.
  @Test func underTheJournalTheFiguresAreFieldsOfTheirOwn() throws {
    for underTheJournal in [true, false] {
      let splash = try Harness()
      let journal = try NotifyListener()
      // The journal's stream is standard error, as systemd sets it for a unit.
      if underTheJournal { splash.environment["JOURNAL_STREAM"] = FileDescriptor.standardError.deviceAndInode() }
      splash.journalSocket = journal.name
      #expect(splash.run(quick) == .exit(0), "\(splash.lines)")
      let entries = journal.received().map { datagram in
        Dictionary(
          datagram.lines.compactMap { line in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
          }, uniquingKeysWith: { $1 })
      }
      guard underTheJournal else {
        #expect(entries.isEmpty, "\(entries)")
        continue
      }
      // The first frame, the reveal, the splash done, the end.
      #expect(entries.count == 4, "\(entries)")
      #expect(
        entries.allSatisfy {
          $0["MESSAGE_ID"] == FleetMetrics.journalMessageID && $0["SPLASHD_DISPLAY"] == "screen"
            && $0["SYSLOG_IDENTIFIER"] == "splashd"
            && $0["MESSAGE"]?.hasPrefix("splashd: figures: display=screen") == true
        }, "\(entries)")
      let firstFrame = try #require(entries.first?["SPLASHD_FIRST_FRAME_SECONDS"].flatMap(Double.init))
      #expect(firstFrame >= 0 && firstFrame < 1)
      #expect(entries.first?["SPLASHD_REVEAL_SECONDS"] == nil)
      let reveal = try #require(entries.last?["SPLASHD_REVEAL_SECONDS"].flatMap(Double.init), "\(entries)")
      #expect(reveal >= 2 && reveal < 3, "\(reveal)")
    }
  }
}
