// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import Testing

/// The command line's own options for boot stages.
@Suite struct BootCommandLineTests {
  @Test func bootAndListFilesAreTheCommandLinesOwn() throws {
    let parsed = try ParsedCommandLine.parse(["--boot", "initramfs", "--list-files"])
    #expect(parsed.bootStage == .initramfs && parsed.listFiles)
    #expect(ParsedCommandLine.asksOnlyForInformation(["--list-files"]))
    #expect(throws: SettingsError("--boot: expected initramfs, root or shutdown, got \"late\"")) {
      try ParsedCommandLine.parse(["--boot=late"])
    }
    // One stage, one config file: a second is an error, not the last winning.
    #expect(throws: SettingsError("--boot given twice (root, then shutdown): a splash has one stage")) {
      try ParsedCommandLine.parse(["--boot", "root", "--boot=shutdown"])
    }
    #expect(throws: SettingsError("--config given twice (a.conf, then b.conf): one config file is read")) {
      try ParsedCommandLine.parse(["--config", "a.conf", "--config", "b.conf"])
    }
  }
}
