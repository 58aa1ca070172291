// SPDX-License-Identifier: Apache-2.0
/// Serves a kind of request at most once per `interval`: one that comes
/// sooner after the last served waits until the interval is up, and any
/// number that come meanwhile are served together then, once.
///
/// Host mode paces screencopy clients so: a screen has no newer picture
/// than its last refresh, and each copy costs splashd whole frames of
/// copying, so a client that asks without pause gets one copy a refresh
/// and cannot take the time the splash's own frames need.
public struct RequestPacer: Equatable, Sendable {
  /// The shortest time between two served requests, in seconds.
  public let interval: Double
  /// When a request was last served; nil before the first.
  public private(set) var lastServed: Double?
  /// Whether a request waits for `dueTime`.
  public private(set) var isWaiting = false

  public init(interval: Double) {
    precondition(interval >= 0, "the interval must not be negative")
    self.interval = interval
  }

  /// A request came at `now`: whether to serve it now (then it counts as
  /// served at `now`); if not, it waits for `dueTime`.
  public mutating func request(at now: Double) -> Bool {
    if let lastServed, now < lastServed + interval {
      isWaiting = true
      return false
    }
    lastServed = now
    isWaiting = false
    return true
  }

  /// When the waiting request is to be served; nil when none waits.
  public var dueTime: Double? { isWaiting ? lastServed.map { $0 + interval } : nil }

  /// Whether the waiting request is due at `now` (then it counts as
  /// served at `now`).
  public mutating func serveDue(at now: Double) -> Bool {
    guard let dueTime, now >= dueTime else { return false }
    lastServed = now
    isWaiting = false
    return true
  }
}
