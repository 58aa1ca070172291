// SPDX-License-Identifier: Apache-2.0

/// When a helper splashd keeps running beside the program (the on-screen
/// keyboard) is started again after it ends: a second after, twice as
/// long each time in a row it lasted less than `shortLife`, at most
/// `longest`; a second again after one that lasted.
public struct HelperRestartPause: Equatable, Sendable {
  /// The pause after a helper that lasted, and the first after one that did not.
  public static let first = 1.0
  /// The longest pause.
  public static let longest = 60.0
  /// A helper that ended sooner than this after its start failed at once.
  public static let shortLife = 10.0

  /// The pause after the next helper that fails at once.
  private var next = HelperRestartPause.first

  public init() {}

  /// The pause before the next start, for a helper that ended after
  /// lasting `lasted` seconds.
  public mutating func afterEnd(lasted: Double) -> Double {
    let pause = lasted < Self.shortLife ? next : Self.first
    next = min(pause * 2, Self.longest)
    return pause
  }
}
