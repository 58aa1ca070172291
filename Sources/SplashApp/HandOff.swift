// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// The program splashd hands the machine to once the splash is done: the
/// process becomes that program (same PID, streams and cgroup).
public struct HandOff: Equatable, Sendable {
  public let arguments: [String]
  /// Where the program was found; nil when it was not.
  public let path: String?

  /// Locates `program` (PATH lookup like a shell, in `searchPath`). Nil
  /// for an empty program.
  init?(program: [String], searchPath: String?) {
    guard let name = program.first else { return nil }
    arguments = program
    path = Program.locate(name, searchPath: searchPath)
  }

  /// Why the program cannot run, when it was not found.
  var problem: String? {
    guard path == nil else { return nil }
    return "cannot run \(printable(arguments[0])): \(Program.whyNotFound(arguments[0]))"
  }

  /// From now on, a crash of splashd hands off to the program too.
  func replaceProcessOnCrash() {
    if let path { Program.replaceProcessOnCrash(path: path, arguments: arguments) }
  }

  /// Replaces splashd with the program, with `additions` in its
  /// environment. Returns only when that cannot be done, with exit status
  /// 127 after saying why.
  func run(additions: [String: String], log: Log) -> Int32 {
    guard let path else {
      log.error(problem ?? "cannot run \(arguments[0])")
      return ExitStatus.cannotRun
    }
    log.info("handing off to \(path)")
    let error = Program.replaceProcess(path: path, arguments: arguments, additions: additions)
    log.error("cannot run \(path): \(error.phrase)")
    return ExitStatus.cannotRun
  }
}
