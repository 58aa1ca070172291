// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// The kernel's device events (netlink uevents): a device appearing, going
/// away or changing, as the kernel announces it (no udev needed, so it works
/// in an initramfs too). Only messages the kernel itself sent are returned.
public final class KernelEventSocket {
  public let descriptor: FileDescriptor

  public init() throws(SystemError) {
    let fd = splashd_uevent_socket()
    guard fd >= 0 else { throw SystemError("netlink uevent socket", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
  }

  deinit { try? descriptor.close() }

  /// The messages waiting, each whole as the kernel sent it (cut ones and
  /// ones from processes are dropped), and whether the kernel had to drop
  /// some because they were not read in time (ENOBUFS).
  public func receive() -> (messages: [[UInt8]], lost: Bool) {
    var messages: [[UInt8]] = []
    var lost = false
    var buffer = [UInt8](repeating: 0, count: 8192)
    // A burst (a driver loading) is a few dozen messages; the rest waits for the next call.
    for _ in 0..<256 {
      var fromKernel: Int32 = 0
      let count = buffer.withUnsafeMutableBytes {
        splashd_uevent_receive(descriptor.rawValue, $0.baseAddress, UInt($0.count), &fromKernel)
      }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == ENOBUFS {
          lost = true
          continue
        }
        break
      }
      if fromKernel != 0 && count <= buffer.count { messages.append(Array(buffer[..<Int(count)])) }
    }
    return (messages, lost)
  }
}
