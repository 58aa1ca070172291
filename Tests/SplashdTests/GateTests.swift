import Foundation
import Testing

/// The held splash waiting for `--until-file`, bounded by `--timeout`.
@Suite struct GateTests {
  let dir: TemporaryDirectory
  let quick = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05"]

  init() throws { dir = try TemporaryDirectory() }

  /// Whether `pid` is still running (not gone, not a zombie awaiting its parent).
  func running(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    guard let close = stat.lastIndex(of: ")") else { return false }
    return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
  }

  /// The monotonic time in the log line that starts with `prefix`.
  func monotonic(_ outcome: Outcome, _ prefix: String) -> Double? {
    guard let line = outcome.stderrLines.first(where: { $0.hasPrefix(prefix) }),
      let range = line.range(of: "monotonic ")
    else { return nil }
    return Double(line[range.upperBound...].prefix { $0 == "." || $0.isNumber })
  }

  @Test func theSplashHoldsUntilTheFileAppearsEvenInDirectoriesNotYetMade() throws {
    let ready = dir.path + "/run/kiosk/ready"
    var heldWhileAbsent = false
    let (_, outcome) = try spawnSplashd(
      quick + ["--until-file", ready, "--", "/bin/sh", "-c", "echo handed off"], in: dir,
      whileRunning: { pid in
        usleep(700_000)
        heldWhileAbsent = running(pid)
        try? FileManager.default.createDirectory(atPath: dir.path + "/run/kiosk", withIntermediateDirectories: true)
        usleep(100_000)
        FileManager.default.createFile(atPath: ready, contents: nil)
      })
    #expect(heldWhileAbsent)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "handed off\n")
    let lines = outcome.stderrLines
    let reveal = lines.firstIndex(of: "splashd: reveal: \(ready) exists")
    let will = lines.firstIndex { $0.hasPrefix("splashd: will-disappear") }
    #expect(reveal != nil && will != nil)
    if let reveal, let will { #expect(reveal < will) }
  }

  @Test func theTimeoutOpensTheGate() throws {
    let (_, outcome) = try spawnSplashd(
      quick + ["--until-file", dir.path + "/never", "--timeout", "0.3"], in: dir)
    #expect(outcome.status == 0)
    #expect(outcome.stderrLines.contains("splashd: reveal: timeout after 0.3 s (--timeout)"))
    #expect(outcome.stderrLines.contains { $0.hasPrefix("splashd: did-disappear") })
  }

  @Test func theHoldIsAMinimumCountedFromTheFirstFrame() throws {
    let ready = dir.file("ready", "")
    let (_, outcome) = try spawnSplashd(quick + ["--hold", "0.5", "--until-file", ready], in: dir)
    #expect(outcome.status == 0)
    let appeared = try #require(monotonic(outcome, "splashd: appeared"))
    let transition = try #require(monotonic(outcome, "splashd: will-disappear"))
    // Woken one 60 Hz period early, so that the first frame lands on time.
    #expect(transition - appeared >= 0.5 - 1.0 / 60 - 0.001)
    #expect(outcome.stderrLines.contains("splashd: reveal: \(ready) exists"))
  }

  @Test func sigtermWhileWaitingForTheGateEndsTheSplash() throws {
    let (_, outcome) = try spawnSplashd(
      quick + ["--until-file", dir.path + "/never", "--timeout", "0"], in: dir,
      whileRunning: { pid in
        usleep(500_000)
        kill(pid, SIGTERM)
      })
    #expect(outcome.status == 0)
    #expect(outcome.stderrLines.last == "splashd: ended early: SIGTERM")
  }

  @Test func theConfigFileCanSetTheGate() throws {
    let config = dir.file("gate.conf", "[handoff]\nuntil-file = flag\ntimeout = 0.2\n")
    let (_, outcome) = try spawnSplashd(["--config", config] + quick, in: dir)
    #expect(outcome.stderrLines.contains("splashd: reveal: timeout after 0.2 s (--timeout)"))
    FileManager.default.createFile(atPath: dir.path + "/flag", contents: nil)
    let (_, opened) = try spawnSplashd(["--config", config] + quick, in: dir)
    #expect(opened.stderrLines.contains("splashd: reveal: \(dir.path)/flag exists"))
  }
}
