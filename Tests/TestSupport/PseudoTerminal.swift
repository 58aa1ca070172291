// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A pseudo-terminal standing in for the console's virtual terminal: the
/// test types at its master side; splashd reads `terminal`.
public final class PseudoTerminal {
  private let master: Int32
  /// Held open by the test too, to read the terminal's settings.
  private let slave: Int32
  /// The terminal's path (/dev/pts/N).
  public let terminal: String

  public init() throws {
    let master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    self.master = master
    guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0 else {
      throw TestFailure("no pseudo-terminal: errno \(errno)")
    }
    var name = [CChar](repeating: 0, count: 128)
    guard ptsname_r(master, &name, name.count) == 0 else {
      throw TestFailure("ptsname failed")
    }
    terminal = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    slave = open(terminal, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw TestFailure("cannot open \(terminal)") }
  }

  deinit {
    close(slave)
    close(master)
  }

  /// Types `text` as a keyboard would, and returns once the terminal
  /// holds it for its reader (the kernel hands a pseudo-terminal's input
  /// over on a worker of its own: a test on a clock of its own would
  /// otherwise move on before the bytes are there); at most a second
  /// (a terminal that edits lines holds an unfinished one back).
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    let before = waitingBytes
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    for _ in 0..<1000 where waitingBytes < before + bytes.count { usleep(1000) }
  }

  /// The bytes typed that the terminal's reader has not read yet.
  private var waitingBytes: Int {
    var count: Int32 = 0
    return ioctl(slave, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
  }

  /// What the terminal has echoed back so far.
  public var echoed: String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the terminal edits lines and echoes (its settings as a
  /// program that is done with it leaves them).
  public var echoes: Bool {
    var settings = termios()
    guard tcgetattr(slave, &settings) == 0 else { return false }
    return settings.c_lflag & tcflag_t(ECHO) != 0 && settings.c_lflag & tcflag_t(ICANON) != 0
  }
}
