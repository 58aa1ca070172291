// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashManual
import SplashSettings
import Testing

/// The manual pages and completions are made from the settings table and
/// splashctl's commands: a setting or command added to either is in them,
/// or these fail.
@Suite struct ManualTests {
  let backEnds = [BackEndHelp(name: "kms", help: "Native KMS."), BackEndHelp(name: "fbdev", help: "A framebuffer.")]

  /// How roff spells an option: its hyphens as minus signs.
  func roff(_ text: String) -> String {
    var out = ""
    for character in text { out += character == "-" ? "\\-" : String(character) }
    return out
  }

  @Test func everyOptionIsInSplashdsPageAndCompletion() {
    let page = Manual.splashd(backEnds: backEnds)
    let completion = Completion.splashd(backEnds: backEnds.map(\.name))
    for spec in SettingsTable.all where spec.onCommandLine {
      #expect(page.contains("\\fB\(roff("--" + spec.key))\\fR"), "--\(spec.key) missing from splashd(8)")
      #expect(completion.contains(" --\(spec.key) ") || completion.contains(" --\(spec.key)\""), "--\(spec.key)")
      #expect(completion.contains("    --\(spec.key)) ") == (spec.form.placeholder != nil), "--\(spec.key)'s value")
      for value in spec.values where spec.form.placeholder != nil && !value.contains("(") {
        #expect(completion.contains(value), "\(value) of --\(spec.key)")
      }
    }
    for action in CommandLineAction.allCases {
      #expect(page.contains(roff("--" + action.rawValue)), "--\(action.rawValue)")
      #expect(completion.contains("--\(action.rawValue)"), "--\(action.rawValue)")
    }
    for backEnd in backEnds {
      #expect(page.contains("\\fB\(backEnd.name)\\fR\n\(backEnd.help)"))
      #expect(completion.contains("--display) COMPREPLY=($(compgen -W \"auto kms fbdev\" -- \"$cur\"))"))
    }
  }

  @Test func everyKeyIsInTheConfigPageUnderItsSection() {
    let page = Manual.config()
    // The page's sections, each from its .SH line to the next.
    let sections = page.split(separator: "\n.SH ")
    for section in SettingsSection.allCases {
      let body = sections.first { $0.hasPrefix("\"[\(roff(section.rawValue))]\"\n") }
      #expect(body != nil, "[\(section.rawValue)]")
      for spec in SettingsTable.specs(in: section) {
        #expect(
          body?.contains(".TP\n\\fB\(roff(spec.fileKey))\\fR = ") == true, "\(spec.fileKey) in [\(section.rawValue)]")
      }
    }
    for spec in ScreenSettingsTable.all { #expect(page.contains(".TP\n\\fB\(roff(spec.key))\\fR = ")) }
  }

  @Test func everySplashctlCommandIsInItsPageHelpAndCompletionAndParses() {
    let page = Manual.splashctl()
    let completion = Completion.splashctl()
    for command in SplashctlUsage.commands {
      #expect(page.contains(".TP\n\\fB\(roff(command.name))\\fR"), "\(command.name)")
      #expect(SplashctlUsage.text.contains("  \(command.name)"), "\(command.name)")
      #expect(completion.contains(command.name), "\(command.name)")
      for value in command.values { #expect(completion.contains(value)) }
      // The help's command is one the protocol takes (with a sample argument).
      let sample = [
        "EVENT": "appeared", "ANGLE": "90", "N": "50", "TEXT": "hi", "FILE": "", "STATE": "status",
      ][command.argument ?? ""]
      let line = command.name == "snapshot" ? "snapshot" : command.name + (sample.map { " " + $0 } ?? "")
      #expect((try? ControlCommand.parse(line).get()) != nil, "\(line)")
    }
  }

  @Test func roffControlCharactersAreEscaped() {
    let page = Manual.config()
    // No line of text starts a request by accident, no backslash is left raw.
    for line in page.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.hasPrefix("'"), "\(line)")
    }
    #expect(!page.contains("--"), "every hyphen is a minus sign")
    let ascii = page.unicodeScalars.allSatisfy { $0.isASCII }
    #expect(ascii, "groff reads bytes")
  }
}
