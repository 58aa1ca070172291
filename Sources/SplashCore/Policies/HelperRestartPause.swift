// SPDX-License-Identifier: Apache-2.0

/// When a helper splashd keeps running beside the program (the on-screen
/// keyboard) is started again after it ends: after an end that came less
/// than `shortLife` after its start, twice the pause before (a second the
/// first time), at most `longest`; after one that came later, a second,
/// from which the doubling goes on.
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
