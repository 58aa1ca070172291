import SplashSystem

/// splashd's messages on standard error, one line each, prefixed "splashd: ".
/// When standard error is the systemd journal (JOURNAL_STREAM names it), each
/// line starts with its priority as well (`<6>splashd: appeared …`).
enum Log {
  /// Whether standard error is the journal's stream, checked once.
  private static let toJournal: Bool = {
    guard let stream = Environment.value("JOURNAL_STREAM") else { return false }
    return FileDescriptor.standardError.deviceAndInode() == stream
  }()

  /// A normal event of the splash's life.
  static func info(_ text: String) { write(6, text) }
  /// Something that went wrong.
  static func error(_ text: String) { write(3, text) }

  private static func write(_ priority: Int, _ text: String) {
    let prefix = toJournal ? "<\(priority)>splashd: " : "splashd: "
    try? FileDescriptor.standardError.writeAll(prefix + text + "\n")
  }
}

/// Writes `text` to standard output.
func printOut(_ text: String) {
  try? FileDescriptor.standardOutput.writeAll(text)
}
