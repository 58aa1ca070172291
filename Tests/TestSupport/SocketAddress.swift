// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Calls `body` (connect, bind) with the Unix socket address of `path`; a
/// leading `@` names an abstract socket. Returns what `body` returns.
public func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  var bytes = Array(path.utf8)
  let abstract = bytes.first == UInt8(ascii: "@")
  if abstract { bytes[0] = 0 }
  withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in bytes.enumerated() where i < $0.count { $0[i] = b } }
  let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
  return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
}
