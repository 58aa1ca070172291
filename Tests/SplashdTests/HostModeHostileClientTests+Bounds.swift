// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode against a program over what a client may do (issue #41):
/// tools/test/wayland/hostile-client.py as the program, each mode after one
/// way a client once harmed its compositor. The client writes what came of
/// it (and splashd's own figures, read from /proc) to a report; splashd
/// must cut it off or bear it, and serve on.
extension HostModeHostileClientTests {
  var hostileClient: String { packageRoot + "/tools/test/wayland/hostile-client.py" }

  /// The `name: value` lines of the report at `path`; nil before it is written.
  func report(_ path: String) -> [String: String]? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
  }

  /// Runs splashd with hostile-client.py `arguments` (its report file
  /// first, given here) as the program, until the client has written its
  /// report; then `act` (splashd and the report), and splashd is ended.
  /// Returns splashd's outcome and whether it was still alive at the report.
  func hostileProgram(
    _ mode: String, _ arguments: [String], options: [String] = ["--duration", "0.2"],
    act: (RunningSplashd, [String: String]) -> Void = { _, _ in }
  ) throws -> (report: [String: String]?, alive: Bool, outcome: Outcome) {
    let path = dir.path + "/\(mode).report"
    var found: [String: String]?
    var alive = false
    let (_, outcome) = try spawnSplashd(
      splash + options + ["--", "python3", hostileClient, mode, path] + arguments, in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(90, { report(path) != nil || splashd.ended }) else { return }
        found = report(path)
        alive = !splashd.ended
        if let found, alive { act(splashd, found) }
      })
    return (found, alive, outcome)
  }

  /// A program that nests 60,000 subsurfaces, each under the last (built
  /// top-down, each new one at the bottom, or leaf-first, each new one over
  /// the chain so far, which a check of the parent alone would miss): it
  /// is cut off at the 33rd level, splashd lives (the nest once overflowed
  /// its stack, and top-down cost it quadratic time first), and it serves
  /// on: its control socket answers, the program's window gone with its
  /// connection.
  @Test(arguments: ["top-down", "leaf-first"]) func aNestOfSubsurfacesTooDeepIsCutOff(order: String) throws {
    var status: String?
    let (found, alive, outcome) = try hostileProgram("nest", ["60000", order]) { _, _ in
      waitUntil(20) {
        status = splashctl(["status"])?.stdout
        return status?.contains(" windows=0") == true
      }
    }
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive, "splashd did not survive the nest: \(note)")
    #expect(found?["outcome"]?.contains("would be nested more than 32 sub-surfaces deep") == true, "\(note)")
    #expect(status?.contains(" windows=0") == true, "\(status ?? "no status"): \(note)")
    #expect((found?["host_cpu_s"].flatMap(Double.init) ?? .infinity) < 2, "\(note)")
  }

  /// A program whose window has 2,000 subsurfaces outside the picture (at
  /// 2000,2000 of a 320x240 window), which then draws 300 frames, each
  /// waited for: each frame composes the window, and splashd's memory is
  /// the same after the 300th as after the 30th (a surface outside the
  /// picture once leaked an image at every composition: ~140 MB here).
  @Test func surfacesOutsideThePictureCostNothingFrameAfterFrame() throws {
    let (found, alive, outcome) = try hostileProgram("offscreen", ["2000", "300"])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive && found?["outcome"] == "served", "\(note)")
    let first = try #require(found?["host_rss_first_kib"].flatMap(Int.init), "\(note)")
    let last = try #require(found?["host_rss_last_kib"].flatMap(Int.init), "\(note)")
    #expect(last - first < 16 << 10, "splashd grew by \(last - first) KiB over 270 frames: \(note)")
  }

  /// A program that shows four 8192x8192 buffers at once (its window's and
  /// three subsurfaces'), all at the start of one 256 MiB pool it never
  /// wrote to, then destroys every wl_buffer while they are shown: splashd
  /// reads none of them again, and its memory grows by less than a canvas
  /// or two (each such buffer was once copied whole as it went: +1.3 GB).
  @Test func buffersDestroyedWhileShownAreNotCopied() throws {
    let (found, alive, outcome) = try hostileProgram("aliased", ["256", "4"])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive && found?["outcome"] == "served", "\(note)")
    let before = try #require(found?["host_rss_before_kib"].flatMap(Int.init), "\(note)")
    let after = try #require(found?["host_rss_after_kib"].flatMap(Int.init), "\(note)")
    #expect(after - before < 8 << 10, "splashd grew by \(after - before) KiB: \(note)")
  }

  /// A buffer more than 16384 pixels a side is refused (a protocol error:
  /// the client is cut off), one of 16384 taken; splashd serves on.
  @Test(arguments: [16384, 16385]) func aBufferOverSixteenThousandPixelsASideIsRefused(width: Int) throws {
    let (found, alive, outcome) = try hostileProgram("wide", [String(width)])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive, "\(note)")
    if width > 16384 {
      #expect(found?["outcome"]?.contains("more than 16384 pixels a side") == true, "\(note)")
    } else {
      #expect(found?["outcome"] == "served", "\(note)")
    }
  }

  /// A program that sends 20,000 disjoint damage rectangles before a
  /// commit (then as many buffer damage rectangles), and a region of
  /// 96,000 that it makes its window's input and opaque regions: splashd
  /// spends well under a second on each (damage past 32 rectangles, a
  /// region past 256, are kept as their bounding box; each union once cost
  /// as much as the rectangles before it: seconds, a minute for the region).
  @Test func thousandsOfRectanglesCostSplashdLittleTime() throws {
    let (found, alive, outcome) = try hostileProgram("rects", ["20000", "96000"])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive && found?["outcome"] == "served", "\(note)")
    for name in ["damage", "damage_buffer", "region", "regions_set"] {
      let seconds = found?[name + "_host_cpu_s"].flatMap(Double.init)
      #expect(seconds.map { $0 < 1 } == true, "splashd's CPU time for \(name): \(seconds ?? .nan) s: \(note)")
    }
  }
}
