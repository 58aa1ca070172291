// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct ControlProtocolTests {
  @Test func parsesEachCommand() {
    #expect(ControlCommand.parse("reveal") == .success(.reveal))
    #expect(ControlCommand.parse("  quit\r") == .success(.stop))
    #expect(ControlCommand.parse("status") == .success(.status))
    #expect(ControlCommand.parse("wait did-disappear") == .success(.wait(.didDisappear)))
    #expect(ControlCommand.parse("wait appeared") == .success(.wait(.appeared)))
    #expect(ControlCommand.parse("rotate 270") == .success(.rotate(.threeQuarters)))
  }

  /// The words splashctl lists, in the table's order.
  let listedNames = ControlCommandTable.all.filter(\.listed).map(\.name).joined(separator: ", ")

  @Test func everyCommandInTheTableParses() {
    #expect(Set(ControlCommandTable.all.map(\.name)).count == ControlCommandTable.all.count, "one entry a word")
    for spec in ControlCommandTable.all {
      #expect(ControlCommandTable.spec(named: spec.name)?.name == spec.name)
      if spec.values.isEmpty {
        // Alone, or with a number (progress's percentage).
        let parses = [spec.name, spec.name + " 50"].contains { (try? ControlCommand.parse($0).get()) != nil }
        #expect(parses, "\(spec.name)")
      }
      for value in spec.values {
        #expect((try? ControlCommand.parse(spec.name + " " + value).get()) != nil, "\(spec.name) \(value)")
      }
    }
    #expect(ControlCommand.parse("handover") == .success(.handover))
    #expect(ControlCommand.parse("ask-password Disk:") == .success(.ask(Question(.password, prompt: "Disk:"))))
    #expect(ControlCommand.parse("ask-question Name?") == .success(.ask(Question(.question, prompt: "Name?"))))
  }

  @Test func theKnownListAndSplashctlsHelpAreTheTablesListedCommandsInOrder() {
    #expect(ControlCommandTable.listed.map(\.name) == ControlCommandTable.all.filter(\.listed).map(\.name))
    #expect(SplashctlUsage.commands.map(\.name) == ControlCommandTable.listed.map(\.name))
    #expect(!listedNames.contains("handover"), "splashd's own, not splashctl's")
    #expect(
      ControlCommand.parse("dance")
        == .failure(ControlError("unknown command \"dance\"; known: \(listedNames)")))
    // Each listed command starts a line of splashctl's help, after the one before it.
    let help = SplashctlUsage.text
    var searchFrom = help.startIndex
    for spec in ControlCommandTable.listed {
      let label = "\n  " + spec.name + (spec.argument.map { " " + $0 } ?? "")
      let found = help[searchFrom...].firstRange(of: label)
      let endsThere = found.map { help[$0.upperBound...].first?.isWhitespace == true }
      #expect(endsThere == true, "\(spec.name) in its place in splashctl --help")
      searchFrom = found?.upperBound ?? searchFrom
    }
    for spec in ControlCommandTable.all where !spec.listed { #expect(!help.contains("  \(spec.name)")) }
  }

  @Test func refusesWithAReason() {
    #expect(ControlCommand.parse("") == .failure(ControlError("empty command; known: \(listedNames)")))
    #expect(ControlCommand.parse("rotate 45") == .failure(ControlError("rotate needs one angle: 0, 90, 180 or 270")))
    #expect(ControlCommand.parse("reveal now") == .failure(ControlError("reveal takes no argument")))
    #expect(
      ControlCommand.parse("wait forever")
        == .failure(ControlError("wait needs one event: appeared, will-disappear, did-disappear")))
    let long = String(repeating: "x", count: 300)
    guard case .failure(let error) = ControlCommand.parse(long) else {
      Issue.record("accepted \(long)")
      return
    }
    // An echoed command is cut short.
    #expect(error.message.contains(String(repeating: "x", count: 64)))
    #expect(!error.message.contains(String(repeating: "x", count: 65)))
  }

  @Test func aReplyIsItsTextOrItsReason() {
    #expect(parseControlReply("ok") == .success(""))
    #expect(parseControlReply("ok ") == .success(""))
    #expect(parseControlReply("ok phase=waiting") == .success("phase=waiting"))
    #expect(
      parseControlReply("error rotate: the transition has started")
        == .failure(ControlError("rotate: the transition has started")))
  }

  @Test func lineBufferKeepsPartialLines() {
    var buffer = LineBuffer()
    #expect(buffer.append(Array("sta".utf8)).isEmpty)
    #expect(buffer.append(Array("tus\nwait appeared\nrev".utf8)) == [.text("status"), .text("wait appeared")])
    #expect(buffer.append(Array("eal\n".utf8)) == [.text("reveal")])
  }

  @Test func aBadLineIsOneLineOfItsOwnAndTheGoodOnesAroundItStand() {
    var long = LineBuffer()
    // Said once however long it goes on; the next line is taken again.
    #expect(long.append([UInt8](repeating: UInt8(ascii: "a"), count: 5000)) == [.tooLong])
    #expect(
      long.append([UInt8](repeating: UInt8(ascii: "a"), count: 5000) + Array("\nstatus\n".utf8)) == [.text("status")])
    var longLine = LineBuffer()
    #expect(longLine.append([UInt8](repeating: UInt8(ascii: "a"), count: 4096) + [10]) == [.tooLong])
    var mixed = LineBuffer()
    #expect(
      mixed.append(Array("reveal\n".utf8) + [115, 0, 116, 10] + [0xFF, 0xFE, 10] + Array("status\n".utf8)) == [
        .text("reveal"), .notText, .notText, .text("status"),
      ])
  }
}
