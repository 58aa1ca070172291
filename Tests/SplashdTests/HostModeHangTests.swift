// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with the real compositor and a program that stops answering
/// (tools/test/wayland/frozen-client.py: it stops reading its connection
/// when told): wlroots' ping goes unanswered, the splash comes back over
/// it, it is ended and started again; frozen again at the limit, the
/// diagnostic screen shows and `status` says how it failed.
@Suite struct HostModeHangTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  @Test func aFrozenProgramIsBroughtBackUnderTheSplashAndStartedAgain() throws {
    let freeze = dir.path + "/freeze"
    var back: Screendump?
    var restarted = ""
    var failed = ""
    var report: Screendump?
    func status() -> String { splashctl(["status"])?.stdout ?? "" }
    let (_, outcome) = try spawnSplashd(
      splash + [
        "--duration", "0.3", "--restart", "on-failure", "--restart-limit", "1", "--hang-timeout", "1", "--",
        packageRoot + "/tools/test/wayland/frozen-client.py", freeze, "0x2080c0",
      ], in: dir, launcher: ["/usr/bin/env", "XDG_RUNTIME_DIR=" + dir.path],
      whileRunning: { splashd in
        defer { kill(splashd.pid, SIGTERM) }
        guard waitForTheProgram(), waitUntil(20, { status().hasPrefix("phase=done") }) else { return }
        _ = FileManager.default.createFile(atPath: freeze, contents: nil)
        // Within 1.5 s of freezing the splash is back: the leaves again.
        _ = waitUntil(20) {
          guard let shot = snapshot("back")?.screen, shot.at(0, 120) == Self.red else { return false }
          back = shot
          return true
        }
        guard waitUntil(20, { status().hasPrefix("phase=done") && status().contains("program=shown restarts=1") })
        else { return }
        restarted = status()
        // Frozen again, at the limit: the diagnostic screen.
        _ = FileManager.default.createFile(atPath: freeze, contents: nil)
        guard waitUntil(30, { status().contains("program=failed") }) else { return }
        failed = status()
        report = snapshot("report")?.screen
      })
    let note = outcome.stderr
    #expect(back != nil, "the splash did not come back: \(note)")
    #expect(note.contains("frozen-client.py stopped answering (no reply in 1 s); ending it\n"), "\(note)")
    #expect(note.contains("frozen-client.py stopped answering (no reply in 1 s); starting it again (restart 1)\n"))
    #expect(restarted.contains("program=shown restarts=1"), "\(restarted)")
    #expect(failed.contains("program=failed restarts=1 ended=hung ended_at="), "\(failed): \(note)")
    #expect(failed.contains("%0Afrozen"), "\(failed)")
    // What it wrote on its standard error still reached splashd's.
    #expect(note.split(separator: "\n").filter { $0 == "frozen" }.count == 2, "\(note)")
    let screen = try #require(report, "no snapshot of the diagnostic screen: \(note)")
    screen.keep(as: "host-mode-frozen-program-report")
    // The dark panel at the top left, over the red leaf.
    let corner = screen.at(8, 8)
    #expect(corner >> 16 < 0x40 && corner & 0xFF < 0x40, "\(String(corner, radix: 16))")
    // Stopped during the report: the program's status, the screen kept.
    #expect(outcome.status == 128 + SIGTERM || outcome.status == 128 + SIGKILL, "\(outcome.status): \(note)")
  }
}
