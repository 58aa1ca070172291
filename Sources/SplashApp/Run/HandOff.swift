// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
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
  /// splashd's environment, of which the program gets what
  /// `ProgramEnvironment` says, and the names `passing` lists.
  let splashdEnvironment: [String: String]
  let passing: [String]

  /// Locates `program` (PATH lookup like a shell, in `environment`'s
  /// PATH), to run as `user` (and `group`) when given, with what
  /// `ProgramEnvironment` takes of `environment` and the names `passing`
  /// lists. Nil for an empty program.
  init?(
    program: [String], environment: [String: String], passing: [String] = [], user: String? = nil,
    group: String? = nil
  ) {
    guard let name = program.first else { return nil }
    arguments = program
    path = Executables.locate(name, searchPath: environment["PATH"])
    self.user = user
    self.group = group
    splashdEnvironment = environment
    self.passing = passing
  }

  /// The variable that tells the program the splash's angle (0, 90, 180, 270).
  static let rotationVariable = "SPLASHD_ROTATION"

  /// `program` as `handoff`'s settings run it: as its user and group, with
  /// the names it passes of splashd's `environment`.
  init?(program: [String], settings handoff: HandoffSettings?, environment: [String: String]) {
    self.init(
      program: program, environment: environment, passing: handoff?.passEnvironment ?? [], user: handoff?.user,
      group: handoff?.group)
  }

  /// The program's user, looked up, its runtime directory made (nil
  /// without one), and its whole environment with `additions`.
  func resolved(additions: [String: String] = [:]) throws(SystemError) -> (
    user: ProgramUser?, environment: [String: String]
  ) {
    var added = additions
    var found: ProgramUser?
    if let user {
      let looked = try ProgramUser.lookUp(user, group: group)
      added.merge(looked.environment(runtimeDirectory: try looked.runtimeDirectory())) { _, user in user }
      found = looked
    }
    return (found, ProgramEnvironment.make(from: splashdEnvironment, passing: passing, additions: added))
  }

  /// Why the program cannot run, when it was not found.
  var problem: String? {
    guard path == nil else { return nil }
    return "cannot run \(printable(arguments[0])): \(Executables.whyNotFound(arguments[0]))"
  }

  /// From now on, a crash of splashd hands off to the program too (as its
  /// user; when that user cannot be had, a crash ends splashd instead).
  func runOnCrash() {
    // The angle as it is now (a turn later sets it anew: CrashHandOff.setVariable).
    let angle = Environment.value(Self.rotationVariable) ?? "0"
    guard let path, let (found, environment) = try? resolved(additions: [Self.rotationVariable: angle]) else {
      return
    }
    CrashHandOff.runProgram(path: path, arguments: arguments, environment: environment, as: found)
  }

  /// Replaces splashd with the program, with `additions` in its
  /// environment. Returns only when that cannot be done, with exit status
  /// 127 after saying why.
  func run(additions: [String: String], log: Log) -> Int32 {
    guard let path else {
      log.error(problem ?? "cannot run \(arguments[0])")
      return ExitStatus.cannotRun
    }
    let resolved: ProgramUser?
    let environment: [String: String]
    do {
      (resolved, environment) = try self.resolved(additions: additions)
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
    let error = ThisProcess.replace(withProgramAt: path, arguments: arguments, environment: environment)
    log.error("cannot run \(path): \(error.phrase)")
    return ExitStatus.cannotRun
  }
}
