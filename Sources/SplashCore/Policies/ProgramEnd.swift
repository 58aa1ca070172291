// SPDX-License-Identifier: Apache-2.0
/// How host mode's program ended: it exited (a status, 128 + the signal
/// when a signal ended it), or it stopped answering and splashd ended it
/// (`hang-timeout`), a failure whatever status it then had.
public enum ProgramEnd: Equatable, Sendable {
  /// It ended by itself (or by a signal someone else sent).
  case exited(status: Int32)
  /// It did not answer a ping within `timeout` seconds, and splashd ended
  /// it; `status` is what it then ended with.
  case hung(timeout: Double, status: Int32)

  /// Its exit status (128 + the signal when a signal ended it).
  public var status: Int32 {
    switch self {
    case .exited(let status), .hung(_, let status): status
    }
  }

  /// Whether this is a failure (`restart = on-failure`): a status other
  /// than 0, a signal, or a hang.
  public var failed: Bool {
    switch self {
    case .exited(let status): status != 0
    case .hung: true
    }
  }

  /// How it ended, for people: "foot ended with status 1", "foot was
  /// ended by signal 9", "foot stopped answering (no reply in 10 s)".
  public func phrase(program: String) -> String {
    switch self {
    case .exited(let status) where status > 128: "\(program) was ended by signal \(status - 128)"
    case .exited(let status): "\(program) ended with status \(status)"
    case .hung(let timeout, _): "\(program) stopped answering (no reply in \(formatNumber(timeout)) s)"
    }
  }

  /// How it ended, as a field of `splashctl status`: `status:N`,
  /// `signal:N`, `hung`.
  public var field: String {
    switch self {
    case .exited(let status) where status > 128: "signal:\(status - 128)"
    case .exited(let status): "status:\(status)"
    case .hung: "hung"
    }
  }
}
