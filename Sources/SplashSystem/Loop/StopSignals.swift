// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// SIGTERM, SIGINT and SIGHUP as a readable descriptor (signalfd): blocked
/// for the process, so that they end the splash in order rather than the
/// process at once (SIGHUP is only passed on to a spawned program). The
/// programs splashd runs get the signal mask splashd started with.
public final class StopSignals {
  public let descriptor: FileDescriptor

  /// The signals splashd takes over.
  public static let signals = [SIGTERM, SIGINT, SIGHUP]

  public init() throws(SystemError) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in Self.signals { sigaddset(&set, signal) }
    var original = sigset_t()
    guard sigprocmask(SIG_BLOCK, &set, &original) == 0 else { throw SystemError("sigprocmask", code: errno) }
    ThisProcess.signalMaskForChildren = original
    let fd = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
    guard fd >= 0 else { throw SystemError("signalfd", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
  }

  /// The next of these signals that has arrived, if any.
  public func next() -> Int32? {
    var info = signalfd_siginfo()
    let count = try? withUnsafeMutableBytes(of: &info) { buffer in
      Result { () throws(SystemError) in try descriptor.read(into: buffer) }
    }.get()
    guard count == MemoryLayout<signalfd_siginfo>.size else { return nil }
    return Int32(info.ssi_signo)
  }

  /// Whether `signal` ends the splash (SIGTERM, SIGINT), rather than only
  /// being passed on to a spawned program (SIGHUP).
  public static func stops(_ signal: Int32) -> Bool { signal != SIGHUP }

  /// The signal's name ("SIGTERM").
  public static func name(_ signal: Int32) -> String {
    switch signal {
    case SIGTERM: return "SIGTERM"
    case SIGINT: return "SIGINT"
    case SIGHUP: return "SIGHUP"
    default: return "signal \(signal)"
    }
  }
}
