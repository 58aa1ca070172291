// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// Host mode's program that stops answering, and the diagnostic screen
/// once it has failed for good, in process on the test clock with the
/// stand-in compositor (its pings' timeouts on the test clock too): a
/// missed pong brings the splash back, ends the program and starts it
/// again; at the limit the splash shows how it failed, and `status` says
/// the same; its standard error kept in a bounded ring.
@Suite struct HostModeLivenessTests {
  static let programColor: UInt32 = 0x00_20C0_40

  func harness(size: PixelSize = PixelSize(width: 160, height: 120)) throws -> Harness {
    let splash = try Harness()
    splash.fakesWaylandHost = true
    splash.screens.size = size
    return splash
  }

  func arguments(_ more: [String], program: [String]) -> [String] {
    [
      "--display", "screen", "--host", "wayland", "--hold", "0", "--duration", "0.3", "--timeout", "10",
      "--background", "#102030",
    ] + more + ["--"] + program
  }

  /// The program stops answering 5 s in (its window's client reads no
  /// more): within 1.5 hang-timeouts the splash is back over it, saying
  /// so, it is ended (SIGTERM: `sleep` dies of it) and started again; the
  /// second start answers, and is killed later, which at the limit (1)
  /// gives up.
  @Test func aProgramThatStopsAnsweringIsEndedAndStartedAgain() throws {
    let splash = try harness()
    var messages: [String?] = []
    var frozenAt: Double?
    var during: (message: String?, status: String)?
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        messages.append(splash.session?.stage.status.message)
        let now = splash.clock.now()
        let start = host.connections
        host.frozen = false
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        if start == 1 {
          splash.clock.atTime(now + 5) {
            host.frozen = true
            frozenAt = splash.clock.now()
            // Found out within 3 s, the splash back 0.3 s later and the
            // program sent SIGTERM: its end is waited for in real time (the
            // test clock does not wait for a real process).
            guard let pid = splash.session?.kiosk?.program.spawned?.child.pid else { return }
            splash.clock.atTime(now + 5 + 4.5) {
              var info = siginfo_t()
              _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
            }
          }
        } else {
          splash.clock.atTime(now + 2.5) {
            during = (splash.session?.stage.status.message, splash.session?.controller.statusLine() ?? "")
          }
          splash.clock.atTime(now + 4) { splash.killProgram(awaitingItsEnd: true) }
        }
      }
    }
    let metrics = splash.dir.path + "/splashd.prom"
    let ending = splash.run(
      arguments(
        ["--restart", "on-failure", "--restart-limit", "1", "--hang-timeout", "2", "--metrics-file", metrics],
        program: ["sleep", "60"]))
    #expect(ending == .exit(128 + SIGKILL), "\(splash.lines)")
    let host = try #require(splash.waylandHost)
    #expect(host.connections == 2, "\(splash.lines)")
    let kiosk = try #require(splash.session?.kiosk)
    // Ended by splashd's SIGTERM, the hang is the failure.
    #expect(kiosk.ends == [.hung(timeout: 2, status: 128 + SIGTERM), .exited(status: 128 + SIGKILL)], "\(kiosk.ends)")
    #expect(
      messages == [nil, "sleep stopped answering (no reply in 2 s); starting it again (restart 1)"], "\(messages)")
    // Pinged at half the timeout; found out within 1.5 timeouts of freezing.
    let frozen = try #require(frozenAt)
    let pings = host.pings.filter { $0 <= frozen }
    #expect(pings.count >= 3 && zip(pings, pings.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 0.05 }, "\(pings)")
    let back = try #require(splash.time(of: "splashd: host mode: sleep stopped answering (no reply in 2 s); ending it"))
    #expect(back > frozen && back <= frozen + 3 + 0.05, "frozen at \(frozen), back at \(back)")
    // Started again after it was ended.
    let startedAgain = splash.log.filter { $0.line.hasPrefix("splashd: started ") }.map(\.time)
    #expect(startedAgain.count == 2 && startedAgain[1] > back, "\(startedAgain)")
    // Each start was revealed by its own first frame (never the first's end).
    let reveals = (splash.session?.controller.playbackEvents ?? []).compactMap { event -> String? in
      if case .gateOpened(_, let reason) = event { reason } else { nil }
    }
    #expect(reveals == Array(repeating: "the program's first frame", count: 2), "\(reveals)")
    // Its second start shows, and answers.
    #expect(during?.status.contains("program=shown restarts=1") == true, "\(during?.status ?? "")")
    // metrics-file counts two starts, two failures, one of them a hang.
    let figures = try Files.readText(metrics)
    for sample in ["program_starts_total 2", "program_failures_total 2", "program_hangs_total 1"] {
      #expect(figures.contains("\nsplashd_\(sample)\n"), "\(figures)")
    }
  }

  /// A program that answers is never taken for frozen, however long it runs.
  @Test func aProgramThatAnswersIsLeftAlone() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commit(color: Self.programColor) }
    }
    splash.clock.at(30) { splash.killProgram(awaitingItsEnd: true) }
    let ending = splash.run(arguments(["--hang-timeout", "2"], program: ["sleep", "60"]))
    #expect(ending == .exit(128 + SIGKILL))
    #expect((splash.waylandHost?.pings.count ?? 0) >= 20)
    #expect(splash.session?.kiosk?.ends == [.exited(status: 128 + SIGKILL)])
  }

  /// Off by default: nothing is pinged.
  @Test func withoutHangTimeoutNothingIsPinged() throws {
    let splash = try harness()
    splash.onWaylandHost = { host in
      splash.clock.at(1) {
        host.commit(color: Self.programColor)
        host.frozen = true
      }
    }
    splash.clock.at(10) { splash.killProgram(awaitingItsEnd: true) }
    #expect(splash.run(arguments([], program: ["sleep", "60"])) == .exit(128 + SIGKILL))
    #expect(splash.waylandHost?.pings == [])
  }

  /// At the limit the splash shows what a technician needs: the program,
  /// how it ended, when, the restarts, the last lines of its standard
  /// error, the machine's name; `status` says it in fields. 800x480, the
  /// smallest screen the brief names; the frame is kept for people to see.
  @Test func theDiagnosticScreenSaysHowTheProgramFailed() throws {
    let splash = try harness(size: PixelSize(width: 800, height: 480))
    splash.onWaylandHost = { host in
      host.onConnect = { host in
        let now = splash.clock.now()
        splash.clock.atTime(now + 1) { host.commit(color: Self.programColor) }
        splash.clock.atTime(now + 3) { splash.killProgram(awaitingItsEnd: true) }
      }
    }
    var status = ""
    splash.clock.at(20) { status = splash.session?.controller.statusLine() ?? "" }
    let program = [
      "/bin/sh", "-c", "echo \"starting run $$\" >&2; echo 'error: the %config, = broken' >&2; exec sleep 60",
    ]
    let ending = splash.run(arguments(["--restart", "always", "--restart-limit", "1"], program: program))
    #expect(ending == .exit(128 + SIGKILL), "\(splash.lines)")
    let report = try #require(splash.session?.stage.status.report, "\(splash.lines)")
    #expect(report[0] == "sh has failed: not started again after 1 restart", "\(report)")
    #expect(report.contains("How it ended: ended by signal 9"))
    #expect(report.contains("Restarts: 1"))
    #expect(report.contains { $0.hasPrefix("When: 20") })
    #expect(report.contains { $0.hasPrefix("Machine: \(ThisMachine.name())") })
    #expect(report.contains("The last lines of its standard error:"))
    // Both runs' lines, the last run's last.
    let stderr = report.filter { $0.hasPrefix("  ") }
    #expect(stderr.count == 4 && stderr.last == "  error: the %config, = broken", "\(report)")
    #expect(stderr.first?.hasPrefix("  starting run ") == true, "\(report)")
    // status says the same.
    #expect(status.contains("program=failed restarts=1 ended=signal:9 ended_at=20"), "\(status)")
    #expect(status.contains(" hostname=\(FailureReport.encoded(ThisMachine.name())) "), "\(status)")
    #expect(status.contains("%0Aerror:%20the%20%25config%2C%20%3D%20broken"), "\(status)")
    // Drawn: the panel's dark pixels top left over the splash, its text in them.
    let screen = try #require(splash.screens.opened.last)
    let pixels = screen.canvas.pixels()
    let width = screen.canvas.size.width
    func rgb(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] & 0xFF_FFFF }
    let corner = rgb(15, 15)
    #expect(corner != 0x10_2030 && corner & 0xE0_E0E0 == 0, "\(String(corner, radix: 16))")
    let panelRow = (20..<400).map { rgb($0, 34) }
    #expect(panelRow.contains { $0 & 0xFF > 0x80 }, "no text in the panel's first line")
    let png = makePNG(width: width, height: screen.canvas.size.height) { x, y in
      let pixel = rgb(x, y)
      return (UInt8(pixel >> 16), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF))
    }
    try? FileManager.default.createDirectory(atPath: Screendump.folder, withIntermediateDirectories: true)
    writeFile(atPath: Screendump.folder + "/host-mode-diagnostic-screen.png", contents: png)
    #expect(screen.keptLastFrame == true)
  }

  /// After a splash, the stage shows the program (and the splash can come
  /// back) unless a splash stopped before its transition stays: splashd
  /// stopping, the program frozen, or ended and to be started again. A
  /// transition played to its end shows the program whatever happened
  /// meanwhile: a program that ended as the doors finished opening still
  /// gets the splash back (on a real kernel it once stayed on its last
  /// frame, the diagnostic screen unseen).
  @Test func aTransitionPlayedToItsEndShowsTheProgramEvenIfItEndedMeanwhile() {
    func shows(
      stopping: Bool = false, hung: Bool = false, ended: Bool, restart: RestartPolicy = .always, doorsOpen: Bool
    )
      -> Bool
    {
      KioskSupervisor.showsTheProgram(
        stopping: stopping, hung: hung, ended: ended, restart: restart, transitionEnded: doorsOpen)
    }
    #expect(shows(ended: false, doorsOpen: false))
    #expect(shows(ended: true, restart: .no, doorsOpen: false))
    #expect(!shows(ended: true, doorsOpen: false))
    #expect(shows(ended: true, doorsOpen: true))
    #expect(!shows(stopping: true, ended: false, doorsOpen: true))
    #expect(!shows(hung: true, ended: false, doorsOpen: true))
  }

  /// A program that writes megabytes to its standard error: all of it is
  /// forwarded, and the ring keeps a few KiB of it at most. (In real time:
  /// a stream that never stops is a loop busy at one instant of the test
  /// clock.)
  @Test func theStandardErrorRingIsBoundedWhateverTheProgramWrites() throws {
    let null = try FileDescriptor.open("/dev/null", O_WRONLY)
    defer { try? null.close() }
    let stderr = try ProgramStderr(forwardingTo: null)
    let child = try ChildProcess.spawn(
      "/bin/sh", ["sh", "-c", "yes 'a line of the program' | head -c 8000000 >&2; echo last line >&2"],
      environment: ["PATH": "/usr/bin:/bin"], standardError: stderr.writeEnd)
    let end = try child.endWatch()
    var largest = 0
    for _ in 0..<20_000 where !end.ended() || stderr.pipe.read < 8_000_010 {
      var ready = pollfd(fd: stderr.pipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
      _ = poll(&ready, 1, 1)
      stderr.drain()
      largest = max(largest, stderr.ring.storedBytes)
    }
    _ = try child.wait()
    #expect(stderr.pipe.read == 8_000_010, "\(stderr.pipe.read)")
    #expect(stderr.pipe.forwarded == stderr.pipe.read && stderr.pipe.dropped == 0)
    // Never more than the ring's bound, whatever came through.
    #expect(largest <= 4096 + 256 && stderr.lastLines.count <= 32, "\(largest) bytes, \(stderr.lastLines.count) lines")
    #expect(stderr.lastLines.last?.hasSuffix("last line") == true, "\(stderr.lastLines)")
    #expect(stderr.lastLines.dropLast().allSatisfy { $0 == "a line of the program" }, "\(stderr.lastLines)")
  }
}
