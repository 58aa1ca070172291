// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct FramePacerTests {
  @Test func predictsTheNextVsyncOrSkipsAhead() {
    var pacer = FramePacer(period: 0.01)
    #expect(pacer.predictedPresentation(after: 5) == 5)
    pacer.didPresent(at: 5)
    #expect(abs(pacer.predictedPresentation(after: 5.002) - 5.01) < 1e-12)
    // 2.5 periods late: the next vsync on the grid is 3 periods on.
    #expect(abs(pacer.predictedPresentation(after: 5.025) - 5.03) < 1e-12)
    // Not before a given instant, but on the grid.
    #expect(abs(pacer.predictedPresentation(after: 5.001, notBefore: 5.044) - 5.05) < 1e-12)
    // An earliest time exactly on the grid stays there…
    #expect(abs(pacer.predictedPresentation(after: 5.001, notBefore: 5.04) - 5.04) < 1e-12)
    // …but a frame begun exactly on a vsync aims for the one after.
    #expect(abs(pacer.predictedPresentation(after: 5.02) - 5.03) < 1e-12)
  }
}
