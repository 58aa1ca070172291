// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

@Suite struct ShellWordsTests {
  @Test(arguments: [
    ("a b  c", ["a", "b", "c"]),
    ("'a b' \"c d\"", ["a b", "c d"]),
    (#"a\ b"#, ["a b"]),
    (#""a\"b" 'x\y'"#, [#"a"b"#, #"x\y"#]),
    (#""\$x \n""#, [#"$x \n"#]),
    ("''", [""]),
    ("", []),
  ])
  func splits(line: String, words: [String]) throws {
    #expect(try splitShellWords(line).get() == words)
  }

  @Test func refusesUnclosedQuotesAndATrailingBackslash() {
    #expect(throws: ShellWordsProblem.unterminatedQuote("'")) { try splitShellWords("a 'b").get() }
    #expect(throws: ShellWordsProblem.unterminatedQuote("\"")) { try splitShellWords("a \"b").get() }
    #expect(throws: ShellWordsProblem.trailingBackslash) { try splitShellWords("a b\\").get() }
  }

  /// A quote followed by a combining mark is still a quote (found by the
  /// shell-words fuzzer: the line was read by characters, not scalars).
  @Test func quotesAreScalarsNotCharacters() throws {
    #expect(try splitShellWords("'\u{61A}a' b").get() == ["\u{61A}a", "b"])
    #expect(try splitShellWords(shellQuoted(["\u{61A}?!", "x y"])).get() == ["\u{61A}?!", "x y"])
  }

  @Test func quotingRoundTrips() throws {
    for words in [["kiosk", "--url", "http://x/?a=1&b=2"], ["sh", "-c", "echo 'hi' \"there\""], ["", "a b", "ü"]] {
      #expect(try splitShellWords(shellQuoted(words)).get() == words)
    }
    #expect(shellQuoted(["/usr/bin/kiosk-app", "--fullscreen"]) == "/usr/bin/kiosk-app --fullscreen")
  }
}
