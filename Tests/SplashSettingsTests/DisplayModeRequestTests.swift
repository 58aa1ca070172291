// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

@Suite struct DisplayModeRequestTests {
  @Test func parsesSizeAndRate() {
    #expect(DisplayModeRequest("1280x800") == DisplayModeRequest(size: PixelSize(width: 1280, height: 800)))
    #expect(DisplayModeRequest("1920x1080@60")?.refreshRate == 60)
    #expect(DisplayModeRequest("1920x1080@60")?.description == "1920x1080@60")
    for bad in ["1920x1080@", "1920x1080@0", "1920x1080@60@", "@60", "1920x1080@6O", "1920"] {
      #expect(DisplayModeRequest(bad) == nil, "\(bad)")
    }
  }

  @Test func matchesTheSizeAndTheRateWhenGiven() {
    let any = DisplayModeRequest(size: PixelSize(width: 800, height: 480))
    let sixty = DisplayModeRequest(size: PixelSize(width: 800, height: 480), refreshRate: 60)
    #expect(any.matches(PixelSize(width: 800, height: 480), refreshRate: 75))
    #expect(sixty.matches(PixelSize(width: 800, height: 480), refreshRate: 60))
    #expect(!sixty.matches(PixelSize(width: 800, height: 480), refreshRate: 75))
    #expect(!any.matches(PixelSize(width: 480, height: 800), refreshRate: 60))
  }
}
