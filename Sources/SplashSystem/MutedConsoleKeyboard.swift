// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

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

  /// Turns off the keyboard of the terminal at `path` (/dev/tty0: the
  /// current one); with `restoringOnCrash`, a crash turns it back on.
  public init(_ path: String = "/dev/tty0", restoringOnCrash: Bool) throws(SystemError) {
    descriptor = try FileDescriptor.openDevice(path, O_RDWR)
    self.restoringOnCrash = restoringOnCrash
    do {
      var mode: Int32 = 0
      _ = try descriptor.control(UInt(KDGKBMODE), &mode, call: "KDGKBMODE \(path)")
      saved = UInt(mode)
      if restoringOnCrash { Program.restoreKeyboardOnCrash(descriptor: descriptor.rawValue, mode: saved) }
      try descriptor.control(UInt(KDSKBMODE), value: UInt(K_OFF), call: "KDSKBMODE \(path)")
    } catch {
      if restoringOnCrash { Program.stopRestoringKeyboardOnCrash() }
      try? descriptor.close()
      throw error
    }
  }

  /// The keyboard's mode back, and the terminal closed.
  public func release() {
    guard !released else { return }
    released = true
    _ = try? descriptor.control(UInt(KDSKBMODE), value: saved, call: "KDSKBMODE")
    if restoringOnCrash { Program.stopRestoringKeyboardOnCrash() }
    try? descriptor.close()
  }

  deinit { release() }
}
