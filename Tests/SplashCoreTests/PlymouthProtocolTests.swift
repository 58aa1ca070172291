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
}
