// SPDX-License-Identifier: Apache-2.0
import CInih
import Glibc
import SplashCore
import SplashSettings
import SplashSystem

/// The INI config file: sections `[splash]`, `[handoff]` and
/// `[orientation]` whose keys are the settings table's (`image =
/// door.png`). Lines starting with `;` or `#` are comments, as is the rest
/// of a line after ` ;`; relative paths are taken relative to the file's
/// directory. The file is read whole (it must be a regular file of at most
/// `maxBytes`), then parsed by libinih line by line from memory.
public enum ConfigFile {
  /// Read when no `--config` is given and it exists.
  public static let defaultPath = "/etc/splashd/splashd.conf"
  /// The largest config file read; anything larger is refused.
  public static let maxBytes = 1 << 20
  /// The longest line, without its newline.
  public static let maxLineBytes = 4096

  /// Reads the file at `path` and applies its settings onto `settings`.
  /// Stops at the first problem, which the error names with its line.
  /// `/dev/null` is the one file that is not regular but is read (as
  /// nothing): `--config /dev/null` runs without any config file.
  public static func apply(path: String, to settings: inout Settings) throws(SettingsError) {
    let contents: [UInt8]
    do {
      contents = Files.realPath(path) == "/dev/null" ? [] : try Files.readRegularFile(path, limit: maxBytes)
    } catch {
      let named = "--config \(printable(path))"
      switch error.code {
      case EISDIR: throw SettingsError("\(named): is a directory, expected an INI file")
      case EINVAL, EFBIG: throw SettingsError("\(named): \(error.phrase), expected an INI file")
      default: throw SettingsError("\(named): cannot read: \(error.phrase)")
      }
    }
    let directory = Files.realPath(Files.directory(of: path)) ?? Files.directory(of: path)
    try apply(contents: contents, path: path, directory: directory, to: &settings)
  }

  /// Applies the settings of a file's `contents` (read from `path`, whose
  /// relative paths are relative to `directory`) onto `settings`.
  public static func apply(contents: [UInt8], path: String, directory: String, to settings: inout Settings)
    throws(SettingsError)
  {
    let parse = ParseState(path: path, directory: directory, contents: contents, settings: settings)
    splashd_configure_inih(Int32(maxLineBytes + 3))
    let result = withExtendedLifetime(parse) {
      ini_parse_stream(
        readLine, Unmanaged.passUnretained(parse).toOpaque(), handlePair,
        Unmanaged.passUnretained(parse).toOpaque())
    }
    if let error = parse.error { throw error }
    if result > 0 {
      throw SettingsError("\(printable(path)):\(result): expected \"key = value\", \"[section]\" or a comment")
    }
    if result < 0 { throw SettingsError("\(printable(path)): cannot be parsed") }
    settings = parse.settings
  }
}

/// What the C callbacks share while one file is parsed.
private final class ParseState {
  let path: String
  let directory: String
  let contents: [UInt8]
  var settings: Settings
  var error: SettingsError?
  /// The line the parser last read, counted from 1.
  var line = 0
  /// Where the next line starts in `contents`.
  private var offset = 0
  /// The line each key was set at.
  private var seen: [String: Int] = [:]

  init(path: String, directory: String, contents: [UInt8], settings: Settings) {
    self.path = path
    self.directory = directory
    self.contents = contents
    self.settings = settings
  }

  private var name: String { printable(path) }

