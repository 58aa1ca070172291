// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// The control socket, served from the run loop: commands executed by the
/// controller, replies, events, and clients that misbehave.
@Suite struct ControlTests {
  func held(_ splash: Harness) -> [String] {
    [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath,
    ]
  }

  /// `holding` during the minimum hold, `waiting` only while the gate
  /// holds past it, then `transition`.
  @Test func statusTellsThePhase() throws {
    let splash = try Harness()
    var client: TestClient?
    var replies: [String] = []
    func ask(at seconds: Double) {
      splash.clock.at(seconds) { client?.send("status\n") }
    }
    splash.clock.at(0.001) { client = TestClient(splash.controlPath) }
    ask(at: 0.5)
    ask(at: 3)
    splash.clock.at(4) { TestClient(splash.controlPath).send("reveal\n") }
    ask(at: 4.5)
    splash.clock.at(4.6) { replies = client?.replies ?? [] }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--hold", "2", "--duration", "1", "--until-reveal", "--timeout",
      "0", "--control", splash.controlPath, "--", "/bin/true",
    ]
    _ = splash.run(arguments)
    #expect(replies.count == 3, "\(replies)")
    let phases = replies.map { $0.split(separator: " ").dropFirst().first.map(String.init) }
    #expect(phases == ["phase=holding", "phase=waiting", "phase=transition"], "\(replies)")
    #expect(
      replies.first?.hasPrefix("ok phase=holding rotation=0 display=offscreen uptime_s=0.500 appeared_ms=") == true)
    #expect(splash.revealReason == "splashctl reveal")
    // The socket is removed on the way out.
    #expect(!FileManager.default.fileExists(atPath: splash.controlPath))
  }

  @Test func quitEndsTheSplashWithoutItsTransitionAndHandsOff() throws {
    let splash = try Harness()
    splash.clock.at(1) { TestClient(splash.controlPath).send("quit\n") }
    let ending = splash.run(held(splash) + ["--", "/bin/true"])
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(splash.stopReason == "splashctl quit")
    #expect(!splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
  }

  @Test func eventsReachEveryWaitingClientOnceTheyHappen() throws {
    let splash = try Harness()
    var waiters: [TestClient] = []
    var late: TestClient?
    var before: [[String]] = []
    splash.clock.at(0.5) {
      for event in ["did-disappear", "did-disappear", "will-disappear", "appeared"] {
        let client = TestClient(splash.controlPath)
        client.send("wait \(event)\n")
        waiters.append(client)
      }
    }
    splash.clock.at(1) {
      before = waiters.map(\.replies)
      TestClient(splash.controlPath).send("reveal\n")
    }
    splash.clock.at(1.02) {
      late = TestClient(splash.controlPath)
      late?.send("wait will-disappear\n")
    }
    #expect(splash.run(held(splash)) == .exit(0))
    // Before the reveal, only the event that had happened was answered.
    #expect(before == [[], [], [], ["ok appeared"]])
    #expect(
      waiters.map(\.replies) == [["ok did-disappear"], ["ok did-disappear"], ["ok will-disappear"], ["ok appeared"]])
    #expect(late?.replies == ["ok will-disappear"])
    // Then splashd closed the connections.
    #expect(waiters.allSatisfy { $0.received().closed })
  }

  /// A client that hangs up is dropped at once, whatever it waited for:
  /// left in the poll set it would read ready for ever and spin the loop
  /// (the test clock fails a test that spins).
  @Test func aWaiterThatHangsUpIsDroppedAndTheSplashGoesOn() throws {
    let splash = try Harness()
    var waiter: TestClient?
    var halfClosed: TestClient?
    splash.clock.at(0.5) {
      waiter = TestClient(splash.controlPath)
      waiter?.send("wait did-disappear\n")
      halfClosed = TestClient(splash.controlPath)
      halfClosed?.send("wait did-disappear\nstatus\n")
      shutdown(halfClosed!.fd, Int32(SHUT_WR))
    }
    splash.clock.at(1) { waiter?.hangUp() }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash) + ["--timeout", "10"]) == .exit(0))
    #expect(splash.revealReason == "splashctl reveal", "\(splash.lines)")
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
    // The half-closed client got its status answer, then was let go.
    let (text, closed) = halfClosed!.received()
    #expect(text.hasPrefix("ok phase=waiting ") && closed, "\(text)")
  }

  /// A full table of silent clients cannot lock splashctl out: a new
  /// client always gets in, the one idle longest making room.
  @Test func silentClientsMakeRoomForOnesThatSpeak() throws {
    let splash = try Harness()
    var silent: [TestClient] = []
    var speakers: [TestClient] = []
    // One at a time: the listen queue is shorter than the table.
    for index in 0..<ControlServer.maxClients {
      splash.clock.at(0.1 + Double(index) * 0.001) { silent.append(TestClient(splash.controlPath)) }
    }
    for time in [1.0, 1.5] {
      splash.clock.at(time) {
        let speaker = TestClient(splash.controlPath)
        speaker.send("status\n")
        speakers.append(speaker)
      }
    }
    splash.clock.at(3) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    for speaker in speakers {
      #expect(speaker.replies.first?.hasPrefix("ok phase=waiting") == true, "\(speaker.replies)")
    }
    let dropped = "error dropped: 64 clients at once are the most, and this one was idle longest"
    #expect(silent.prefix(3).map(\.replies) == [[dropped], [dropped], [dropped]])
    #expect(silent[3].replies.isEmpty)
  }

  /// Clients that trickle a byte now and then, without ever finishing a
  /// line, cannot lock splashctl out either: a line must be finished
  /// within 5 s, and a new client takes the place of the slowest.
  @Test func tricklingClientsAreDroppedAndNeverLockOthersOut() throws {
    let splash = try Harness()
    var tricklers: [TestClient] = []
    var asker: TestClient?
    for index in 0..<ControlServer.maxClients {
      splash.clock.at(0.1 + Double(index) * 0.001) {
        let client = TestClient(splash.controlPath)
        client.send("s")
        tricklers.append(client)
      }
    }
    for second in stride(from: 2.0, to: 12, by: 2) {
      splash.clock.at(second) { for client in tricklers { client.send("t") } }
    }
    splash.clock.at(3) {
      asker = TestClient(splash.controlPath)
      asker?.send("status\n")
    }
    splash.clock.at(12) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(asker?.replies.first?.hasPrefix("ok phase=waiting") == true, "\(String(describing: asker?.replies))")
    // The first made room; the others ran out of time 5 s after their line began.
    #expect(tricklers[0].replies == ["error dropped: 64 clients at once are the most, and this one was idle longest"])
    #expect(tricklers[1...].allSatisfy { $0.replies == ["error the line was not finished within 5 s"] })
  }

  /// A good line is served even when the same read holds a bad one: a
  /// `reveal` before a NUL byte still reveals, and the lines after it are
  /// answered in order.
  @Test func goodLinesInTheSameReadAsABadOneAreServed() throws {
    let splash = try Harness()
    var client: TestClient?
    splash.clock.at(0.5) {
      client = TestClient(splash.controlPath)
      let bytes = Array("reveal\n".utf8) + [0x00, 0x0A] + Array("wait will-disappear\n".utf8)
      client.map { client in _ = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress, bytes.count, 0) } }
    }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(splash.revealReason == "splashctl reveal")
    #expect(client?.replies == ["ok", "error not text", "ok will-disappear"])
  }

  @Test func badLinesGetAnErrorAndNeverDisturbTheSplash() throws {
    let splash = try Harness()
    var binary: TestClient?
    var huge: TestClient?
    var unknown: TestClient?
    splash.clock.at(0.5) {
      binary = TestClient(splash.controlPath)
      binary.map { client in _ = [UInt8]([0x00, 0xFF, 0x0A]).withUnsafeBytes { send(client.fd, $0.baseAddress, 3, 0) } }
      huge = TestClient(splash.controlPath)
      huge?.send(String(repeating: "r", count: 5000))
      unknown = TestClient(splash.controlPath)
      unknown?.send("dance\u{1B}[2J\nstatus\n")
    }
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(splash.revealReason == "splashctl reveal")
    #expect(binary?.received().text == "error not text\n")
    #expect(huge?.received().text == "error line longer than 4096 bytes\n")
    #expect(
      unknown?.replies == [
        "error unknown command \"dance\\x1B[2J\"; known: "
          + ControlCommandTable.all.filter(\.listed).map(\.name).joined(separator: ", "),
        "ok phase=waiting rotation=0 display=offscreen uptime_s=0.500 appeared_ms=0.0",
      ])
  }

  @Test func rotateTurnsAHeldSplashButNotMovingDoors() throws {
    let splash = try Harness()
    var early: TestClient?
    var late: TestClient?
    splash.clock.at(0.2) {
      early = TestClient(splash.controlPath)
      early?.send("rotate 180\nstatus\n")
    }
    splash.clock.at(0.5) { TestClient(splash.controlPath).send("reveal\n") }
    splash.clock.at(1) {
      late = TestClient(splash.controlPath)
      late?.send("rotate 90\n")
    }
    let ending = splash.run(
      [
        "--display", "offscreen", "--size", "32x32", "--duration", "60", "--until-reveal", "--timeout", "0",
        "--control", splash.controlPath, "--", "/bin/true",
      ]
      .map { $0 == "60" ? "2" : $0 })
    #expect(early?.replies.first == "ok")
    #expect(early?.replies.last?.hasPrefix("ok phase=waiting rotation=180 ") == true)
    #expect(late?.replies == ["error rotate: the transition has started; the angle stays 180"])
    #expect(splash.lines.contains("splashd: turned to 180 degrees (splashctl rotate)"))
    #expect(splash.rotations == [.none, .half])
    guard case .handOff(_, let environment) = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(environment == ["SPLASHD_ROTATION": "180"])
  }

  /// Turned to portrait while it holds, the splash takes the picture made
  /// for portrait.
  @Test func turningToPortraitTakesThePortraitPicture() throws {
    let splash = try Harness()
    let wide = splash.dir.solidPNG("wide.png", width: 40, height: 30, rgb: (9, 9, 9))
    let tall = splash.dir.solidPNG("tall.png", width: 30, height: 40, rgb: (7, 7, 7))
    splash.clock.at(0.2) { TestClient(splash.controlPath).send("rotate 90\n") }
    splash.clock.at(0.3) { TestClient(splash.controlPath).send("rotate 180\n") }
    splash.clock.at(0.4) { TestClient(splash.controlPath).send("quit\n") }
    _ = splash.run(
      [
        "--display", "offscreen", "--size", "64x32", "--image", wide, "--image-portrait", tall, "--until-reveal",
        "--timeout", "0", "--control", splash.controlPath,
      ])
    #expect(splash.lines.contains("splashd: turned to 90 degrees (splashctl rotate); pictures: image-portrait"))
    #expect(splash.lines.contains("splashd: turned to 180 degrees (splashctl rotate); pictures: image"))
  }

  /// A socket left by a splashd that ended (SIGKILL, say) is replaced, and
  /// the log says so.
  @Test func aStaleSocketFileIsReplacedAndABadGroupOnlyCostsTheSocket() throws {
    let splash = try Harness()
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let bound = withUnixAddress(splash.controlPath) { bind(stale, $0, $1) }
    #expect(bound == 0)
    close(stale)  // the file stays, with nobody listening
    var client: TestClient?
    splash.clock.at(0.3) {
      client = TestClient(splash.controlPath)
      client?.send("reveal\n")
    }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(client?.replies == ["ok"])
    #expect(
      splash.lines.contains(
        "splashd: \(splash.controlPath): replaced a control socket nobody answered on (left by a splashd that ended)"))
    let noGroup = try Harness()
    #expect(
      noGroup.run(
        [
          "--display", "offscreen", "--size", "32x32", "--duration", "0", "--control", noGroup.controlPath,
          "--control-group", "no-such-group-here",
        ]) == .exit(0))
    #expect(
      noGroup.lines.contains { $0.hasPrefix("splashd: --control \(noGroup.controlPath): no control socket: ") },
      "\(noGroup.lines)")
  }
}
