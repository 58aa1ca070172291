// SPDX-License-Identifier: Apache-2.0
import CLinux
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

  /// Starts `path` with `arguments` (argv[0] included) and `environment`
  /// (nil: this process's), as `user` (its ids and groups) when given;
  /// standard output and error go to the files given, if any, or standard
  /// error to `standardError` (a pipe's writing end, say). The
  /// child starts with the signal mask splashd started with
  /// (`ThisProcess.signalMaskForChildren`), and with the descriptor limit
  /// it started with (`ThisProcess.raiseDescriptorLimit`); with
  /// `ownProcessGroup`, leading a process group of its own (`sendToGroup`).
  public static func spawn(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdoutPath: String? = nil,
    stderrPath: String? = nil, standardError: FileDescriptor? = nil, as user: ProgramUser? = nil,
    ownProcessGroup: Bool = false
  ) throws(SystemError) -> ChildProcess {
    let variables = environment ?? Environment.all()
    if let user {
      precondition(stdoutPath == nil && stderrPath == nil, "a user's program keeps splashd's streams")
      return try spawn(
        path, arguments, environment: variables, standardError: standardError, as: user,
        ownProcessGroup: ownProcessGroup)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = ThisProcess.signalMaskForChildren
    posix_spawnattr_setsigmask(&attributes, &mask)
    if ownProcessGroup { posix_spawnattr_setpgroup(&attributes, 0) }
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdoutPath {
      posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    if let stderrPath {
      posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else if let standardError {
      posix_spawn_file_actions_adddup2(&actions, standardError.rawValue, 2)
    }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var envp = Environment.cStrings(variables)
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    // The child inherits the descriptor limit splashd started with
    // (posix_spawn sets no limits): put back around the spawn.
    splashd_descriptor_limit_for_programs(1)
    let result = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
    splashd_descriptor_limit_for_programs(0)
    if result != 0 { throw SystemError("posix_spawn \(path)", code: result) }
    return ChildProcess(pid: pid)
  }

  /// Starts `path` as `user`: forked, the child given the user's ids and
  /// groups, then exec'd.
  private static func spawn(
    _ path: String, _ arguments: [String], environment variables: [String: String],
    standardError: FileDescriptor?, as user: ProgramUser, ownProcessGroup: Bool
  ) throws(SystemError) -> ChildProcess {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var envp = Environment.cStrings(variables)
    defer { for pointer in envp { free(pointer) } }
    var mask = ThisProcess.signalMaskForChildren
    let pid = user.groups.withUnsafeBufferPointer { groups in
      splashd_spawn_as(
        path, &argv, &envp, &mask, user.uid, user.gid, Int32(groups.count), groups.baseAddress,
        standardError?.rawValue ?? -1, ownProcessGroup ? 1 : 0)
    }
    guard pid > 0 else { throw SystemError("start \(path) as \(user.name)", code: -pid) }
    return ChildProcess(pid: pid)
  }

  /// What tells that the child has ended (its pidfd, or SIGCHLD where the
  /// kernel has no pidfd_open).
  public func endWatch() throws(SystemError) -> ChildEndWatch { try ChildEndWatch(child: pid) }

  /// Sends `signal` to the child.
  public func send(_ signal: Int32) { kill(pid, signal) }

  /// Sends `signal` to the child's process group: the child and what it
  /// started, when it was spawned leading a group of its own.
  public func sendToGroup(_ signal: Int32) { kill(-pid, signal) }

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
