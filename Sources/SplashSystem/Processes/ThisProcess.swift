// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// This process: its arguments, its name's mark for systemd, replacing
/// it with another program, the signal mask its children start with.
public enum ThisProcess {
  /// Marks this process as one systemd leaves running when it switches from
  /// the initramfs to the real root and when it kills what is left at
  /// shutdown: argv[0]'s first character becomes '@' (systemd's rule, as
  /// Plymouth does it), which /proc/PID/cmdline then shows.
  public static func surviveSwitchRootAndShutdown() {
    guard splashd_argument_count() > 0, let first = splashd_arguments()?[0], first.pointee != 0 else { return }
    first.pointee = CChar(UInt8(ascii: "@"))
  }

  /// This process's arguments, argv[0] first, as the kernel passed them to
  /// main (not from /proc/self/cmdline, as Swift's `CommandLine` reads them
  /// on Linux: a chroot without /proc, as image builds run, would make a
  /// `splashd --check` a splash with no arguments at all).
  public static var arguments: [String] {
    guard let values = splashd_arguments() else { return CommandLine.arguments }
    return (0..<Int(splashd_argument_count())).map { values[$0].map { String(cString: $0) } ?? "" }
  }

  /// Replaces this process with the program at `path` (execve): same PID,
  /// same open standard streams, `environment` as its whole environment.
  /// Returns only when that fails, with the reason.
  public static func replace(
    withProgramAt path: String, arguments: [String], environment: [String: String]
  ) -> SystemError {
    let argv = cStrings(arguments)
    var envp = Environment.cStrings(environment)
    restoreSignalMask()
    splashd_descriptor_limit_for_programs(1)
    execve(path, argv, &envp)
    let error = SystemError("execve \(path)", code: errno)
    splashd_descriptor_limit_for_programs(0)
    for index in arguments.indices { free(argv[index]) }
    argv.deallocate()
    for pointer in envp { free(pointer) }
    return error
  }

  /// Raises this process's soft limit of open descriptors to its hard
  /// limit (systemd's default is 1024 of 524288), so that clients of its
  /// sockets cannot take them all; the programs it starts or becomes
  /// (`ChildProcess`, `replace`, the crash hand-off) get the soft limit it
  /// started with, as programs that use select() expect. False when it
  /// could not be raised.
  @discardableResult
  public static func raiseDescriptorLimit() -> Bool { splashd_raise_descriptor_limit() == 0 }

  /// The signal mask the programs splashd runs start with: the one splashd
  /// itself started with, before it blocked signals for its own use.
  public static var signalMaskForChildren: sigset_t {
    get { savedSignalMask ?? sigset_t() }
    set { savedSignalMask = newValue }
  }

  /// A NULL-terminated array of C strings, for execve.
  static func cStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
    let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { array[index] = strdup(string) }
    array[strings.count] = nil
    return array
  }
}

/// The signal mask splashd started with, once it has blocked any.
nonisolated(unsafe) private var savedSignalMask: sigset_t?

/// Puts back the signal mask splashd started with (async-signal-safe).
func restoreSignalMask() {
  guard var mask = savedSignalMask else { return }
  sigprocmask(SIG_SETMASK, &mask, nil)
}
