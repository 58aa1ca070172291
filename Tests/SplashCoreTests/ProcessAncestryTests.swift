// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct ProcessAncestryTests {
  /// 40 started by 30, started by 20, started by the program 10, started by init.
  let parents: [Int32: Int32] = [40: 30, 30: 20, 20: 10, 10: 1, 7: 1]

  @Test func aProgramsChildrenAndTheirsAreItsOwn() {
    #expect(ProcessAncestry.descends(40, from: 10) { parents[$0] })
    #expect(ProcessAncestry.descends(20, from: 10) { parents[$0] })
    #expect(ProcessAncestry.descends(10, from: 10) { parents[$0] })
  }

  @Test func othersAndItsOwnParentAreNot() {
    #expect(!ProcessAncestry.descends(7, from: 10) { parents[$0] })
    #expect(!ProcessAncestry.descends(1, from: 10) { parents[$0] })
    #expect(!ProcessAncestry.descends(10, from: 20) { parents[$0] })
    // A process already gone: its parent is not known.
    #expect(!ProcessAncestry.descends(99, from: 10) { parents[$0] })
  }

  @Test func theWalkIsBounded() {
    // A parent chain that loops (a table read as processes came and went).
    #expect(!ProcessAncestry.descends(5, from: 10) { $0 == 5 ? 6 : 5 })
    // Deeper than the limit.
    #expect(!ProcessAncestry.descends(200, from: 10, limit: 64) { $0 - 1 })
    #expect(ProcessAncestry.descends(70, from: 10, limit: 64) { $0 - 1 })
  }
}
