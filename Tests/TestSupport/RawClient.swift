// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A raw client of the control socket, for input splashctl would never send.
public final class RawClient {
  public let fd: Int32

  public init(_ path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let socket = fd
    guard withUnixAddress(path, { connect(socket, $0, $1) }) == 0 else {
      throw TestFailure("cannot connect to \(path)")
    }
  }

  deinit { close(fd) }

  public func send(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }
  public func send(_ text: String) { send(Array(text.utf8)) }
  public func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

  /// Everything received until `lines` whole lines have come, the peer
  /// closes, or `seconds` pass.
  public func receive(lines: Int = 1, seconds: Double = 5) -> (text: String, closed: Bool) {
    var data: [UInt8] = []
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 8192)
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return (String(decoding: data, as: UTF8.self), true) }
      data += buffer[..<count]
      if data.filter({ $0 == 10 }).count >= lines { break }
    }
    return (String(decoding: data, as: UTF8.self), false)
  }
}
