// SPDX-License-Identifier: Apache-2.0
import SplashRender

/// Host mode: the program's frame that the stage draws from where it lies,
/// not copied (the client's own buffer, held by the compositor until the
/// program shows the next).
protocol ProgramFrameLender: AnyObject {
  /// Runs `body` with the held frame's pixels (nil when there is none),
  /// which may be read only while it runs: a client may move or shrink its
  /// memory between two reads.
  func withHeldFrame(_ body: (Pixels?) -> Void)
  /// The stage holds the splash again, over its own background: the frame
  /// is no longer drawn behind it.
  func stageLetGoOfFrame()
  /// The stage draws its own frame again after the program's buffer was
  /// scanned out: the program's current frame goes behind its scenes
  /// again, whole, to be drawn.
  func composeHeldFrame()
}
