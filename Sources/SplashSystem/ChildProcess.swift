import Glibc

/// How a child process ended and what it used.
public struct ChildExit: Sendable {
  /// The exit status, or 128 + the signal number when a signal ended it.
  public let status: Int32
  /// CPU seconds in user and system mode.
  public let cpuSeconds: Double
  /// Peak resident set size in bytes.
  public let peakResidentBytes: Int
}

/// A child process started with posix_spawn.
public struct ChildProcess: Sendable {
  public let pid: pid_t

  /// Starts `path` with `arguments` (argv[0] included) and the current
  /// environment; standard output and error go to the files given, if any.
  public static func spawn(
    _ path: String, _ arguments: [String], stdoutPath: String? = nil, stderrPath: String? = nil
  ) throws(SystemError) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdoutPath {
      posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    if let stderrPath {
      posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, nil, &argv, environ)
    if result != 0 { throw SystemError("posix_spawn \(path)", code: result) }
    return ChildProcess(pid: pid)
  }

  /// Waits for the child to end.
  public func wait() throws(SystemError) -> ChildExit {
    var status: Int32 = 0
    var usage = rusage()
    try retryingInterrupts("wait4") { wait4(pid, &status, 0, &usage) }
    let signal = status & 0x7f
    let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return ChildExit(
      status: code, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
      peakResidentBytes: Int(usage.ru_maxrss) * 1024)
  }
}
