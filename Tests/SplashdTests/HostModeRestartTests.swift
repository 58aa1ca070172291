// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: the program ended: started again under the splash, a stop that fades into the shutdown picture, quits during the transition or before a restart.
@Suite struct HostModeRestartTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// `restart = on-failure`: foot's shell exits 3 when told to (a file
  /// appears); the splash comes back, cross-faded from foot's last frame
  /// (never the background between them), the program starts again and
  /// the doors open onto its new frame (`restarts=1`); when it fails again
  /// at the limit (1), the diagnostic screen says so (in status too) and
  /// splashd exits 3, saying why.
  @Test func aProgramThatFailsIsStartedAgainUnderTheSplash() throws {
    let fail = dir.path + "/fail"
    var returning: [Screendump] = []
    var back: Screendump?
    var again: Screendump?
    var restartedStatus = ""
    var report: String?
    func phase() -> String { splashctl(["status"])?.stdout ?? "" }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "1", "--restart", "on-failure", "--restart-limit", "1", "--", "foot",
        "--override=colors.background=2080c0", "/bin/sh", "-c",
        "while [ ! -e \(fail) ]; do sleep 0.05; done; rm \(fail); exit 3",
      ], in: dir,
      whileRunning: { splashd in
        // Ended by the test only when something did not come; else it ends by itself.
        var ended = false
        defer { if !ended { kill(splashd.pid, SIGTERM) } }
        guard waitForTheProgram(), waitUntil(20, { phase().hasPrefix("phase=done") }) else { return }
        _ = FileManager.default.createFile(atPath: fail, contents: nil)
        // The return: snapshots until the leaves stand closed again.
        _ = waitUntil(20) {
          guard let shot = snapshot("returning-\(returning.count)")?.screen else { return false }
          returning.append(shot)
          guard shot.at(0, 120) == Self.red, shot.at(319, 120) == Self.green else { return false }
          back = shot
          return true
        }
        guard back != nil, waitUntil(20, { phase().hasPrefix("phase=done") && phase().contains(" program=shown") })
        else { return }
        restartedStatus = phase()
        again = snapshot("again")?.screen
        ended = FileManager.default.createFile(atPath: fail, contents: nil)
        report = failureReport(of: splashd.pid)
      })
    let note = outcome.stderr
    let closed = try #require(back, "the splash did not come back: \(note)")
    closed.keep(as: "host-mode-splash-back")
    // Foot's colour fades into the leaves': never the background, never black.
    let corners = returning.map { $0.at(0, 120) }
    #expect(!corners.contains(Self.blue) && !corners.contains(0), "\(corners.map { String($0, radix: 16) }): \(note)")
    let blended = returning.filter { $0.at(0, 120) != Self.red && $0.at(0, 120) != Self.foot }
    blended.dropFirst(blended.count / 2).first?.keep(as: "host-mode-splash-returning")
    #expect(!blended.isEmpty, "no frame between foot and the leaves: \(note)")
    #expect(restartedStatus.contains(" restarts=1"), "\(restartedStatus): \(note)")
    let program = try #require(again, "no snapshot of the restarted program: \(note)")
    #expect(program.at(0, 120) == Self.foot && program.at(319, 120) == Self.foot, "\(note)")
    #expect(outcome.status == 3, "\(outcome.status): \(note)")
    #expect(note.contains("foot ended with status 3; starting it again (restart 1)\n"), "\(note)")
    #expect(note.contains("foot ended with status 3; not started again after 1 restart\n"), "\(note)")
    // Then the diagnostic screen, its report in status: how foot ended, after one restart.
    #expect(report?.contains(" ended=status:3 ") == true, "\(report ?? "no report"): \(note)")
  }

  /// `splashctl quit` while the program runs (as systemctl stop's SIGTERM
  /// would): the program (a shell that keeps foot on for 2 s once told to
  /// stop) is told, and its frames cross-fade into the shutdown's picture
  /// (yellow), never the background or black between, which holds until the
  /// program ends; splashd then ends with it.
  @Test func aStopWhileTheProgramRunsFadesIntoTheShutdownPicture() throws {
    let yellow = dir.solidPNG("yellow.png", width: 320, height: 240, rgb: (255, 255, 0))
    var fading: [Screendump] = []
    var quit: Outcome?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "1", "--image-shutdown", yellow, "--", "/bin/sh", "-c",
        "foot --override=colors.background=2080c0 & trap 'sleep 2; kill $!; exit 0' TERM; wait",
      ], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        guard waitForTheProgramAlone()
        else {
          kill(splashd.pid, SIGTERM)
          return
        }
        quit = splashctl(["quit"])
        // Snapshots until the picture is whole (or splashd has gone).
        _ = waitUntil(20) {
          guard let shot = snapshot("fading-\(fading.count)")?.screen else { return true }
          fading.append(shot)
          return shot.at(0, 120) == 0xFFFF00 && shot.at(319, 120) == 0xFFFF00
        }
      })
    let note = outcome.stderr
    #expect(quit?.status == 0, "\(note)")
    let corners = fading.map { $0.at(0, 120) }
    #expect(corners.last == 0xFFFF00, "the shutdown's picture never showed: \(corners): \(note)")
    #expect(!corners.contains(Self.blue) && !corners.contains(0), "\(corners): \(note)")
    let blended = fading.filter { $0.at(0, 120) != 0xFFFF00 && $0.at(0, 120) != Self.foot }
    blended.dropFirst(blended.count / 2).first?.keep(as: "host-mode-fading-to-shutdown")
    #expect(!blended.isEmpty, "no frame between foot and the shutdown's picture: \(note)")
    #expect(outcome.status == 0 && note.contains("/sh ended with status 0\n"), "\(outcome.status): \(note)")
  }

  /// `splashctl quit` while a failed program waits to be started again
  /// ends splashd then, with the program's status: a stop is never
  /// followed by a restart (before: the quit was lost, the program started
  /// again and splashd never ended).
  @Test func aQuitWhileTheProgramWaitsForItsRestartEndsSplashd() throws {
    var quit: Outcome?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--restart", "on-failure", "--restart-limit", "3", "--", "foot",
        "--override=colors.background=2080c0", "/bin/sh", "-c", "sleep 0.5; exit 3",
      ], in: dir,
      whileRunning: { splashd in
        guard waitForTheProgram(),
          waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=holding") == true })
        else {
          kill(splashd.pid, SIGTERM)
          return
        }
        quit = splashctl(["quit"])
      })
    #expect(quit?.status == 0, "\(outcome.stderr)")
    #expect(outcome.status == 3, "\(outcome.status): \(outcome.stderr)")
    let starts = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("splashd: started ") }
    #expect(starts.count == 1, "\(outcome.stderr)")
  }

  /// A quit during the transition ends it at once, and splashd goes on as
  /// the program's compositor: weston-simple-shm keeps animating (the
  /// stage draws its frames, and their frame callbacks go out; before, the
  /// stage thought the stopped transition still ran, and drew nothing).
  @Test func aQuitDuringTheTransitionLeavesTheProgramAnimating() throws {
    var first: Screendump?
    var changed = false
    let (_, outcome) = try spawnSplashd(
      splash + ["--until-reveal", "--duration", "3", "--", "weston-simple-shm"], in: dir,
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram() else { return }
        _ = splashctl(["reveal"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=transition") == true }) else { return }
        _ = splashctl(["quit"])
        guard waitUntil(20, { splashctl(["status"])?.stdout.hasPrefix("phase=transition") == false }) else { return }
        first = snapshot("after-quit")?.screen
        changed = waitUntil(10) {
          guard let first, let next = snapshot("later")?.screen else { return false }
          return (0..<240).contains { y in (0..<320).contains { next.at($0, y) != first.at($0, y) } }
        }
      })
    #expect(first != nil, "\(outcome.stderr)")
    #expect(changed, "the program stopped animating after the quit: \(outcome.stderr)")
  }

  /// A program that never draws, revealed by the timeout, then ending with
  /// 3, is a failure to start again (before: its end counted as a stop
  /// asked of splashd, which faded into the shutdown picture instead).
  @Test func aProgramThatNeverDrewIsStartedAgainWhenItFails() throws {
    var report: String?
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--timeout", "0.5", "--duration", "0.2", "--restart", "on-failure", "--restart-limit", "1", "--",
        "/bin/sh", "-c", "sleep 1; exit 3",
      ], in: dir, whileRunning: { splashd in report = failureReport(of: splashd.pid) })
    #expect(outcome.status == 3, "\(outcome.stderr)")
    // The diagnostic screen's report, in status too.
    #expect(report?.contains(" ended=status:3 ") == true, "\(report ?? "no report"): \(outcome.stderr)")
    #expect(outcome.stderr.contains("sh ended with status 3; starting it again (restart 1)\n"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("sh ended with status 3; not started again after 1 restart\n"), "\(outcome.stderr)")
  }

  /// Without `restart`, a setting that needs host mode is refused by name.
  @Test func restartNeedsHostMode() throws {
    let outcome = try run(splashdPath, ["--display", "offscreen", "--restart", "always", "--", "foot"])
    #expect(outcome.status != 0)
    #expect(outcome.stderr.contains("--restart needs --host wayland"), "\(outcome.stderr)")
  }
}
