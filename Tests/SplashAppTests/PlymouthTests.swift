// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// `--compat plymouth`: Plymouth's socket, in process, on a name of the
/// test's own (the real client and the real name: PlymouthClientTests).
@Suite struct PlymouthTests {
  let name = "/splashd-test/plymouth-\(UUID().uuidString)"

  func held(_ splash: Harness, _ extra: [String] = []) -> [String] {
    splash.screens.size = PixelSize(width: 200, height: 100)
    return [
      "--display", "screen", "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
      splash.controlPath, "--compat", "plymouth", "--plymouth-socket", name,
    ] + extra
  }

  /// A request as the plymouth client sends it: the command and a NUL, or
  /// the command, 0x02, the argument's length + 1, the argument, a NUL.
  func request(_ command: Character, _ argument: [UInt8]? = nil) -> [UInt8] {
    let byte = command.asciiValue!
    guard let argument else { return [byte, 0] }
    return [byte, 2, UInt8(argument.count + 1)] + argument + [0]
  }

  func request(_ command: Character, _ text: String) -> [UInt8] { request(command, Array(text.utf8)) }

  func send(_ client: TestClient, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  @Test func eachRequestIsAnsweredAsPlymouthWould() throws {
    let splash = try Harness()
    var client: TestClient?
    var replies: [UInt8] = []
    var status: [String] = []
    splash.clock.at(0.2) {
      client = TestClient("@" + name)
      send(client!, request("P") + request("M", "Hello") + request("u", "30") + request("U", "fsck 50%"))
      send(client!, request("$") + request("V") + request("*") + request("W", "Your name?") + request("K", "y"))
      send(client!, request("m", "Hello") + request("u", "lots"))
    }
    splash.clock.at(0.3) {
      replies = client?.bytes ?? []
      let asker = TestClient(splash.controlPath)
      asker.send("status\n")
      splash.clock.at(0.35) { status = asker.replies }
    }
    splash.clock.at(0.5) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    // ping, message, progress, status; show-splash, has-active-vt; password, question, keystroke: asked, and
    // with no terminal to answer on (the tests' prompt-tty is /dev/null), no answer at once; hide-message; a
    // progress that is not a number: no.
    #expect(replies == [0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x05, 0x05, 0x05, 0x06, 0x15], "\(replies)")
    #expect(status.first?.hasSuffix(" progress=30") == true, "\(status)")
    #expect(splash.lines.contains("splashd: plymouth: status \"fsck 50%\""))  // a debug line
    #expect(splash.lines.contains("splashd: plymouth: refused the request 'u'"))
    #expect(
      splash.lines.contains("splashd: ask: /dev/null: not a terminal; the question goes unanswered"), "\(splash.lines)")
  }

  /// `quit` is answered once the splash has let go of the display;
  /// `--retain-splash` keeps its last frame there even with no program.
  @Test func quitIsAnsweredOnceTheSplashHasEnded() throws {
    for retain in [false, true] {
      let splash = try Harness()
      var client: TestClient?
      var before: [UInt8]?
      splash.clock.at(0.2) {
        client = TestClient("@" + name)
        send(client!, request("Q", retain ? [1] : []))
      }
      // The minimum hold lasts 1 s: still no answer meanwhile.
      splash.clock.at(0.6) { before = client?.bytes }
      #expect(splash.run(held(splash, ["--hold", "1"])) == .exit(0))
      #expect(before == [], "answered before the end: \(String(describing: before))")
      #expect(client?.bytes == [0x06])
      #expect(splash.revealReason == "plymouth quit\(retain ? " --retain-splash" : "")")
      #expect(splash.screens.opened.first?.keptLastFrame == retain)
    }
  }

  /// `deactivate` stops drawing (an animation's frames too) until `reactivate`.
  @Test func deactivateStopsDrawingUntilReactivate() throws {
    let splash = try Harness()
    let frames = try TemporaryDirectory()
    for n in 1...2 {
      try makePNG(width: 4, height: 4) { _, _ in (UInt8(n * 100), 0, 0) }.write(
        to: URL(fileURLWithPath: frames.path + "/\(n).png"))
    }
    var presents: [Double: Int] = [:]
    for time in [0.5, 1.0, 1.5, 2.0] {
      splash.clock.at(time) { presents[time] = splash.screens.opened.first?.presents }
    }
    splash.clock.at(0.51) { send(TestClient("@" + name), request("D")) }
    splash.clock.at(1.51) { send(TestClient("@" + name), request("r")) }
    splash.clock.at(2.0) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash, ["--animation", frames.path, "--animation-fps", "20"])) == .exit(0))
    let (atHalf, atOne, atOneAndHalf, atTwo) = (
      presents[0.5] ?? 0, presents[1.0] ?? 0, presents[1.5] ?? 0, presents[2.0] ?? 0
    )
    // At most the step due before the deactivate, then nothing; after the reactivate, 20 a second again.
    #expect(atOne - atHalf <= 1 && atOneAndHalf == atOne, "\(presents)")
    #expect(atTwo - atOneAndHalf >= 9, "\(presents)")
  }

  /// A quit while another program has the screen ends the splash without
  /// its transition (nothing more is drawn), and is answered.
  @Test func aQuitWhileDeactivatedEndsWithoutTheTransition() throws {
    let splash = try Harness()
    var quitter: TestClient?
    var presentsAtDeactivate = 0
    splash.clock.at(0.2) {
      send(TestClient("@" + name), request("D"))
      presentsAtDeactivate = splash.screens.opened.first?.presents ?? -1
    }
    splash.clock.at(0.3) {
      quitter = TestClient("@" + name)
      send(quitter!, request("Q", [1]))
    }
    let ending = splash.run(held(splash, ["--", "/bin/true"]))
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(splash.stopReason == "plymouth quit --retain-splash", "\(splash.lines)")
    #expect(splash.screens.opened.first?.presents == presentsAtDeactivate)
    #expect(quitter?.bytes == [0x06])
    #expect(splash.screens.opened.first?.keptLastFrame == true)
  }

  /// A malformed request closes that connection and nothing else.
  @Test func aMalformedRequestClosesOnlyItsConnection() throws {
    let splash = try Harness()
    var bad: TestClient?
    var good: TestClient?
    splash.clock.at(0.2) {
      bad = TestClient("@" + name)
      send(bad!, request("P") + [0x4D, 7])
      good = TestClient("@" + name)
      send(good!, request("P"))
    }
    splash.clock.at(0.5) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    let answered = bad?.received()
    #expect(bad?.bytes == [0x06] && answered?.closed == true)
    #expect(good?.bytes == [0x06])
  }

  @Test func aNameAnotherProgramListensOnIsLeftToIt() throws {
    let splash = try Harness()
    let other = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(other) }
    #expect(withUnixAddress("@" + name) { bind(other, $0, $1) } == 0 && listen(other, 1) == 0)
    splash.clock.at(0.5) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(
      splash.lines.contains(
        "splashd: --compat plymouth: @\(name): another program (a plymouthd?) listens there; no Plymouth socket"),
      "\(splash.lines)")
  }
}
