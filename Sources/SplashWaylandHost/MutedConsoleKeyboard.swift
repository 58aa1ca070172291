// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashSystem

/// The current virtual terminal's keyboard turned off (KDSKBMODE K_OFF),
/// while a compositor takes the keyboards itself: keys typed into the kiosk
/// program must not also reach the terminal (a getty's login prompt under
/// the picture) or switch terminals (Ctrl+Alt+F1…). The mode it had comes
/// back when released, as logind and seatd do for their compositors, and
/// also when splashd crashes (`restoringOnCrash`), so that a broken splash
/// never leaves the console without a keyboard.
public final class MutedConsoleKeyboard {
  private let descriptor: FileDescriptor
  private let saved: UInt
  private let restoringOnCrash: Bool
  private var released = false

  /// Turns off the keyboard of the virtual terminal at `path`; with
  /// `restoringOnCrash`, a crash turns it back on. A keyboard found off is
  /// turned back on in Unicode mode.
  public init(_ path: String, restoringOnCrash: Bool) throws(SystemError) {
    descriptor = try FileDescriptor.openDevice(path, O_RDWR)
    self.restoringOnCrash = restoringOnCrash
    do {
      var mode: Int32 = 0
      _ = try descriptor.control(UInt(KDGKBMODE), &mode, call: "KDGKBMODE \(path)")
      // Found off (a splashd killed outright left it so), it comes back on,
      // in Unicode mode as logind puts it back.
      saved = mode == K_OFF ? UInt(K_UNICODE) : UInt(mode)
      if restoringOnCrash { CrashHandOff.restoreKeyboard(descriptor: descriptor.rawValue, mode: saved) }
      try descriptor.control(UInt(KDSKBMODE), value: UInt(K_OFF), call: "KDSKBMODE \(path)")
    } catch {
      if restoringOnCrash { CrashHandOff.stopRestoringKeyboard() }
      try? descriptor.close()
      throw error
    }
  }

  /// The keyboard's mode back, and the terminal closed.
  public func release() {
    guard !released else { return }
    released = true
    _ = try? descriptor.control(UInt(KDSKBMODE), value: saved, call: "KDSKBMODE")
    if restoringOnCrash { CrashHandOff.stopRestoringKeyboard() }
    try? descriptor.close()
  }

  deinit { release() }
}
