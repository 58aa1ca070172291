// SPDX-License-Identifier: Apache-2.0
/// Where a splash is in its life, as `splashctl status` reports it.
public enum SplashPhase: String, CaseIterable, Equatable, Sendable {
  /// Not on the screen yet.
  case starting
  /// The first frame is shown; the minimum hold runs.
  case holding
  /// The hold is over; a reveal gate still holds the splash.
  case waiting
  /// The transition plays.
  case transition
  /// The transition's last frame is shown.
  case done

  /// Whether the splash still stands still (the doors have not started moving).
  public var isHolding: Bool { self == .starting || self == .holding || self == .waiting }

  /// The phase once `event` has happened.
  public func after(_ event: PlaybackEvent) -> SplashPhase {
    switch event {
    case .appeared: return .holding
    case .waiting: return .waiting
    case .gateOpened, .gateTimedOut: return self
    case .willDisappear: return .transition
    case .didDisappear: return .done
    }
  }
}
