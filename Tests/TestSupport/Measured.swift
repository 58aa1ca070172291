// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a measured run did, and what it cost.
public struct Measured: Sendable {
  public var outcome: Outcome
  /// The process's own peak resident set (wait4's ru_maxrss), in KiB.
  public var peakResidentKiB: Int
  public var cpuSeconds: Double
  /// It was killed for running past its time.
  public var timedOut: Bool
}

/// A program run through tools/test/measure.py, which forks it from a small
/// process (a child of the test process would count the test's size as its
/// own) and reports its peak memory and CPU time.
public final class MeasuredProcess {
  public let started: StartedProcess
  private let result: String
  private let scratch: TemporaryDirectory

  /// Starts `executable` with `arguments`; it is killed after `timeout` seconds.
  public init(
    _ executable: String, _ arguments: [String], timeout: Double, environment: [String: String]? = nil,
    tools: String
  ) throws {
    scratch = try TemporaryDirectory()
    result = scratch.path + "/measured"
    started = try StartedProcess(
      "/usr/bin/env", ["python3", tools + "/measure.py", result, String(timeout), executable] + arguments,
      environment: environment)
  }

  /// The measured program's pid, once it has been forked (measure.py
  /// writes it whole, by a rename; within 30 s).
  public var pid: Int32? {
    func read() -> Int32? { (try? String(contentsOfFile: result + ".pid", encoding: .utf8)).flatMap { Int32($0) } }
    waitUntil(30) { read() != nil }
    return read()
  }

  /// Waits for it to end.
  public func finish() throws -> Measured {
    let outcome = try started.finish(timeout: 600)
    let fields = ((try? String(contentsOfFile: result, encoding: .utf8)) ?? "").split(separator: " ").map(String.init)
    func field(_ name: String) -> String? {
      fields.firstIndex(of: name).flatMap { $0 + 1 < fields.count ? fields[$0 + 1] : nil }
    }
    guard let status = field("status").flatMap(Int32.init), let peak = field("peak_rss_kb").flatMap(Int.init) else {
      throw TestFailure("measure.py reported nothing: \(outcome.stderr)")
    }
    var measured = outcome
    measured.status = status
    return Measured(
      outcome: measured, peakResidentKiB: peak, cpuSeconds: field("cpu_s").flatMap(Double.init) ?? 0,
      timedOut: field("timed_out") == "1")
  }
}

/// Runs and measures `executable` (see `MeasuredProcess`).
public func runMeasured(
  _ executable: String, _ arguments: [String], timeout: Double, environment: [String: String]? = nil, tools: String
) throws -> Measured {
  try MeasuredProcess(executable, arguments, timeout: timeout, environment: environment, tools: tools).finish()
}

/// A figure as the tests print it: two decimals.
public func formatted(_ value: Double) -> String { String(format: "%.2f", value) }
