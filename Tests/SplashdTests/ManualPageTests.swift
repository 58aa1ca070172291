// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// The manual pages and completions as splashd-docs writes them: groff
/// renders each page without a warning, man(1) shows it, and bash
/// completes options, values and commands with the completions sourced.
@Suite struct ManualPageTests {
  /// Runs splashd-docs (built beside splashd) into a scratch folder.
  func docs() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory()
    let made = try run(URL(fileURLWithPath: splashdPath).deletingLastPathComponent().path + "/splashd-docs", [dir.path])
    #expect(made.status == 0, "\(made.stderr)")
    return dir
  }

  @Test(arguments: ["man/splashd.8", "man/splashd.conf.5", "man/splashctl.1"])
  func groffRendersThePageWithoutWarnings(page: String) throws {
    let dir = try docs()
    let checked = try run("/usr/bin/groff", ["-man", "-ww", "-z", dir.path + "/" + page])
    #expect(checked.status == 0 && checked.stderr.isEmpty, "\(page): \(checked.stderr)")
    let shown = try run(
      "/usr/bin/man", ["-l", dir.path + "/" + page],
      environment: ["MANPAGER": "cat", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"])
    #expect(shown.status == 0, "\(shown.stderr)")
    let name = String(page.split(separator: "/").last!.split(separator: ".").first!)
    #expect(shown.stdout.contains("NAME") && shown.stdout.contains(name), "\(shown.stdout.prefix(400))")
  }

  /// What bash's completion offers for `words` (the last being completed).
  func complete(_ dir: TemporaryDirectory, _ command: String, _ words: [String]) throws -> [String] {
    let quoted = ([command] + words).map { "'\($0)'" }.joined(separator: " ")
    let script = """
      source \(dir.path)/completions/\(command)
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
      _\(command)
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let outcome = try run("/bin/bash", ["-c", script])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return outcome.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesOptionsValuesAndCommands() throws {
    let dir = try docs()
    #expect(try complete(dir, "splashd", ["--disp"]) == ["--display"])
    #expect(
      try complete(dir, "splashd", ["--display", ""]) == ["auto", "window", "kms", "kmsdrm", "fbdev", "offscreen"])
    #expect(try complete(dir, "splashd", ["--transition", "c"]) == ["crossfade"])
    #expect(try complete(dir, "splashd", ["--rotate", ""]) == ["0", "90", "180", "270", "auto"])
    #expect(try complete(dir, "splashd", ["--che"]) == ["--check"])
    #expect(try complete(dir, "splashctl", [""]) == SplashctlUsage.commands.map(\.name))
    #expect(try complete(dir, "splashctl", ["wait", ""]) == ["appeared", "will-disappear", "did-disappear"])
    #expect(try complete(dir, "splashctl", ["rotate", "2"]) == ["270"])
  }
}
