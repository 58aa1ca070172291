// SPDX-License-Identifier: Apache-2.0
/// `hang-timeout`: when host mode asks its program whether it still
/// answers (xdg_wm_base's ping), how long it waits for the pong, and
/// whether a miss counts. A program that does not answer in time is
/// frozen, not gone: it is treated as a failure (`ProgramEnd.hung`).
public struct HangCheck: Equatable, Sendable {
  /// How long a ping waits for its pong, in seconds.
  public let timeout: Double

  /// The check of `timeout` seconds; nil for 0 (off).
  public init?(timeout: Double) {
    guard timeout > 0 else { return nil }
    self.timeout = timeout
  }

  /// How often the program is pinged: at half the timeout, so that a
  /// program that stops answering is found within 1.5 timeouts of it.
  public var pingInterval: Double { timeout / 2 }

  /// When the next ping is due after one at `last`.
  public func nextPing(after last: Double) -> Double { last + pingInterval }

  /// Whether the program is pinged now: once it has shown its first frame
  /// (a program still starting is the splash's `timeout`'s), while it runs
  /// and is not being ended already.
  public static func pings(programShown: Bool, running: Bool, ending: Bool) -> Bool {
    programShown && running && !ending
  }

  /// What a missed pong means for a program that is `running`: a hang,
  /// unless it is being ended already (its silence is expected then).
  public static func hung(running: Bool, ending: Bool) -> Bool { running && !ending }
}
