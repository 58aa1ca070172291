// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// Questions asked on a held splash, in process, answered at a
/// pseudo-terminal standing in for the console.
@Suite struct QuestionsTests {
  /// A splash asking a question is not handed over (its answer would be
  /// lost with it); once answered, it may be.
  @Test func aSplashAskingAQuestionIsNotHandedOver() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    var asker: TestClient?
    var adopter: [String] = []
    var answer: [String] = []
    splash.clock.at(0.5) {
      asker = TestClient(splash.controlPath)
      asker?.send("ask-password Disk\n")
    }
    splash.clock.at(1) {
      let client = TestClient(splash.controlPath)
      client.send("handover\n")
      splash.clock.at(1.1) { adopter = client.replies }
    }
    splash.clock.at(2) { console.type("pw\r") }
    splash.clock.at(2.1) {
      answer = asker?.replies ?? []
      TestClient(splash.controlPath).send("reveal\n")
    }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath, "--prompt-tty", console.terminal,
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(adopter == ["error handover: a question waits for its answer here"])
    #expect(answer == ["ok pw"])
    #expect(splash.revealReason == "splashctl reveal")
  }

  /// A question that cannot be asked (the prompt's terminal is not one)
  /// is answered with why, naming the terminal, not with "the splash ended
  /// first": the splash goes on.
  @Test func aQuestionThatCannotBeAskedSaysWhy() throws {
    let splash = try Harness()
    var answer: [String] = []
    var status: [String] = []
    splash.clock.at(0.5) {
      let asker = TestClient(splash.controlPath)
      asker.send("ask-password Disk\n")
      splash.clock.at(0.6) {
        answer = asker.replies
        let client = TestClient(splash.controlPath)
        client.send("status\n")
        splash.clock.at(0.7) {
          status = client.replies
          TestClient(splash.controlPath).send("reveal\n")
        }
      }
    }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0",
      "--control", splash.controlPath, "--prompt-tty", "/dev/null",
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(answer == ["error ask-password: no answer: /dev/null: not a terminal"])
    #expect(status.first?.hasPrefix("ok phase=waiting ") == true, "\(status)")
    #expect(splash.revealReason == "splashctl reveal")
  }

  /// The options of a held splash whose questions are answered at `console`.
  func holding(_ splash: Harness, _ console: String, timeout: String = "0") -> [String] {
    [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", timeout,
      "--control", splash.controlPath, "--prompt-tty", console,
    ]
  }

  /// A question dies with its asker's connection (a boot script's `timeout
  /// 5 splashctl ask-password` killed): it no longer holds the splash past
  /// its timeout, nor waits for a key nobody will press.
  @Test func aQuestionDiesWithItsAskersConnection() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    var asking: Bool?
    var after: Bool?
    splash.clock.at(0.5) {
      let asker = TestClient(splash.controlPath)
      asker.send("ask-password Disk\n")
      splash.clock.at(0.6) { asking = splash.session?.controller.isAsking }
      splash.clock.at(1) { asker.hangUp() }
      splash.clock.at(1.5) { after = splash.session?.controller.isAsking }
    }
    #expect(splash.run(holding(splash, console.terminal, timeout: "3")) == .exit(0))
    #expect(asking == true && after == false)
    #expect(splash.gateTimedOut, "\(splash.lines)")
  }

  /// One connection has at most four questions waiting; those beyond are
  /// refused at once (their replies in order, after the answers before
  /// them), and never queue behind the real question.
  @Test func anAskerHasAtMostFourQuestionsWaiting() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    var replies: [String] = []
    var waiting: Int?
    splash.clock.at(0.5) {
      let asker = TestClient(splash.controlPath)
      asker.send(String(repeating: "ask-question Again?\n", count: Questions.maxPerAsker + 2))
      splash.clock.at(0.6) { waiting = splash.session?.controller.questions?.waiting }
      // One answer at a time: what is typed after an answer is not the next's.
      for (index, key) in ["a", "b", "c", "d"].enumerated() {
        splash.clock.at(0.7 + Double(index) / 10) { console.type(key + "\r") }
      }
      splash.clock.at(1.2) {
        replies = asker.replies
        TestClient(splash.controlPath).send("reveal\n")
      }
    }
    #expect(splash.run(holding(splash, console.terminal)) == .exit(0))
    #expect(waiting == Questions.maxPerAsker)
    let refused =
      "error ask-question: no answer: this connection has \(Questions.maxPerAsker) questions waiting; ask once "
      + "they are answered"
    #expect(replies == ["ok a", "ok b", "ok c", "ok d", refused, refused], "\(replies)")
  }

  /// Root's question (the system's: a disk's passphrase) goes before a
  /// user's, even one asked first and shown already, and what was typed for
  /// that one is dropped; a user's question is shown as that user's; each
  /// answer goes to its asker alone.
  @Test func rootsQuestionGoesFirstAndAUsersIsShownAsTheirs() throws {
    let splash = try Harness()
    let console = try PseudoTerminal()
    let user = Asker(connection: Asker.connection(), uid: 4242)
    let root = Asker(connection: Asker.connection(), uid: 0)
    var prompts: [String?] = []
    var answers: [PendingAnswer] = []
    var poke: TestClient?
    func prompt() { prompts.append(splash.session?.stage.status.prompt) }
    func ask(by asker: Asker) {
      let question = Question(.password, prompt: "Please unlock disk root:")
      if case .answer(let pending) = splash.session?.controller.execute(.ask(question), because: "test", from: asker) {
        answers.append(pending)
      }
    }
    splash.clock.at(0.5) {
      ask(by: user)
      prompt()
      // A connection makes the run loop look again: at the terminal too.
      poke = TestClient(splash.controlPath)
    }
    splash.clock.at(0.6) { console.type("half") }
    splash.clock.at(0.7) {
      prompt()
      ask(by: root)
      prompt()
    }
    splash.clock.at(1) { console.type("key\r") }
    splash.clock.at(1.2) {
      prompt()
      console.type("mine\r")
    }
    splash.clock.at(1.5) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(holding(splash, console.terminal)) == .exit(0))
    withExtendedLifetime(poke) {}
    let asks = "uid 4242 asks: Please unlock disk root: "
    #expect(prompts == [asks, asks + "••••", "Please unlock disk root: ", asks], "\(prompts)")
    let given = answers.map { $0.result.flatMap { try? $0.get() } }
    // What was typed before root asked went to nobody.
    #expect(given == ["mine", "key"], "\(given)")
  }
}
