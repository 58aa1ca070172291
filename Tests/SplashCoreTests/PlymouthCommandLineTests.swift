// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// Plymouth's client command line as splashd answers it under the name
/// `plymouth`: the lines it sends to the control socket.
@Suite struct PlymouthCommandLineTests {
  func lines(_ arguments: String...) -> [String]? {
    guard case .success(let translation) = PlymouthCommandLine.parse(arguments) else { return nil }
    return translation.lines
  }

  func refusal(_ arguments: String...) -> String? {
    guard case .failure(let error) = PlymouthCommandLine.parse(arguments) else { return nil }
    return error.message
  }

  @Test func whatBootScriptsRunBecomesControlLines() {
    #expect(lines("--ping") == ["status"])
    // cryptsetup's askpass: --prompt and its value as two arguments; the answer is printed.
    #expect(
      PlymouthCommandLine.parse(["ask-for-password", "--prompt", "Please unlock disk root"])
        == .success(.init(["ask-password Please unlock disk root"], printsAnswer: true)))
    #expect(lines("ask-for-password", "--prompt=Disk", "--number-of-tries=3") == ["ask-password Disk"])
    #expect(lines("ask-question", "--prompt=Name?") == ["ask-question Name?"])
    #expect(lines("display-message", "--text=Resuming from hibernation") == ["message Resuming from hibernation"])
    #expect(lines("message", "--text", "Hello") == ["message Hello"])
    #expect(lines("hide-message", "--text=Hello") == ["message"])
    #expect(lines("system-update", "--progress=40") == ["progress 40"])
    // quit gives the console the screen at once, as plymouthd quitting; --retain-splash keeps the splash's
    // transition and its last frame.
    #expect(lines("quit") == ["step-aside"])
    #expect(lines("quit", "--retain-splash") == ["reveal", "wait did-disappear"])
    #expect(lines("--wait") == ["wait did-disappear"])
    // Nothing splashd shows: done at once, as its Plymouth socket ACKs them.
    for nothing in ["--sysinit", "--newroot=/root", "show-splash", "update", "pause-progress"] {
      #expect(lines(nothing) == [], "\(nothing)")
    }
  }

  @Test func whatCannotBeDoneIsRefusedWithAReason() {
    #expect(refusal() == "no command given")
    #expect(refusal("dance") == "unknown command \"dance\"")
    #expect(
      refusal("ask-for-password", "--command=cryptsetup open /dev/sda2 root")
        == "ask-for-password --command is not supported: the answer is printed; pipe it instead")
    #expect(
      refusal("display-message", "--colour=red")
        == "display-message: --colour is not an option splashd's plymouth takes")
    #expect(refusal("system-update") == "system-update needs --progress=N and nothing else")
    #expect(refusal("display-message", "--text") == "--text needs a value")
    #expect(refusal("deactivate") == "deactivate is not supported here (splashd's compat = plymouth answers it)")
    // A line break would end the control line and start another command there.
    #expect(refusal("display-message", "--text", "a\nquit") == "a value holds a control character: a\\nquit")
    #expect(refusal("display-message", "--text=a\nquit") == "an option holds a control character: --text=a\\nquit")
  }
}
