// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// psplash's FIFO protocol as psplash-write speaks it, cut and parsed into
/// the splash's commands.
@Suite struct PsplashProtocolTests {
  @Test func commandsEndAtANulOrANewlineWholeSplitOrSeveralToARead() {
    var buffer = PsplashCommandBuffer()
    #expect(
      buffer.append(Array("PROGRESS 10\u{0}MSG Booting up\nQU".utf8)) == [
        .command(.progress(10)), .command(.message("Booting up")),
      ])
    #expect(buffer.append(Array("IT\u{0}".utf8)) == [.command(.reveal)])
    // Empty commands (two terminators in a row) are nothing.
    #expect(buffer.append([0, 0, 10]).isEmpty)
  }

  /// What is left without an end once the FIFO is read empty is a whole
  /// command, as psplash takes it: an unended write is not glued onto the
  /// next writer's command (its QUIT lost).
  @Test func anUnendedCommandIsWholeOnceTheFIFOIsReadEmpty() {
    var buffer = PsplashCommandBuffer()
    #expect(buffer.append(Array("PROGRESS 10\u{0}MSG Hello".utf8)) == [.command(.progress(10))])
    #expect(buffer.writesEnded() == [.command(.message("Hello"))])
    #expect(buffer.append(Array("QUIT".utf8)).isEmpty)
    #expect(buffer.writesEnded() == [.command(.reveal)])
    // Nothing pending, nothing taken; the rest of a command too long is not one.
    #expect(buffer.writesEnded().isEmpty)
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: PsplashCommandBuffer.maxCommandBytes + 10)
    #expect(buffer.append(long) == [.tooLong])
    #expect(buffer.writesEnded().isEmpty)
    #expect(buffer.append(Array("QUIT\n".utf8)) == [.command(.reveal)])
  }

  @Test func whatPsplashIgnoresIsIgnored() {
    #expect(PsplashCommandBuffer.parse(Array("MSG".utf8)) == .ignored("MSG"))
    #expect(PsplashCommandBuffer.parse(Array("PROGRESS".utf8)) == .ignored("PROGRESS"))
    #expect(PsplashCommandBuffer.parse(Array("FLASH now".utf8)) == .ignored("FLASH now"))
    #expect(PsplashCommandBuffer.parse(Array("quit".utf8)) == .ignored("quit"))
    // The verb after leading spaces; the argument is all after the first space.
    #expect(PsplashCommandBuffer.parse(Array("  MSG  two  spaces".utf8)) == .command(.message(" two  spaces")))
  }

  @Test func progressValuesAreReadAsAtoiReadsThem() {
    for (text, value) in [
      ("50", 50), ("  7", 7), ("-20", -20), ("+5", 5), ("12abc", 12), ("abc", 0), ("", 0),
      ("99999999999999", 1_000_000),
    ] {
      #expect(PsplashCommandBuffer.leadingInteger(text) == value, "\(text)")
    }
    #expect(PsplashCommandBuffer.parse(Array("PROGRESS -30".utf8)) == .command(.progress(-30)))
  }

  @Test func aMessageIsCutToTheLimitAtACharactersStart() {
    let long = String(repeating: "é", count: 600)  // 1200 bytes
    guard case .command(.message(let text?)) = PsplashCommandBuffer.parse(Array("MSG \(long)".utf8)) else {
      Issue.record("not a message")
      return
    }
    #expect(text.utf8.count == BootStatus.maxMessageBytes && text == String(repeating: "é", count: 512))
  }

  @Test func aCommandTooLongIsDroppedWholeAndTheNextOneTaken() {
    var buffer = PsplashCommandBuffer()
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: PsplashCommandBuffer.maxCommandBytes + 10)
    #expect(buffer.append(long + Array("\nQUIT\n".utf8)) == [.tooLong, .command(.reveal)])
  }
}
