import CLinux
import Glibc

/// SIGTERM and SIGINT as a readable descriptor (signalfd): blocked for the
/// process, so that they end the splash in order rather than the process at
/// once. The programs splashd runs get the signal mask splashd started with.
public final class StopSignals {
  public let descriptor: FileDescriptor

  /// The signals that ask splashd to stop.
  public static let signals = [SIGTERM, SIGINT]

  public init() throws(SystemError) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in Self.signals { sigaddset(&set, signal) }
    var original = sigset_t()
    guard sigprocmask(SIG_BLOCK, &set, &original) == 0 else { throw SystemError("sigprocmask", code: errno) }
    Program.signalMaskForPrograms = original
    let fd = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
    guard fd >= 0 else { throw SystemError("signalfd", code: errno) }
    descriptor = FileDescriptor(rawValue: fd)
  }

  /// The name of a stop signal that has arrived ("SIGTERM"), if any.
  public func arrived() -> String? {
    var info = signalfd_siginfo()
    let count = withUnsafeMutableBytes(of: &info) { read(descriptor.rawValue, $0.baseAddress, $0.count) }
    guard count == MemoryLayout<signalfd_siginfo>.size else { return nil }
    return Int32(info.ssi_signo) == SIGTERM ? "SIGTERM" : Int32(info.ssi_signo) == SIGINT ? "SIGINT" : "signal"
  }
}
