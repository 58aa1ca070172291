// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A terminal read key by key (a question asked on the splash): opened
/// without blocking, its line editing and echo turned off so that each key
/// comes as the console's keymap makes it and nothing typed shows on the
/// console; what was typed before it was opened is dropped. Its settings are
/// put back when it is closed.
public final class KeyboardTerminal {
  public let path: String
  public let descriptor: FileDescriptor
  private let saved: termios
  private var closed = false

  /// The console's active virtual terminal (/sys/class/tty/tty0/active
  /// names it), else /dev/tty1.
  public static var activeConsole: String {
    let name = ((try? Files.readText("/sys/class/tty/tty0/active")) ?? "").split(separator: "\n").first.map(String.init)
    guard let name, name.hasPrefix("tty"), name.dropFirst(3).allSatisfy(\.isNumber), name.count > 3 else {
      return "/dev/tty1"
    }
    return "/dev/" + name
  }

  /// Opens the terminal at `path`; anything that is not a terminal is refused.
  public init(_ path: String) throws(SystemError) {
    self.path = path
    descriptor = try FileDescriptor.openDevice(path, O_RDWR | O_NONBLOCK, kind: "a terminal")
    var settings = termios()
    guard tcgetattr(descriptor.rawValue, &settings) == 0 else {
      let error = SystemError(path, code: errno, reason: "not a terminal")
      try? descriptor.close()
      throw error
    }
    saved = settings
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN)
    settings.c_iflag &= ~tcflag_t(IXON)
    withUnsafeMutableBytes(of: &settings.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(descriptor.rawValue, TCSANOW, &settings) == 0 else {
      let error = SystemError("tcsetattr \(path)", code: errno)
      try? descriptor.close()
      throw error
    }
    tcflush(descriptor.rawValue, TCIFLUSH)
  }

  /// Puts the terminal's settings back and closes it.
  public func close() {
    guard !closed else { return }
    closed = true
    var settings = saved
    tcsetattr(descriptor.rawValue, TCSANOW, &settings)
    try? descriptor.close()
  }

  deinit { close() }
}
