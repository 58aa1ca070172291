// SPDX-License-Identifier: Apache-2.0
import CLinux
import Foundation

/// What a finished process did.
public struct Outcome: Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
  public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// A failure a test reports in its own words.
public struct TestFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// The environment of the test process without a desktop session, so that
/// a developer's own DISPLAY cannot change an outcome.
public func environmentWithoutDesktop() -> [String: String] {
  var environment = ProcessInfo.processInfo.environment
  environment["DISPLAY"] = nil
  environment["WAYLAND_DISPLAY"] = nil
  return environment
}

/// Where a spawned child's standard output or error goes.
public enum ChildOutput {
  /// To /dev/null.
  case discarded
  /// To the file at this path, created or emptied.
  case file(String)
  /// Into a pipe whose read end is the child's `output` (standard output)
  /// or `errors` (standard error).
  case pipe
}

/// A process started with posix_spawn for a test.
///
/// Foundation's `Process` is not used: on Linux it learns of a child's end
/// through a socket pair the child holds, which a child spawned at the same
/// moment by another test (or by splashd's own code running in process) can
/// inherit and keep open, so the first one never seems to end and
/// `waitUntilExit` never returns; and its children start with the spawning
/// thread's signals blocked. Here the child gets only its standard streams
/// (every other descriptor is closed in it), an empty signal mask and default
/// signal actions, its own process group, and its end is seen by polling
/// `waitpid`, which needs no signal, thread or run loop.
public final class SpawnedChild: @unchecked Sendable {
  public let pid: pid_t
  /// The read end of its standard output, for `.pipe`.
  public let output: FileHandle?
  /// The read end of its standard error, for `.pipe`.
  public let errors: FileHandle?
  private let lock = NSLock()
  private var waitStatus: Int32?

  /// Starts `executable` with `arguments` in `environment` (the test's own
  /// without a desktop session by default); standard input is /dev/null.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    standardOutput: ChildOutput = .discarded, standardError: ChildOutput = .discarded
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var readEnds: [Int32] = []
    var writeEnds: [Int32] = []
    defer { for fd in writeEnds { close(fd) } }
    func direct(_ output: ChildOutput, to target: Int32) throws -> FileHandle? {
      switch output {
      case .discarded:
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
      case .file(let path):
        posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      case .pipe:
        var ends: [Int32] = [0, 0]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw TestFailure("pipe2: \(String(cString: strerror(errno)))") }
        readEnds.append(ends[0])
        writeEnds.append(ends[1])
        posix_spawn_file_actions_adddup2(&actions, ends[1], target)
        return FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
      }
      return nil
    }
    output = try direct(standardOutput, to: 1)
    errors = try direct(standardError, to: 2)
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let variables = environment ?? environmentWithoutDesktop()
    var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
    guard result == 0 else {
      for fd in readEnds { close(fd) }
      throw TestFailure("posix_spawn \(executable): \(String(cString: strerror(result)))")
    }
    self.pid = pid
  }

  /// Whether it is still running (once it has ended, it is reaped).
  public var isRunning: Bool { lock.withLock { reap(blocking: false) } == nil }

  /// Its exit status, or the number of the signal that ended it; nil while it runs.
  public var terminationStatus: Int32? {
    guard let status = lock.withLock({ reap(blocking: false) }) else { return nil }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : signal
  }

  /// Sends `signal` to it, unless it has already been reaped.
  public func send(_ signal: Int32) {
    lock.withLock { if waitStatus == nil { _ = kill(pid, signal) } }
  }

  /// Waits at most `seconds` for it to end; when it has not, kills it, reaps
  /// it and returns false.
  @discardableResult
  public func wait(seconds: Double) -> Bool {
    if waitUntil(seconds, { !isRunning }) { return true }
    lock.withLock {
      if waitStatus == nil { _ = kill(pid, SIGKILL) }
      _ = reap(blocking: true)
    }
    return false
  }

  private func reap(blocking: Bool) -> Int32? {
    if let waitStatus { return waitStatus }
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
    if result == pid { waitStatus = status }
    return waitStatus
  }

  deinit {
    if waitStatus == nil {
      kill(pid, SIGKILL)
      _ = reap(blocking: true)
    }
  }
}

