// SPDX-License-Identifier: Apache-2.0
import SplashSettings

/// What follows the splash on the screen, chosen once by the plan from the
/// settings and the program. Each says when the program starts, whether
/// the display stays with it, and what splashd does after the splash.
enum Successor: Equatable {
  /// No program: splashd ends with the splash (the last frame stays only
  /// when the splash's own settings say: `keep-last-frame`, Plymouth's
  /// `--retain-splash`, the shutdown splash).
  case nothing
  /// splashd becomes the program once the splash is done (execve: the
  /// same PID), the last frame left on the screen for it to draw over.
  case execInPlace
  /// The program starts before the splash, as splashd's child
  /// (`ready = notify`: its READY=1 reveals), and is supervised after it,
  /// the last frame left for it.
  case spawned
  /// The program is the client of splashd's own compositor (`host =
  /// wayland`), started once the splash is on the screen; splashd stays its
  /// compositor after the splash (`KioskSupervisor`). A program that never
  /// started (no compositor, a splash that failed first) runs in place
  /// after the splash instead.
  case hosted

  /// The successor of `handoff`'s settings for `program` (nil: none).
  init(_ handoff: HandoffSettings, program: [String]?) {
    if program == nil {
      self = .nothing
    } else if handoff.host == .wayland {
      self = .hosted
    } else if handoff.ready == .notify {
      self = .spawned
    } else {
      self = .execInPlace
    }
  }

  /// Whether a program follows: the display stays for it (a splashd that
  /// would adopt this one is refused it).
  var keepsDisplay: Bool { self != .nothing }

  /// Whether the program is started by the session (before the splash, or
  /// behind its first frame) rather than run in place after it: a crash of
  /// splashd then must not start it a second time once it runs.
  var startsWithTheSession: Bool { self == .spawned || self == .hosted }

  /// Whether the last frame stays on the screen when the splash lets go of
  /// it: for a program that draws over it (not when the splash steps aside
  /// for the console).
  var keepsLastFrame: Bool { self != .nothing }

  /// What follows once the splash is over, as far as the run came: a
  /// program the session was to start and did (`programStarted`) as
  /// planned; one it never started runs in place after the splash when it
  /// can still be (`handOff`: host mode keeps the hand-off until the
  /// program starts, so that a splash that failed first still runs it);
  /// else nothing.
  func afterSplash(programStarted: Bool, handOff: Bool) -> Successor {
    switch self {
    case .hosted, .spawned: programStarted ? self : handOff ? .execInPlace : .nothing
    case .execInPlace: handOff ? .execInPlace : .nothing
    case .nothing: .nothing
    }
  }
}
