// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// The program splashd hands the machine to once the splash is done: the
/// process becomes that program (same PID, streams and cgroup), as its own
/// user when one is named.
public struct HandOff: Equatable, Sendable {
  public let arguments: [String]
  /// Where the program was found; nil when it was not.
  public let path: String?
  /// The user (and group) it runs as; nil for splashd's own.
  public let user: String?
  public let group: String?

  /// Locates `program` (PATH lookup like a shell, in `searchPath`), to run
  /// as `user` (and `group`) when given. Nil for an empty program.
  init?(program: [String], searchPath: String?, user: String? = nil, group: String? = nil) {
    guard let name = program.first else { return nil }
    arguments = program
    path = Executables.locate(name, searchPath: searchPath)
    self.user = user
    self.group = group
  }

  /// The program's user, looked up, its runtime directory made, and what
  /// its environment says of it; nil without one.
  func resolvedUser() throws(SystemError) -> (user: ProgramUser, environment: [String: String])? {
    guard let user else { return nil }
    let found = try ProgramUser.lookUp(user, group: group)
    return (found, found.environment(runtimeDirectory: try found.runtimeDirectory()))
  }

  /// Why the program cannot run, when it was not found.
  var problem: String? {
    guard path == nil else { return nil }
    return "cannot run \(printable(arguments[0])): \(Executables.whyNotFound(arguments[0]))"
  }

  /// From now on, a crash of splashd hands off to the program too (as its
  /// user; when that user cannot be had, a crash ends splashd instead).
  func runOnCrash() {
    guard let path else { return }
    guard let resolved = try? resolvedUser() else {
      if user == nil { CrashHandOff.runProgram(path: path, arguments: arguments) }
      return
    }
    CrashHandOff.runProgram(path: path, arguments: arguments, as: resolved)
  }

  /// Replaces splashd with the program, with `additions` in its
  /// environment. Returns only when that cannot be done, with exit status
  /// 127 after saying why.
  func run(additions: [String: String], log: Log) -> Int32 {
    guard let path else {
      log.error(problem ?? "cannot run \(arguments[0])")
      return ExitStatus.cannotRun
    }
    var additions = additions
    var resolved: ProgramUser?
    do {
      if let (found, environment) = try resolvedUser() {
        additions.merge(environment) { _, user in user }
        resolved = found
      }
    } catch {
      log.error(
        "cannot run \(path) as \(user ?? ""): \(error.call == "user \(user ?? "")" ? error.reason : error.description)")
      return ExitStatus.cannotRun
    }
    log.info("handing off to \(path)" + (resolved.map { " as \($0.name) (uid \($0.uid))" } ?? ""))
    if let resolved {
      do {
        try resolved.become()
      } catch {
        log.error("cannot run \(path) as \(resolved.name): \(error.phrase)")
        return ExitStatus.cannotRun
      }
    }
    let error = ThisProcess.replace(withProgramAt: path, arguments: arguments, additions: additions)
    log.error("cannot run \(path): \(error.phrase)")
    return ExitStatus.cannotRun
  }
}
