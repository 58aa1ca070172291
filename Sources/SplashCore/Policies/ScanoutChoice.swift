// SPDX-License-Identifier: Apache-2.0

/// Host mode: whether the program's frame may go to the screen as it is,
/// its own GPU buffer made the display's framebuffer (direct scan-out: no
/// composition, no copy), or must be drawn into splashd's frame. Only when
/// the program is alone on the only screen and its buffer is that screen's
/// picture whole, unturned; the compositor has already said that the frame
/// is one GPU buffer with nothing over it (no popup, second surface or
/// cursor), and the card has the last word (its TEST_ONLY commit).
public enum ScanoutChoice {
  /// A screen as scan-out sees it: its mode's size and how its content is
  /// turned.
  public struct Screen: Equatable, Sendable {
    public let mode: PixelSize
    public let turn: Rotation

    public init(mode: PixelSize, turn: Rotation) {
      self.mode = mode
      self.turn = turn
    }
  }

  /// Why a frame of `frame` pixels cannot be scanned out on `screens`
  /// (`splashShows`: anything of the splash is on them, or is to be), or
  /// nil when it may be.
  public static func refusal(frame: PixelSize, screens: [Screen], splashShows: Bool) -> String? {
    if splashShows { return "the splash is on the screen" }
    guard screens.count == 1, let screen = screens.first else {
      return "the window is shown on \(screens.count) screens"
    }
    if screen.turn != .none { return "the screen is turned \(screen.turn.rawValue) degrees" }
    guard frame == screen.mode else {
      return "a \(frame.width)x\(frame.height) frame on a \(screen.mode.width)x\(screen.mode.height) screen"
    }
    return nil
  }
}
