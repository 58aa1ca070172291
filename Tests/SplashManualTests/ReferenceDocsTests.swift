// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSettings
import SplashTestSupport
import Testing

/// The references written by hand beside the settings table, which makes
/// `--help` and the manual pages: docs/usage.md's table of options and the
/// sample config (Config/splashd.conf) name every setting the table has,
/// and nothing it does not, or these fail; and the README lists every page
/// of docs/.
@Suite struct ReferenceDocsTests {
  /// Every `--option` in the first column of usage.md's table of options.
  func documentedOptions() throws -> Set<String> {
    let usage = try String(contentsOfFile: packageRoot + "/docs/usage.md", encoding: .utf8)
    let table = try #require(usage.components(separatedBy: "\n## Options\n").dropFirst().first)
    var options: Set<String> = []
    for row in table.split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) where row.hasPrefix("| `--") {
      // The first cell: up to the first bar that is not escaped (`none\|auto`).
      var first = ""
      var escaped = false
      for character in row.dropFirst(2) {
        if character == "|" && !escaped { break }
        escaped = character == "\\"
        first.append(character)
      }
      for word in first.split(whereSeparator: { " `,|[\\".contains($0) }) where word.hasPrefix("--") {
        options.insert(String(word.dropFirst(2)))
      }
    }
    return options
  }

  @Test func usageDocumentsEveryOptionAndNoOther() throws {
    let documented = try documentedOptions()
    let settings = Set(SettingsTable.all.filter(\.onCommandLine).map(\.key))
    let own = Set(CommandLineAction.allCases.map(\.rawValue))
    for missing in settings.union(own).subtracting(documented).sorted() {
      Issue.record("docs/usage.md's table of options has no --\(missing)")
    }
    for unknown in documented.subtracting(settings).subtracting(own).sorted() {
      Issue.record("docs/usage.md documents --\(unknown), which splashd does not take")
    }
  }

  /// Each section of the sample config and the keys it names in it, set or
  /// commented out (`;key = value`).
  func sampleKeys() throws -> [String: Set<String>] {
    let sample = try String(contentsOfFile: packageRoot + "/Config/splashd.conf", encoding: .utf8)
    var keys: [String: Set<String>] = [:]
    var section = ""
    for line in sample.split(separator: "\n") {
      // A section, or one shown commented out (`;[screen DSI-1]`).
      if line.hasPrefix("[") || line.hasPrefix(";[") {
        section = String(line.drop { $0 == ";" }.dropFirst().prefix { $0 != "]" })
        continue
      }
      let setting = line.hasPrefix(";") ? line.dropFirst() : line[...]
      guard let equals = setting.firstIndex(of: "="), !setting.hasPrefix("#") else { continue }
      let key = setting[..<equals].trimmingCharacters(in: .whitespaces)
      guard !key.isEmpty, !key.contains(" ") else { continue }
      keys[section, default: []].insert(key)
    }
    return keys
  }

  @Test func theSampleConfigNamesEverySettingInItsSection() throws {
    let keys = try sampleKeys()
    for section in SettingsSection.allCases {
      let table = Set(SettingsTable.specs(in: section).map(\.fileKey))
      let sample = keys[section.rawValue] ?? []
      for missing in table.subtracting(sample).sorted() {
        Issue.record("Config/splashd.conf's [\(section.rawValue)] has no \(missing) (set or as ;\(missing) = …)")
      }
      for unknown in sample.subtracting(table).sorted() {
        Issue.record("Config/splashd.conf's [\(section.rawValue)] names \(unknown), which is not a setting there")
      }
    }
    let sections = Set(keys.keys).subtracting(SettingsSection.allCases.map(\.rawValue))
    #expect(sections.allSatisfy { $0.hasPrefix("screen ") }, "unknown sections: \(sections.sorted())")
  }

  @Test func theReadmeListsEveryPageOfTheDocs() throws {
    let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
    let pages = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/docs").filter {
      $0.hasSuffix(".md")
    }
    #expect(!pages.isEmpty)
    for page in pages.sorted() {
      #expect(readme.contains("](docs/\(page))"), "README.md's Documentation does not list docs/\(page)")
    }
  }
}
