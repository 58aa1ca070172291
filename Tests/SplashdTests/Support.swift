// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// Runs splashd with an empty config file, so that a machine's own
/// /etc/splashd/splashd.conf cannot change the outcome.
func splashd(
  _ arguments: [String], in directory: TemporaryDirectory, environment: [String: String]? = nil, timeout: Double = 30
)
  throws -> Outcome
{
  let hasConfig = arguments.contains { $0 == "--config" || $0.hasPrefix("--config=") }
  return try run(
    splashdPath, (hasConfig ? [] : ["--config", directory.testConfig]) + arguments, environment: environment,
    timeout: timeout)
}

/// A splashd started by `spawnSplashd`, while it runs.
struct RunningSplashd {
  let pid: Int32
  let stderrPath: String

  /// What it has logged so far.
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// Whether it has ended (gone, or a zombie waiting for its parent).
  var ended: Bool {
    guard let stat = readProcFile("/proc/\(pid)/stat"),
      let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
  }

  /// Waits until it has logged a line containing `text` (or ended); true
  /// when it has.
  @discardableResult
  func waitForLog(_ text: String, seconds: Double = 30) -> Bool {
    waitUntil(seconds) { log.contains(text) || ended }
    return log.contains(text)
  }
}

/// Runs splashd (with `dir`'s empty config unless the arguments name one),
/// calls `act` while it runs, and returns (its PID, outcome). With a
/// `launcher`, that command runs first and is given splashd's path and
/// arguments to exec.
func spawnSplashd(
  _ arguments: [String], in dir: TemporaryDirectory, launcher: [String] = [],
  whileRunning act: (RunningSplashd) -> Void = { _ in }
) throws -> (Int32, Outcome) {
  let hasConfig = arguments.contains { $0 == "--config" || $0.hasPrefix("--config=") }
  let splashdArguments = (hasConfig ? [] : ["--config", dir.testConfig]) + arguments
  let started =
    launcher.isEmpty
    ? try StartedProcess(splashdPath, splashdArguments)
    : try StartedProcess(launcher[0], Array(launcher.dropFirst()) + [splashdPath] + splashdArguments)
  act(RunningSplashd(pid: started.pid, stderrPath: started.stderrPath))
  return (started.pid, try started.finish())
}

/// tools/test/without-pidfd.c, built in `dir`: runs a command as on a kernel
/// without pidfd_open (before Linux 5.3).
func withoutPidfd(in dir: TemporaryDirectory) throws -> String {
  let launcher = dir.path + "/without-pidfd"
  let built = try run(
    "/usr/bin/gcc", ["-O1", "-Wall", "-Wextra", "-Werror", "-o", launcher, packageRoot + "/tools/test/without-pidfd.c"])
  try #require(built.status == 0, "\(built.stderr)")
  return launcher
}

/// How many KiB of the executable's read-only mappings (code and constants)
/// process `pid` has resident (/proc/PID/smaps' Rss); nil when unreadable.
func residentProgramCodeKiB(of pid: Int32) -> Int? {
  guard let smaps = readProcFile("/proc/\(pid)/smaps"),
    let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
  else { return nil }
  var counted = false
  var total = 0
  for line in smaps.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    if fields.count >= 5, fields[0].contains("-") {
      counted = fields.count >= 6 && fields[5] == executable && !fields[1].contains("w")
    } else if counted, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
      total += kib
    }
  }
  return total
}

/// The shared libraries process `pid` has mapped, one path each.
func mappedLibraries(of pid: Int32) -> [String] {
  let maps = readProcFile("/proc/\(pid)/maps") ?? ""
  let paths = maps.split(separator: "\n").compactMap { line -> String? in
    guard let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first,
      path.contains(".so")
    else { return nil }
    return String(path)
  }
  return Array(Set(paths)).sorted()
}
