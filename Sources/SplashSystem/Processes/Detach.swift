// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Going to the background as a daemon whose start its parent waits for,
/// as Plymouth's does in an initramfs: the script that starts it goes on
/// once the splash is on the screen (so its files were read before the
/// initramfs is switched away and deleted), or after a bounded wait.
public enum Detach {
  /// Forks: the parent waits until the child says it is ready (`ready`),
  /// ends or `seconds` have passed, then exits 0; the child, in a session
  /// of its own, gets the descriptor to say it on. nil when it cannot fork
  /// (then this process goes on in the foreground).
  public static func intoBackground(waitingAtMost seconds: Double) -> FileDescriptor? {
    var ends: [Int32] = [-1, -1]
    guard pipe2(&ends, O_CLOEXEC) == 0 else { return nil }
    let pid = fork()
    if pid < 0 {
      close(ends[0])
      close(ends[1])
      return nil
    }
    if pid > 0 {
      close(ends[1])
      var waited = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
      _ = MonotonicClock().poll(&waited, until: MonotonicClock().now() + seconds)
      _exit(0)
    }
    close(ends[0])
    _ = setsid()
    return FileDescriptor(rawValue: ends[1])
  }

  /// Tells the waiting parent the child is ready (or done): it goes on.
  public static func ready(_ descriptor: FileDescriptor) {
    _ = try? descriptor.writeAll([1])
    try? descriptor.close()
  }
}
