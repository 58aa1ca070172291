// SPDX-License-Identifier: Apache-2.0
import SplashSystem
import Testing

@Suite struct EnvironmentTests {
  @Test func everyVariableReadsBackWholeWithWhatFollowsTheFirstEqualsSign() {
    Environment.set("SPLASHD_TEST_ENVIRONMENT_PAIR", "a=b==c ä")
    Environment.set("SPLASHD_TEST_ENVIRONMENT_EMPTY", "")
    let all = Environment.all()
    #expect(all["SPLASHD_TEST_ENVIRONMENT_PAIR"] == "a=b==c ä")
    #expect(all["SPLASHD_TEST_ENVIRONMENT_EMPTY"] == "")
    #expect(all["PATH"] == Environment.value("PATH"))
  }
}
