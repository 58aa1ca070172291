// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct RequestPacerTests {
  /// Which of requests at `times` are served at once.
  static func served(_ pacer: inout RequestPacer, at times: [Double]) -> [Bool] {
    times.map { pacer.request(at: $0) }
  }

  @Test func theFirstRequestIsServedAtOnce() {
    var pacer = RequestPacer(interval: 0.016)
    #expect(Self.served(&pacer, at: [10]) == [true])
    #expect(pacer.dueTime == nil && !pacer.isWaiting)
  }

  @Test func aRequestSoonerThanTheIntervalWaitsForIt() {
    var pacer = RequestPacer(interval: 0.5)
    #expect(Self.served(&pacer, at: [10, 10.2]) == [true, false])
    #expect(pacer.dueTime == 10.5)
    let early = pacer.serveDue(at: 10.4)
    let due = pacer.serveDue(at: 10.5)
    #expect(!early && due)
    #expect(pacer.lastServed == 10.5 && pacer.dueTime == nil)
    // Served once: nothing is due after.
    let again = pacer.serveDue(at: 11)
    #expect(!again)
  }

  @Test func requestsThatComeWhileOneWaitsAreServedOnceWithIt() {
    var pacer = RequestPacer(interval: 1)
    #expect(Self.served(&pacer, at: [0, 0.1, 0.2, 0.3, 0.9]) == [true, false, false, false, false])
    #expect(pacer.dueTime == 1)
    let first = pacer.serveDue(at: 1.2)
    let second = pacer.serveDue(at: 1.3)
    #expect(first && !second && pacer.dueTime == nil)
    // The next is measured from when that one was served.
    #expect(Self.served(&pacer, at: [2.1]) == [false])
    #expect(pacer.dueTime == 2.2)
  }

  @Test func aRequestAfterTheIntervalIsServedAtOnce() {
    var pacer = RequestPacer(interval: 0.25)
    #expect(Self.served(&pacer, at: [1, 1.25, 3]) == [true, true, true])
    #expect(pacer.lastServed == 3)
  }

  @Test func aZeroIntervalServesEveryRequest() {
    var pacer = RequestPacer(interval: 0)
    #expect(Self.served(&pacer, at: [1, 1, 1]) == [true, true, true])
  }
}
