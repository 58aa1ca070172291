// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// An answer typed at the console's terminal: what the splash shows as it
/// is typed, and what the asker gets once Enter comes.
@Suite struct QuestionTests {
  @Test func aPasswordShowsABulletForEachCharacterAndEnterAnswers() {
    var editor = AnswerEditor(Question(.password, prompt: "Please unlock disk root:"))
    #expect(editor.line == "Please unlock disk root: ")
    #expect(editor.take(Array("s3é".utf8)) == nil)
    #expect(editor.line == "Please unlock disk root: •••")
    #expect(editor.take([0x0D]) == "s3é")
    // A newline answers too (a terminal that maps Enter to it).
    var again = AnswerEditor(Question(.password, prompt: ""))
    #expect(again.take(Array("x\n".utf8)) == "x")
    #expect(again.line == "•")
  }

  @Test func backspaceTakesBackACharacterAndCtrlUTheLine() {
    var editor = AnswerEditor(Question(.question, prompt: "Name?"))
    _ = editor.take(Array("abé".utf8))
    _ = editor.take([0x7F])  // Delete, as a console's Backspace sends it
    #expect(editor.line == "Name? ab")
    _ = editor.take([0x08, 0x08, 0x08])  // more than there is
    #expect(editor.line == "Name? ")
    _ = editor.take(Array("xyz".utf8) + [0x15] + Array("ok".utf8))
    #expect(editor.take([0x0D]) == "ok")
  }

  @Test func escapeSequencesAndControlCharactersAreNothing() {
    var editor = AnswerEditor(Question(.question, prompt: ""))
    // The arrow keys (ESC [ A, ESC O B), F5 (ESC [ 1 5 ~), a tab, Ctrl-C.
    let noise: [UInt8] = [0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42, 0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x09, 0x03]
    #expect(editor.take(Array("a".utf8) + noise + Array("b".utf8) + [0x0D]) == "ab")
  }

  /// A lone Esc (the terminal sends nothing after it) is no sequence: the
  /// key after it, Enter among them, is taken as it is.
  @Test func aLoneEscapeDoesNotSwallowTheEnterAfterIt() {
    var editor = AnswerEditor(Question(.password, prompt: ""))
    #expect(editor.take(Array("secret".utf8) + [0x1B]) == nil)
    #expect(editor.take([0x0D]) == "secret")
    var keystroke = AnswerEditor(Question(.keystroke(keys: nil), prompt: ""))
    #expect(keystroke.take([0x1B, 0x0D]) == "\n")
  }

  /// The Linux console's F1–F5 (`ESC [ [ A` …), xterm's (`ESC O P`), a
  /// modified arrow (`ESC [ 1 ; 5 C`) and Alt with a key leave no piece
  /// of themselves in the answer.
  @Test func noPieceOfAnEscapeSequenceIsTyped() {
    var editor = AnswerEditor(Question(.question, prompt: ""))
    let keys: [[UInt8]] = [[0x1B, 0x5B, 0x5B, 0x41], [0x1B, 0x4F, 0x50], Array("\u{1B}[1;5C".utf8), [0x1B, 0x78]]
    #expect(editor.take(Array("a".utf8) + keys.joined() + Array("b".utf8) + [0x0D]) == "ab")
  }

  @Test func anAnswerStopsAtItsLimit() {
    var editor = AnswerEditor(Question(.password, prompt: ""))
    let typed = [UInt8](repeating: UInt8(ascii: "k"), count: AnswerEditor.maxAnswerBytes + 50)
    #expect(editor.take(typed + [0x0D])?.utf8.count == AnswerEditor.maxAnswerBytes)
  }

  /// Bytes that are not UTF-8 (each read as U+FFFD, three bytes) never
  /// make an answer longer than its limit (found by the fuzzer).
  @Test func anAnswerOfBytesThatAreNotUTF8StaysWithinItsLimit() {
    var editor = AnswerEditor(Question(.password, prompt: ""))
    let answer = editor.take([UInt8](repeating: 0xFF, count: AnswerEditor.maxAnswerBytes) + [0x0D])
    #expect(answer.map { $0.utf8.count <= AnswerEditor.maxAnswerBytes && $0.unicodeScalars.count == 341 } == true)
  }

  @Test func aKeystrokeIsTheFirstKeyAmongThoseWatched() {
    var yesNo = AnswerEditor(Question(.keystroke(keys: "yYnN"), prompt: ""))
    #expect(yesNo.take(Array("xq".utf8)) == nil)
    #expect(yesNo.take(Array("Ny".utf8)) == "N")
    var any = AnswerEditor(Question(.keystroke(keys: nil), prompt: ""))
    // An arrow key is not a key press to answer with; Enter is.
    #expect(any.take([0x1B, 0x5B, 0x41]) == nil)
    #expect(any.take([0x0D]) == "\n")
  }

  @Test func theControlSocketAsksWithThePromptAsTyped() {
    #expect(
      ControlCommand.parse("ask-password Please unlock  disk:")
        == .success(.ask(Question(.password, prompt: "Please unlock  disk:"))))
    #expect(ControlCommand.parse("ask-question") == .success(.ask(Question(.question, prompt: ""))))
    let long = "ask-password " + String(repeating: "p", count: Question.maxPromptBytes + 1)
    #expect(
      ControlCommand.parse(long)
        == .failure(ControlError("ask-password: a prompt longer than \(Question.maxPromptBytes) bytes")))
  }
}
