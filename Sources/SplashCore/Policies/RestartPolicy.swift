// SPDX-License-Identifier: Apache-2.0
/// When host mode starts its program again after it ends (`[handoff]
/// restart`), under the splash.
public enum RestartPolicy: String, CaseIterable, Equatable, Sendable {
  /// Never: splashd ends with the program, with its status.
  case no
  /// When it ends with a status other than 0 (a signal included).
  case onFailure = "on-failure"
  /// However it ends.
  case always

  /// What follows the program's end with `status` (128 + the signal when a
  /// signal ended it), after `restarts` restarts of at most `limit`;
  /// `stopping`: splashd itself was asked to stop (SIGTERM), which ended
  /// the program too.
  public func decide(status: Int32, restarts: Int, limit: Int, stopping: Bool) -> RestartDecision {
    decide(.exited(status: status), restarts: restarts, limit: limit, stopping: stopping)
  }

  /// What follows the program's `end` (a hang is a failure, whatever
  /// status it ended with once told to), after `restarts` restarts of at
  /// most `limit`; `stopping`: splashd itself was asked to stop.
  public func decide(_ end: ProgramEnd, restarts: Int, limit: Int, stopping: Bool) -> RestartDecision {
    let wanted = self == .always || (self == .onFailure && end.failed)
    guard wanted, !stopping else { return .end }
    guard restarts < limit else { return .giveUp }
    return .restart(after: RestartDecision.pause(before: restarts + 1))
  }
}

/// What follows a hosted program's end.
public enum RestartDecision: Equatable, Sendable {
  /// splashd ends as it would without restarts, with the program's status.
  case end
  /// The splash comes back and the program starts again after this many
  /// seconds.
  case restart(after: Double)
  /// The limit is reached: the splash comes back and stays, with its
  /// message, and splashd ends with the program's status.
  case giveUp

  /// The pause before the `restart`th restart (1 for the first): half a
  /// second, doubled each time, at most `longestPause`.
  public static func pause(before restart: Int) -> Double {
    var pause = 0.5
    for _ in 1..<max(restart, 1) where pause < longestPause { pause *= 2 }
    return min(pause, longestPause)
  }

  /// The longest pause between two starts.
  public static let longestPause = 8.0

  /// The message line the splash shows when `program` (its name) ended with
  /// `status`, for this decision after `restarts` restarts (nil: none).
  public func message(program: String, status: Int32, restarts: Int) -> String? {
    message(program: program, end: .exited(status: status), restarts: restarts)
  }

  /// The message line the splash shows when `program` (its name) ended as
  /// `end` says, for this decision after `restarts` restarts (nil: none).
  public func message(program: String, end: ProgramEnd, restarts: Int) -> String? {
    let ended = end.phrase(program: program)
    switch self {
    case .end: return nil
    case .restart: return "\(ended); starting it again (restart \(restarts + 1))"
    case .giveUp: return "\(ended); not started again after \(restarts) restart\(restarts == 1 ? "" : "s")"
    }
  }
}
