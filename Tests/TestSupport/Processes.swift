// SPDX-License-Identifier: Apache-2.0
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

/// A process started with its standard output and error going to files.
public final class StartedProcess {
  public let process = Process()
  private let scratch: TemporaryDirectory
  public var stdoutPath: String { scratch.path + "/out" }
  public var stderrPath: String { scratch.path + "/err" }
  public var pid: Int32 { process.processIdentifier }

  /// Starts `executable` with `arguments` in `environment` (the test's own
  /// without a desktop session by default).
  public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
    scratch = try TemporaryDirectory()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment ?? environmentWithoutDesktop()
    for path in [stdoutPath, stderrPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    try process.run()
  }

  /// Waits for it to end and returns what it did; throws when it does not
  /// end within `timeout` seconds (it is killed), so a hang fails the test.
  public func finish(timeout: Double = 30) throws -> Outcome {
    if !waitUntil(timeout, { !process.isRunning }) {
      kill(pid, SIGKILL)
      process.waitUntilExit()
      throw TestFailure(
        "\(process.executableURL?.path ?? "?") \(process.arguments ?? []) did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
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
