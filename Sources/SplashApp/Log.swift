import SplashSystem

/// splashd's messages on standard error, one line each, prefixed "splashd: ".
enum Log {
  static func line(_ text: String) {
    try? FileDescriptor.standardError.writeAll("splashd: \(text)\n")
  }
}

/// Writes `text` to standard output.
func printOut(_ text: String) {
  try? FileDescriptor.standardOutput.writeAll(text)
}
