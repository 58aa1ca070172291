// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct ScanoutChoiceTests {
  let screen = ScanoutChoice.Screen(mode: PixelSize(width: 1920, height: 1080), turn: .none)
  let frame = PixelSize(width: 1920, height: 1080)

  @Test func aFrameThatIsTheOnlyScreensWholePictureMayBeScannedOut() {
    #expect(ScanoutChoice.refusal(frame: frame, screens: [screen], splashShows: false) == nil)
  }

  @Test func theSplashOnTheScreenKeepsTheFrameComposed() {
    #expect(
      ScanoutChoice.refusal(frame: frame, screens: [screen], splashShows: true) == "the splash is on the screen")
  }

  @Test func aWindowOnSeveralScreensOrNoneIsComposed() {
    #expect(
      ScanoutChoice.refusal(frame: frame, screens: [screen, screen], splashShows: false)
        == "the window is shown on 2 screens")
    #expect(ScanoutChoice.refusal(frame: frame, screens: [], splashShows: false) == "the window is shown on 0 screens")
  }

  @Test func aTurnedScreenIsComposed() {
    let turned = ScanoutChoice.Screen(mode: screen.mode, turn: .half)
    #expect(
      ScanoutChoice.refusal(frame: frame, screens: [turned], splashShows: false)
        == "the screen is turned 180 degrees")
  }

  @Test func aFrameOfAnotherSizeIsComposed() {
    let small = PixelSize(width: 1280, height: 720)
    #expect(
      ScanoutChoice.refusal(frame: small, screens: [screen], splashShows: false)
        == "a 1280x720 frame on a 1920x1080 screen")
  }
}
