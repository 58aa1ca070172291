// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct CRTCAssignmentTests {
  typealias Connector = CRTCAssignment.Connector

  @Test func aConnectorKeepsTheCRTCThatDrivesItNow() {
    let connectors = [
      Connector(id: 1, current: nil, possible: [10, 11]),
      Connector(id: 2, current: 10, possible: [10, 11]),
    ]
    // The first would take 10 if it went first; the second keeps it.
    #expect(CRTCAssignment.assign(connectors) == [2: 10, 1: 11])
  }

  @Test func eachCRTCDrivesOneConnectorAndTheRestGoWithout() {
    let connectors = [
      Connector(id: 1, current: nil, possible: [10]),
      Connector(id: 2, current: nil, possible: [10]),
      Connector(id: 3, current: nil, possible: [10, 11]),
    ]
    #expect(CRTCAssignment.assign(connectors) == [1: 10, 3: 11])
  }

  @Test func aCurrentCRTCTheEncoderCannotUseOrTwoClaimIsNotKept() {
    let connectors = [
      Connector(id: 1, current: 12, possible: [10]),
      Connector(id: 2, current: 11, possible: [11]),
      Connector(id: 3, current: 11, possible: [11, 13]),
    ]
    #expect(CRTCAssignment.assign(connectors) == [1: 10, 2: 11, 3: 13])
  }
}