  /// Copies the next line into `buffer` like fgets; refuses lines with a
  /// NUL byte or longer than `ConfigFile.maxLineBytes`, and checks section names.
  func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int32) -> UnsafeMutablePointer<CChar>? {
    guard error == nil, offset < contents.count else { return nil }
    let end = contents[offset...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? contents.count
    let bytes = contents[offset..<end]
    offset = end
    line += 1
    var text = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes
    if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
    if text.contains(0) {
      error = SettingsError("\(name):\(line): holds a NUL byte; expected text")
      return nil
    }
    guard text.count <= ConfigFile.maxLineBytes, bytes.count < Int(capacity) else {
      error = SettingsError("\(name):\(line): longer than \(ConfigFile.maxLineBytes) bytes")
      return nil
    }
    let trimmed = String(decoding: text, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("[") {
      guard let close = trimmed.firstIndex(of: "]") else {
        error = SettingsError("\(name):\(line): section header \"\(printable(String(trimmed)))\" is not closed with ]")
        return nil
      }
      let section = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
      if section.hasPrefix(ScreenSettingsTable.sectionPrefix) {
        let screen = String(section.dropFirst(ScreenSettingsTable.sectionPrefix.count))
        guard ScreenSettings.isScreenName(screen) else {
          error = SettingsError(
            "\(name):\(line): [\(printable(section))]: expected a connector's name (HDMI-A-1, DSI-1, …) or *")
          return nil
        }
      } else if SettingsSection(rawValue: section) == nil {
        let known = (SettingsSection.allCases.map { "[\($0.rawValue)]" } + ["[screen NAME]"]).joined(separator: ", ")
        error = SettingsError("\(name):\(line): unknown section [\(printable(section))]; known: \(known)")
        return nil
      }
    }
    bytes.withUnsafeBytes { raw in
      buffer.withMemoryRebound(to: UInt8.self, capacity: raw.count + 1) { target in
        target.update(from: raw.bindMemory(to: UInt8.self).baseAddress!, count: raw.count)
        target[raw.count] = 0
      }
    }
    return buffer
  }

  /// Applies one `key = value` pair of a `[screen NAME]` section.
  private func handle(screen: String, key: String, value: String) -> Bool {
    let seenKey = ScreenSettingsTable.sectionPrefix + screen + "." + key
    if let first = seen[seenKey] {
      error = SettingsError(
        "\(name):\(line): \(printable(key)) is given twice in [screen \(screen)]; first at line \(first)")
      return false
    }
    seen[seenKey] = line
    do {
      try settings.apply(
        screen: screen, key: key, value: value, from: .configFile(path: path, line: line, directory: directory))
      return true
    } catch {
      self.error = error
      return false
    }
  }

  /// Applies one `key = value` pair; returns false to stop the parser.
  func handle(section: String, key: String, value: String) -> Bool {
    guard error == nil else { return false }
    if section.hasPrefix(ScreenSettingsTable.sectionPrefix) {
      return handle(screen: String(section.dropFirst(ScreenSettingsTable.sectionPrefix.count)), key: key, value: value)
    }
    guard let home = SettingsSection(rawValue: section), let spec = SettingsTable.spec(in: home, fileKey: key) else {
      let homes = SettingsTable.all.filter { $0.fileKey == key }.map { "[\($0.section.rawValue)]" }
      if !homes.isEmpty {
        error = SettingsError("\(name):\(line): \(printable(key)) belongs in the \(listing(homes, last: "or")) section")
      } else {
        let known = SettingsTable.all.filter { $0.section.rawValue == section }.map(\.fileKey)
        error = SettingsError(
          "\(name):\(line): \(printable(key)): unknown setting; known: \(known.joined(separator: ", "))")
      }
      return false
    }
    let seenKey = section + "." + key
    if let first = seen[seenKey] {
      error = SettingsError("\(name):\(line): \(printable(key)) is given twice in [\(section)]; first at line \(first)")
      return false
    }
    seen[seenKey] = line
    do {
      try settings.apply(key: spec.key, value: value, from: .configFile(path: path, line: line, directory: directory))
      return true
    } catch {
      self.error = error
      return false
    }
  }
}

private func readLine(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int32, _ stream: UnsafeMutableRawPointer?)
  -> UnsafeMutablePointer<CChar>?
{
  let state = Unmanaged<ParseState>.fromOpaque(stream!).takeUnretainedValue()
  return state.read(into: buffer!, capacity: capacity)
}

private func handlePair(
  _ user: UnsafeMutableRawPointer?, _ section: UnsafePointer<CChar>?, _ name: UnsafePointer<CChar>?,
  _ value: UnsafePointer<CChar>?
) -> Int32 {
  let state = Unmanaged<ParseState>.fromOpaque(user!).takeUnretainedValue()
  let ok = state.handle(
    section: String(cString: section!), key: String(cString: name!), value: value.map { String(cString: $0) } ?? "")
  return ok ? 1 : 0
}
