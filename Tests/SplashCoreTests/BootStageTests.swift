// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

/// The kernel command line's say over a boot splash, and the state one
/// splashd hands to the one that adopts it.
@Suite struct BootStageTests {
  @Test(
    arguments: [
      ("quiet splash", BootStage.initramfs, SplashWordDefault.hide, nil),
      ("quiet", .root, .show, nil),
      ("quiet", .root, .hide, "the kernel command line has no splash word (without-splash-word = hide)"),
      ("splash nosplash", .root, .show, "the kernel command line says nosplash"),
      ("splash splashd.enable=0", .shutdown, .show, "the kernel command line says splashd.enable=0"),
      ("ro single", .root, .show, "the kernel command line says single"),
      ("splash splashd.initramfs=0", .initramfs, .show, "the kernel command line says splashd.initramfs=0"),
      ("splash splashd.initramfs=0", .root, .show, nil),
      // Only whole words count.
      (
        "splashy nosplashing splashd.enable=01", .root, .hide,
        "the kernel command line has no splash word (without-splash-word = hide)"
      ),
      ("root=/dev/vda\tnosplash\n", .root, .show, "the kernel command line says nosplash"),
    ] as [(String, BootStage, SplashWordDefault, String?)])
  func theKernelCommandLineDecides(words: String, stage: BootStage, without: SplashWordDefault, refusal: String?) {
    #expect(KernelCommandLineSplash.refusal(words, stage: stage, withoutSplashWord: without) == refusal)
  }

  @Test func aHandoverStateReadsBackAsItself() {
    let state = AdoptionState(
      display: "kms", cards: ["/dev/dri/card0", "/dev/dri/card1"], rotation: .quarter,
      status: BootStatus(progress: 40, message: "Checking disks: message= and all"))
    #expect(state.text.hasPrefix("handover display=kms rotation=90 cards=/dev/dri/card0,/dev/dri/card1 progress=40 "))
    #expect(AdoptionState.parse(state.text) == state)
    let bare = AdoptionState(display: "fbdev", cards: [], rotation: .none, status: BootStatus())
    #expect(bare.text == "handover display=fbdev rotation=0")
    #expect(AdoptionState.parse(bare.text) == bare)
  }

  @Test(arguments: [
    "", "handover", "handover rotation=0", "ok handover display=kms", "handover display=kms rotation=45",
    "handover display=kms cards=/etc/passwd", "handover display=kms cards=/dev/../etc/shadow",
    "handover display=kms cards=/dev/dri/card0,", "handover display=kms display=fbdev", "handover display=k/s",
    "handover display=kms progress=101", "handover display=kms colour=red", "handover display=kms message=",
    "handover display=kms stray",
  ])
  func aHandoverStateThatIsNotOneIsRefused(text: String) {
    #expect(AdoptionState.parse(text) == nil)
  }

  @Test func handoverIsAControlCommandWithoutArguments() {
    #expect(ControlCommand.parse("handover") == .success(.handover))
    #expect(ControlCommand.parse("handover now") == .failure(ControlError("handover takes no argument")))
  }
}
