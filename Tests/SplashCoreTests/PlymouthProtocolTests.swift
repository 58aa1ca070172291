// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// Plymouth 22.02's requests, as Debian's `plymouth` client writes them.
@Suite struct PlymouthProtocolTests {
  /// The requests in `bytes`, or the problem that ends them.
  func requests(_ bytes: [UInt8]) -> Result<[PlymouthRequest], PlymouthRequestBuffer.Problem> {
    var buffer = PlymouthRequestBuffer()
    let (requests, problem) = buffer.append(bytes)
    return problem.map { .failure($0) } ?? .success(requests)
  }

  @Test func requestsWithAndWithoutAnArgument() {
    // plymouth --ping; display-message --text="Hello there"; quit --retain-splash; quit.
    #expect(requests([0x50, 0]) == .success([PlymouthRequest(command: 0x50, argument: nil)]))
    #expect(
      requests([0x4D, 2, 12] + Array("Hello there".utf8) + [0])
        == .success([PlymouthRequest(command: 0x4D, argument: Array("Hello there".utf8))]))
    #expect(requests([0x51, 2, 2, 1, 0]) == .success([PlymouthRequest(command: 0x51, argument: [1])]))
    #expect(requests([0x51, 2, 1, 0]) == .success([PlymouthRequest(command: 0x51, argument: [])]))
    #expect(PlymouthRequest(command: 0x75, argument: Array("30".utf8)).text == "30")
  }

  @Test func requestsSplitAcrossReadsAndSeveralInOne() {
    var buffer = PlymouthRequestBuffer()
    #expect(buffer.append([0x75, 2]).requests.isEmpty)
    #expect(buffer.append([3, 0x33]).requests.isEmpty)
    let both = buffer.append([0x30, 0, 0x50, 0, 0x6D])
    #expect(
      both.requests == [
        PlymouthRequest(command: 0x75, argument: Array("30".utf8)), PlymouthRequest(command: 0x50, argument: nil),
      ] && both.problem == nil)
    #expect(buffer.append([0]).requests == [PlymouthRequest(command: 0x6D, argument: nil)])
  }

  @Test func malformedRequestsAreRefused() {
    #expect(requests([0x50, 1]) == .failure(.malformed))  // neither NUL nor 0x02
    #expect(requests([0x4D, 2, 0]) == .failure(.malformed))  // a length of 0
    #expect(requests([0x4D, 2, 3, 0x41, 0x42, 0x43]) == .failure(.malformed))  // no NUL after the argument
    // Good requests before a bad one stand, even in the same read; the bad one ends the input.
    var buffer = PlymouthRequestBuffer()
    let read = buffer.append([0x50, 0, 0x50, 7])
    #expect(read.requests == [PlymouthRequest(command: 0x50, argument: nil)] && read.problem == .malformed)
  }

  @Test func eachRequestMapsToTheCommandItMeans() {
    func action(_ command: Character, _ text: String? = nil) -> PlymouthAction {
      PlymouthRequest(command: command.asciiValue!, argument: text.map { Array($0.utf8) }).action
    }
    for nothingToDo in ["P", "$", "H", "S", "R", "V", "C", "A", "a", "!", "U"] {
      #expect(action(Character(nothingToDo)) == .acknowledge, "\(nothingToDo)")
    }
    #expect(action("M", "Hello") == .command(.message("Hello")))
    #expect(action("M", "") == .command(.message(nil)))
    #expect(action("m", "Hello") == .command(.message(nil)))
    #expect(action("u", "30") == .command(.progress(30)))
    #expect(action("u", "150") == .command(.progress(100)))
    #expect(action("u", "lots") == .refuse)
    #expect(action("D") == .command(.pauseDrawing))
    #expect(action("r") == .command(.resumeDrawing))
    #expect(action("Q") == .command(.finish(retainingFrame: false)))
    #expect(
      PlymouthRequest(command: UInt8(ascii: "Q"), argument: [1]).action == .command(.finish(retainingFrame: true)))
    // Prompts are asked; cached passwords there are none of; anything unknown is refused.
    #expect(
      action("*", "Please unlock disk root:") == .command(.ask(Question(.password, prompt: "Please unlock disk root:")))
    )
    #expect(action("W", "Continue?") == .command(.ask(Question(.question, prompt: "Continue?"))))
    #expect(action("K", "yn") == .command(.ask(Question(.keystroke(keys: "yn"), prompt: ""))))
    #expect(action("K") == .command(.ask(Question(.keystroke(keys: nil), prompt: ""))))
    #expect(action("*", String(repeating: "x", count: Question.maxPromptBytes + 1)) == .refuse)
    #expect(action("c") == .answerNone)
    #expect(action("L") == .acknowledge)
    #expect(action("z") == .refuse)
    #expect(PlymouthRequest(command: UInt8(ascii: "Q"), argument: [1]).cause == "plymouth quit --retain-splash")
  }

  /// An answer goes back as plymouthd sends it: 0x02, the length in 32
  /// bits, least significant byte first, the bytes (Debian's client prints
  /// them).
  @Test func anAnswerIsItsLengthAndItsBytes() {
    #expect(PlymouthRequest.answer("s3cret") == [0x02, 6, 0, 0, 0] + Array("s3cret".utf8))
    #expect(PlymouthRequest.answer("") == [0x02, 0, 0, 0, 0])
    let long = String(repeating: "é", count: 300)  // 600 bytes
    #expect(PlymouthRequest.answer(long).prefix(5) == [0x02, 0x58, 0x02, 0, 0])
  }
}