/// A process started with its standard output and error going to files.
public final class StartedProcess {
  public let child: SpawnedChild
  private let command: String
  private let scratch: TemporaryDirectory
  public var stdoutPath: String { scratch.path + "/out" }
  public var stderrPath: String { scratch.path + "/err" }
  public var pid: Int32 { child.pid }

  /// Starts `executable` with `arguments` in `environment` (the test's own
  /// without a desktop session by default).
  public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
    scratch = try TemporaryDirectory()
    command = ([executable] + arguments).joined(separator: " ")
    child = try SpawnedChild(
      executable, arguments, environment: environment,
      standardOutput: .file(scratch.path + "/out"), standardError: .file(scratch.path + "/err"))
  }

  /// Waits for it to end and returns what it did; throws when it does not
  /// end within `timeout` seconds (it is killed), so a hang fails the test.
  public func finish(timeout: Double = 30) throws -> Outcome {
    guard child.wait(seconds: timeout), let status = child.terminationStatus else {
      throw TestFailure("\(command) did not finish within \(timeout) s")
    }
    return Outcome(
      status: status, stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
  }
}

/// Runs `executable` with `arguments`; throws when it does not finish
/// within `timeout` seconds (it is killed), so a hang fails the calling test.
public func run(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 30
) throws -> Outcome {
  try StartedProcess(executable, arguments, environment: environment).finish(timeout: timeout)
}

/// Waits until `condition` holds, checking it every 20 ms, for at most
/// `seconds`; returns whether it held. For waiting on what another process
/// does (a log line written, a file made, a window mapped): the test goes
/// on as soon as it has happened, never after a guessed delay.
@discardableResult
public func waitUntil(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() >= deadline { return false }
    usleep(20_000)
  }
  return true
}

/// The whole of a /proc file. Foundation's `String(contentsOfFile:)` trusts
/// the size stat reports, 0 for /proc, and returns only the first read: this
/// reads to the end.
public func readProcFile(_ path: String) -> String? {
  guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
  defer { try? handle.close() }
  return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}

/// Whether this test run is under ThreadSanitizer, whose runtime does not
/// support a child of a threaded process that goes on running (such a child
/// has blocked for good there, before it ran a line of its own).
public let runsUnderThreadSanitizer = dlsym(dlopen(nil, RTLD_LAZY), "__tsan_init") != nil

/// The wait status of the forked child `child`, waited for at most
/// `seconds`: one that has not ended by then is killed (SIGKILL) and
/// reaped, and a TestFailure says so, rather than the test run hanging.
public func statusOfChild(_ child: pid_t, within seconds: Double = 30) throws -> Int32 {
  let deadline = Date().addingTimeInterval(seconds)
  var status: Int32 = 0
  while true {
    let waited = waitpid(child, &status, WNOHANG)
    if waited == child { return status }
    if waited < 0 && errno != EINTR { throw TestFailure("waitpid failed: errno \(errno)") }
    if Date() > deadline {
      kill(child, SIGKILL)
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      throw TestFailure("the forked child \(child) had not ended after \(seconds) s: killed")
    }
    usleep(10_000)
  }
}

/// The wait status of a forked child that runs `body` (with 20 s before
/// SIGALRM ends it, should it hang, and killed by the parent after 30 s
/// should it hang before that) and then `_exit(4)`: what a crash test looks
/// at. The child runs only async-signal-safe calls unless the test says
/// otherwise.
public func statusOfAForkedChild(_ body: () -> Void) throws -> Int32 {
  let child = fork()
  guard child >= 0 else { throw TestFailure("fork failed: errno \(errno)") }
  if child == 0 {
    alarm(20)
    body()
    _exit(4)
  }
  return try statusOfChild(child)
}
