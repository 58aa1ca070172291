// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

@Suite struct NotifyTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  func splashd(_ arguments: [String], environment extra: [String: String]) throws -> Outcome {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    environment["WAYLAND_DISPLAY"] = nil
    for (key, value) in extra { environment[key] = value }
    return try run(splashdPath, ["--config", dir.testConfig] + arguments, environment: environment)
  }

  @Test(arguments: ["path", "abstract"])
  func readyIsSentOnceTheFirstFrameIsShownThenEachStatus(kind: String) throws {
    let name = kind == "path" ? dir.path + "/notify" : "@splashd-test-\(UUID().uuidString)"
    let socket = try NotifySocket(name)
    let outcome = try splashd(
      ["--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-file", dir.testConfig],
      environment: ["NOTIFY_SOCKET": name])
    #expect(outcome.status == 0)
    let messages = socket.received()
    #expect(messages.count == 4, "\(messages)")
    #expect(messages.first?.hasPrefix("READY=1\nSTATUS=Splash shown, first frame ") == true)
    #expect(messages.dropFirst().first == "STATUS=Revealing: \(dir.testConfig) exists")
    #expect(messages.dropFirst(2).first == "STATUS=Transition doors running")
    #expect(messages.last == "STATUS=Splash done")
  }

  @Test func aFailedSplashStillSaysReadyBeforeHandingOff() throws {
    let socket = try NotifySocket(dir.path + "/notify")
    let outcome = try splashd(
      ["--image", dir.path + "/absent.png", "--", "/bin/sh", "-c", "exit 0"],
      environment: ["NOTIFY_SOCKET": dir.path + "/notify"])
    #expect(outcome.status == 0)
    let messages = socket.received()
    #expect(messages.count == 1)
    #expect(messages.first?.hasPrefix("READY=1\nSTATUS=Splash failed: --image ") == true)
  }

  @Test func linesCarryJournalPrioritiesWhenStandardErrorIsTheJournal() throws {
    let errPath = dir.path + "/journal"
    writeFile(atPath: errPath, contents: nil)
    let attributes = try FileManager.default.attributesOfItem(atPath: errPath)
    let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value ?? 0
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    // What systemd gives a service: nothing the program would not be
    // passed (such names are said in a line of their own first).
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "JOURNAL_STREAM": "\(device):\(inode)",
    ]
    let process = try SpawnedChild(
      splashdPath,
      [
        "--config", dir.testConfig, "--display", "offscreen", "--size", "32x32", "--duration", "0",
        "--image", dir.path + "/absent.png", "--", "/bin/true",
      ], environment: environment, standardError: .file(errPath))
    #expect(process.wait(seconds: 30))
    let lines = try String(contentsOfFile: errPath, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.first == "<6>splashd: offscreen: 32x32 in memory", "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix("<3>splashd: --image ") == true, "\(lines)")
    #expect(lines.last == "<6>splashd: handing off to /bin/true")
  }

  @Test func withoutTheJournalLinesAreBare() throws {
    let outcome = try splashd(["--rotate", "45", "--check"], environment: ["JOURNAL_STREAM": "1:2"])
    #expect(outcome.stderrLines == ["splashd: --rotate: expected 0, 90, 180, 270 or auto, got \"45\""])
  }
}
