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

  /// A chain of popups (each the child of the last, the first the
  /// window's) may be 16 long: a 17th is a protocol error, and splashd
  /// serves on (wlroots walks popup trees recursively too).
  @Test(arguments: [16, 17]) func aChainOfPopupsIsAtMostSixteenLong(levels: Int) throws {
    let (found, alive, outcome) = try hostileProgram("popups", [String(levels)])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive, "\(note)")
    if levels > 16 {
      #expect(found?["outcome"]?.contains("popups nested more than 16 deep") == true, "\(note)")
    } else {
      #expect(found?["outcome"] == "served", "\(note)")
    }
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

  /// CPU seconds process `pid` has used (user and system), from /proc.
  func cpuSeconds(of pid: Int32) -> Double? {
    guard let stat = readProcFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// splashd with at most 256 descriptors (prlimit), a well-behaved
  /// program shown, and the display's socket in the test's folder; `act`
  /// while it runs, once the program's window is shown.
  func hostingWithFewDescriptors(_ act: (RunningSplashd) -> Void) throws -> Outcome {
    let shown = dir.path + "/window.report"
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "python3", hostileClient, "window", shown], in: dir,
      launcher: ["/usr/bin/prlimit", "--nofile=256:256", "/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(30, { report(shown) != nil || splashd.ended }), !splashd.ended else { return }
        act(splashd)
      })
    return outcome
  }

  /// A client that pins the descriptors splashd has left (sent with a
  /// message it never finishes) and then opens 300 more connections, all
  /// held: splashd, out of descriptors, pauses accepting on its Wayland
  /// socket and its control socket (a control client waits meanwhile)
  /// rather than failing again at every turn (it spun at 100% CPU): it
  /// uses almost no CPU over 3 s. Once the client goes, the waiting
  /// control client is answered and a new Wayland client is served.
  @Test func outOfDescriptorsSplashdWaitsIdleAndServesOnceClientsGo() throws {
    let flood = dir.path + "/conns.report"
    let probe = dir.path + "/probe.report"
    var used: Double?
    var waitingStatus: Outcome?
    var served: [String: String]?
    var floodReport: [String: String]?
    let outcome = try hostingWithFewDescriptors { splashd in
      guard
        let client = try? StartedProcess(
          "/usr/bin/env", ["python3", hostileClient, "conns", flood, "300"], environment: displayEnvironment),
        waitUntil(30, { report(flood) != nil })
      else { return }
      floodReport = report(flood)
      // A control client while splashd has no descriptor to take it.
      let status = try? StartedProcess(splashctlPath, ["--control", socketPath, "status"], environment: [:])
      guard let before = cpuSeconds(of: splashd.pid) else { return }
      usleep(3_000_000)
      used = cpuSeconds(of: splashd.pid).map { $0 - before }
      client.child.send(SIGKILL)
      client.child.wait(seconds: 10)
      waitingStatus = try? status?.finish(timeout: 20)
      guard
        let prober = try? StartedProcess(
          "/usr/bin/env", ["python3", hostileClient, "connections", probe, "1"], environment: displayEnvironment)
      else { return }
      defer { prober.child.send(SIGTERM) }
      if waitUntil(20, { report(probe) != nil }) { served = report(probe) }
    }
    let note = "\(floodReport ?? [:]): \(outcome.stderr)"
    #expect(used.map { $0 < 0.5 } == true, "splashd used \(used ?? .nan) s of CPU in 3 s: \(note)")
    #expect(waitingStatus?.status == 0 && waitingStatus?.stdout.contains(" windows=1") == true, "\(note)")
    #expect(served?["served"] == "1", "\(served ?? [:]): \(note)")
  }

  /// One process may have 16 connections to the display at once: its
  /// 17th and later are cut off (the rest of its own, and the program,
  /// served on).
  @Test func aProcessMayHaveSixteenConnections() throws {
    let path = dir.path + "/connections.report"
    var found: [String: String]?
    var status: String?
    let outcome = try hostingWithFewDescriptors { _ in
      guard
        let client = try? StartedProcess(
          "/usr/bin/env", ["python3", hostileClient, "connections", path, "20"], environment: displayEnvironment)
      else { return }
      defer { client.child.send(SIGTERM) }
      if waitUntil(30, { report(path) != nil }) { found = report(path) }
      status = splashctl(["status"])?.stdout
    }
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(found?["served"] == "16" && found?["refused"] == "4", "\(note)")
    #expect(status?.contains(" windows=1") == true, "\(status ?? "no status"): \(note)")
  }

  /// splashd raises its soft limit of descriptors to the hard one (1024 of
  /// 4096 here: 4096), and the program it starts gets the soft limit
  /// splashd started with (1024, as programs that use select() expect).
  @Test func splashdTakesItsHardDescriptorLimitAndTheProgramGetsTheSoftOne() throws {
    let shown = dir.path + "/window.report"
    var limits: (splashd: String?, program: String?)
    let (_, outcome) = try spawnSplashd(
      splash + ["--duration", "0.2", "--", "python3", hostileClient, "window", shown], in: dir,
      launcher: ["/usr/bin/prlimit", "--nofile=1024:4096"],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(30, { report(shown) != nil || splashd.ended }), !splashd.ended,
          let program = children(of: splashd.pid).first
        else { return }
        func openFiles(_ pid: Int32) -> String? {
          readProcFile("/proc/\(pid)/limits")?.split(separator: "\n").first { $0.hasPrefix("Max open files") }
            .map {
              $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2).joined(separator: " ")
            }
        }
        limits = (openFiles(splashd.pid), openFiles(program))
      })
    #expect(limits.splashd == "4096 4096", "\(outcome.stderr)")
    #expect(limits.program == "1024 4096", "\(outcome.stderr)")
  }

  /// A program that draws each frame from a new 64 MiB pool and never
  /// destroys one: it is cut off once it would have more than 2 GiB mapped
  /// (the budget on a small canvas), and splashd's address space is back
  /// where it was (every pool stayed mapped while the client lived, without
  /// end: +6.4 GB over 100 frames).
  @Test func aProgramOverItsSharedMemoryBudgetIsCutOff() throws {
    let (found, alive, outcome) = try hostileProgram("pools", ["64", "100"])
    let note = "\(found ?? [:]): \(outcome.stderr)"
    #expect(alive, "\(note)")
    #expect(found?["outcome"]?.contains("shared memory over splashd's budget") == true, "\(note)")
    #expect((found?["pools_made"].flatMap(Int.init) ?? .max) <= 32, "\(note)")
    let before = try #require(found?["host_vm_before_kib"].flatMap(Int.init), "\(note)")
    let after = try #require(found?["host_vm_after_kib"].flatMap(Int.init), "\(note)")
    let peak = try #require(found?["host_vm_peak_kib"].flatMap(Int.init), "\(note)")
    #expect(peak - before < (2 << 20) + (64 << 10), "\(note)")
    #expect(after - before < 64 << 10, "\(note)")
  }

  /// The hostile-client stress test: tools/test/wayland/hostile-fuzz.py as
  /// the program, a seeded random walk of surface, subsurface, buffer,
  /// damage, pool, popup and layer-surface requests for 10 s on connections of its own
  /// (each cut off over a bound or for a request it may not make, and
  /// replaced), beside its well-behaved window of #208040: splashd never
  /// crashes nor hangs, its memory stays within 64 MiB and a canvas of
  /// where it began, its CPU time within 10 ms a commit, and the window is
  /// still the program's and shown at the end. Prints the figures.
  @Test(arguments: [1, 2]) func randomHostileRequestsAreBoundedAndTheProgramStaysShown(seed: Int) throws {
    let path = dir.path + "/fuzz.report"
    var found: [String: String]?
    var alive = false
    var middle: UInt32?
    let started = Date()
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.2", "--", "python3", packageRoot + "/tools/test/wayland/hostile-fuzz.py", String(seed), "10",
        path,
      ], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitUntil(60, { report(path) != nil || splashd.ended }) else { return }
        found = report(path)
        alive = !splashd.ended
        middle = snapshot("fuzz-end")?.screen.at(160, 120)
      })
    let figures = found ?? [:]
    let names = [
      "seed", "seconds", "inputs_tried", "commits", "walks", "cut_off", "hangs", "programs_lost", "crashes",
      "host_rss_before_kib", "host_rss_after_kib", "host_rss_most_kib", "host_cpu_s", "host_cpu_per_commit_ms",
    ]
    print(names.map { "fuzz \(seed) \($0): \(figures[$0] ?? "-")" }.joined(separator: "\n"))
    print("fuzz \(seed) test_seconds: \(formatted(Date().timeIntervalSince(started)))")
    let note = "\(figures): \(outcome.stderr)"
    #expect(alive && figures["crashes"] == "0" && !outcome.stderr.contains("crashed"), "\(note)")
    #expect(figures["hangs"] == "0" && figures["programs_lost"] == "0", "\(note)")
    #expect((figures["inputs_tried"].flatMap(Int.init) ?? 0) > 10000, "\(note)")
    let before = try #require(figures["host_rss_before_kib"].flatMap(Int.init), "\(note)")
    let most = try #require(figures["host_rss_most_kib"].flatMap(Int.init), "\(note)")
    let after = try #require(figures["host_rss_after_kib"].flatMap(Int.init), "\(note)")
    let canvasKiB = 320 * 240 * 4 / 1024
    #expect(max(most, after) - before < (64 << 10) + canvasKiB, "\(note)")
    #expect((figures["host_cpu_per_commit_ms"].flatMap(Double.init) ?? .infinity) < 10, "\(note)")
    #expect(
      middle == 0x208040, "the program's window is not shown: \(middle.map { String($0, radix: 16) } ?? "no snapshot")")
  }
}
