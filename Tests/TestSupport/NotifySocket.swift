// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A Unix datagram socket standing in for systemd's notify socket.
public final class NotifySocket {
  public let fd: Int32
  public let name: String

  /// Binds `path`, or the abstract name `@…` when `path` starts with `@`.
  public init(_ path: String) throws {
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    let bound = withUnixAddress(path) { bind(descriptor, $0, $1) }
    fd = descriptor
    name = path
    guard bound == 0 else { throw TestFailure("cannot bind \(path): errno \(errno)") }
  }

  deinit { close(fd) }

  /// Every datagram received so far, in order.
  public func received() -> [String] {
    var messages: [String] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count <= 0 { return messages }
      messages.append(String(decoding: buffer[..<count], as: UTF8.self))
    }
  }
}
