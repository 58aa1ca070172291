// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashSystem
import SplashWaylandHost
import Testing

/// The console's keyboard turned off while host mode has the keyboards,
/// on this machine's first virtual terminal (the test machines have one).
@Suite(.serialized) struct MutedConsoleKeyboardTests {
  let terminal = "/dev/tty1"

  /// The terminal's keyboard mode now (KDGKBMODE).
  func mode() throws -> Int32 {
    let descriptor = try FileDescriptor.openDevice(terminal, O_RDONLY)
    defer { try? descriptor.close() }
    var mode: Int32 = -1
    _ = try descriptor.control(UInt(KDGKBMODE), &mode, call: "KDGKBMODE")
    return mode
  }

  @Test func theKeyboardIsOffUntilReleasedThenAsItWas() throws {
    let before = try mode()
    let muted = try MutedConsoleKeyboard(terminal, restoringOnCrash: false)
    #expect(try mode() == K_OFF)
    muted.release()
    #expect(try mode() == before)
    // Released once: a second release changes nothing.
    muted.release()
    #expect(try mode() == before)
  }

  /// A keyboard found off (a splashd killed outright left it so) comes
  /// back on, in Unicode mode.
  @Test func aKeyboardFoundOffComesBackInUnicodeMode() throws {
    let before = try mode()
    let descriptor = try FileDescriptor.openDevice(terminal, O_RDWR)
    defer {
      _ = try? descriptor.control(UInt(KDSKBMODE), value: UInt(before), call: "KDSKBMODE")
      try? descriptor.close()
    }
    try descriptor.control(UInt(KDSKBMODE), value: UInt(K_OFF), call: "KDSKBMODE")
    let muted = try MutedConsoleKeyboard(terminal, restoringOnCrash: false)
    #expect(try mode() == K_OFF)
    muted.release()
    #expect(try mode() == K_UNICODE)
  }

  @Test func whatIsNotATerminalIsRefused() throws {
    #expect(throws: SystemError.self) { _ = try MutedConsoleKeyboard("/dev/null", restoringOnCrash: false) }
  }
}
