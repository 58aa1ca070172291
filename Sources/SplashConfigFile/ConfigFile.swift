import CInih
import Glibc
import SplashCore
import SplashSystem

/// The INI config file: a `[splash]` section whose keys are the long option
/// names (`image = door.png`). Lines starting with `;` or `#` are comments,
/// as is the rest of a line after ` ;`; relative paths are taken relative to
/// the file's directory.
public enum ConfigFile {
  /// Read when no `--config` is given and it exists.
  public static let defaultPath = "/etc/splashd/splashd.conf"
  /// The sections splashd knows.
  public static let sections = Settings.sectionKeys.map(\.section)

  /// Reads the file at `path` and applies its settings onto `settings`.
  /// Stops at the first problem, which the error names with its line.
  public static func apply(path: String, to settings: inout Settings) throws(SettingsError) {
    guard let file = fopen(path, "re") else {
      throw SettingsError("--config \(path): cannot read: \(SystemError("fopen", code: errno).phrase)")
    }
    defer { fclose(file) }
    if case .directory? = try? Files.kind(of: path) {
      throw SettingsError("--config \(path): is a directory, expected an INI file")
    }
    let directory = Files.realPath(Files.directory(of: path)) ?? Files.directory(of: path)
    let parse = ParseState(path: path, directory: directory, file: file, settings: settings)
    splashd_configure_inih()
    let result = withExtendedLifetime(parse) {
      ini_parse_stream(
        readLine, Unmanaged.passUnretained(parse).toOpaque(), handlePair,
        Unmanaged.passUnretained(parse).toOpaque())
    }
    if let error = parse.error { throw error }
    if result > 0 {
      throw SettingsError("\(path):\(result): expected \"key = value\", \"[section]\" or a comment")
    }
    if result < 0 { throw SettingsError("\(path): cannot be read") }
    settings = parse.settings
  }
}

/// What the C callbacks share while one file is parsed.
private final class ParseState {
  let path: String
  let directory: String
  let file: UnsafeMutablePointer<FILE>
  var settings: Settings
  var error: SettingsError?
  /// The line the parser last read, counted from 1.
  var line = 0
  private var lineComplete = true

  init(path: String, directory: String, file: UnsafeMutablePointer<FILE>, settings: Settings) {
    self.path = path
    self.directory = directory
    self.file = file
    self.settings = settings
  }

  /// Reads the next line like fgets, counting lines and checking section names.
  func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int32) -> UnsafeMutablePointer<CChar>? {
    guard error == nil, let result = fgets(buffer, capacity, file) else { return nil }
    if lineComplete { line += 1 }
    let text = String(cString: buffer)
    lineComplete = text.hasSuffix("\n")
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("[") {
      let name = trimmed.dropFirst().prefix { $0 != "]" }
      if !ConfigFile.sections.contains(String(name)) {
        error = SettingsError(
          "\(path):\(line): unknown section [\(name)]; known: "
            + ConfigFile.sections.map { "[\($0)]" }.joined(separator: ", "))
        return nil
      }
    }
    return result
  }

  /// Applies one `key = value` pair; returns false to stop the parser.
  func handle(section: String, key: String, value: String) -> Bool {
    guard error == nil else { return false }
    if let home = Settings.section(of: key), home != section {
      error = SettingsError("\(path):\(line): \(key) belongs in the [\(home)] section")
      return false
    }
    do {
      try settings.apply(
        key: key, value: value, from: .configFile(path: path, line: line, directory: directory))
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
