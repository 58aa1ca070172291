// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// One connection to splashd's control socket: command lines out, reply
/// lines (and a snapshot's bytes) back, however long splashd takes.
public struct ControlConnection {
  private let socket: FileDescriptor
  /// What splashd sent that has not been taken yet.
  private var received: [UInt8] = []

  /// Connects to `path`; with `timeout`, each reply waited for at most
  /// that many seconds (a reply that does not come is the end).
  public init(path: String, timeout: Double? = nil) throws(SystemError) {
    socket = try UnixSocket.connect(to: path, timeout: timeout)
  }

  public func send(_ line: String) throws(SystemError) { try socket.writeAll(line + "\n") }

  /// The next reply line, without its newline; nil when splashd ends the
  /// connection first (or sends a line longer than any reply).
  public mutating func replyLine() -> String? {
    while true {
      if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
        defer { received.removeFirst(newline + 1) }
        return String(decoding: received[..<newline], as: UTF8.self)
      }
      guard received.count < ControlCommand.maxLineBytes, receive() else { return nil }
    }
  }

  /// The next `count` bytes; nil when splashd ends the connection first
  /// (`partial` says how many came).
  public mutating func bytes(_ count: Int, partial: inout Int) -> [UInt8]? {
    while received.count < count {
      guard receive() else {
        partial = received.count
        return nil
      }
    }
    defer { received.removeFirst(count) }
    return Array(received[..<count])
  }

  /// Reads more; false at the end of splashd's output.
  private mutating func receive() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count =
      (try? buffer.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) in try socket.read(into: raw) }
      }.get()) ?? 0
    received += buffer[..<count]
    return count > 0
  }
}
