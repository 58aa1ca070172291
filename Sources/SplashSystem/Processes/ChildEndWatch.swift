// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// What tells that a child process has ended, as a descriptor to poll: its
/// pidfd (Linux 5.3 and later), or, on a kernel without pidfd_open, a
/// signalfd taking SIGCHLD (blocked for the process from then on; the
/// programs splashd starts get the signal mask it started with), the child
/// looked at each time one comes.
public final class ChildEndWatch {
  /// Readable when the child may have ended: ask `ended()`.
  public let descriptor: FileDescriptor
  private let pid: pid_t
  /// Whether `descriptor` is the signalfd (else the pidfd).
  private let takesSignals: Bool

  init(child pid: pid_t) throws(SystemError) {
    self.pid = pid
    let pidfd = pidfd_open(pid, 0)
    if pidfd >= 0 {
      descriptor = FileDescriptor(rawValue: pidfd)
      takesSignals = false
      return
    }
    guard errno == ENOSYS else { throw SystemError("pidfd_open", code: errno) }
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGCHLD)
    let blocked = pthread_sigmask(SIG_BLOCK, &set, nil)
    guard blocked == 0 else { throw SystemError("pthread_sigmask", code: blocked) }
    let signals = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
    guard signals >= 0 else { throw SystemError("signalfd", code: errno) }
    descriptor = FileDescriptor(rawValue: signals)
    takesSignals = true
  }

  deinit { try? descriptor.close() }

  /// Whether the child has ended, once `descriptor` was readable (taking
  /// the signals waiting there). The child is not reaped: its status is
  /// still `ChildProcess.wait`'s.
  public func ended() -> Bool {
    if takesSignals {
      while case .bytes = descriptor.readAvailable() {}
    }
    return splashd_child_ended(pid) != 0
  }
}
