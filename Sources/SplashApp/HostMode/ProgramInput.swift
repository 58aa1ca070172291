// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import SplashWaylandHost

/// Host mode: what reaches the program from the machine's keyboards,
/// pointers and touch screens (the compositor's own libinput, when the
/// screens are the machine's), the console's keyboard off meanwhile, where
/// a touch on each screen lands in the window, and nothing of it while a
/// question on the splash is being answered or the screen is off.
final class ProgramInput {
  /// splashd's environment, whose XKB_DEFAULT_* pick the keyboard layout.
  private let environment: [String: String]
  /// Whether a crash of splashd puts the console's keyboard back.
  private let handlesCrashes: Bool
  private let log: Log
  /// The console's keyboard, off while the compositor has the keyboards
  /// and no question is asked.
  private var mutedConsole: MutedConsoleKeyboard?
  /// The virtual terminal whose keyboard is kept off: the one in front
  /// when the keyboards were taken (not whichever is in front after a
  /// question); nil when none is.
  private var console: String?
  /// Whether a question on the splash is being answered: the program gets
  /// no keys meanwhile.
  private var asking = false
  /// Whether the screen is off: the program gets nothing meanwhile, and
  /// the key or touch that wakes the screen reaches nothing.
  private var dark = false
  /// The compositor the devices were given to.
  private weak var host: (any WaylandHosting)?

  init(environment: [String: String], handlesCrashes: Bool, log: Log) {
    self.environment = environment
    self.handlesCrashes = handlesCrashes
    self.log = log
  }

  /// Input goes to `host`'s windows from now on (none while a question
  /// is asked).
  func serve(_ host: any WaylandHosting) {
    self.host = host
    if asking || dark { host.withholdInput(true) }
  }

  /// The machine's keyboards (in the machine's layout, `KeyboardLayout`;
  /// one that does not compile is said, and xkbcommon's default taken),
  /// pointers and touch screens for the program, the console's own keyboard
  /// off meanwhile. Without them (not root, no libinput), the program runs
  /// as it would, said once.
  func takeDevices() {
    guard let host else { return }
    var layout = KeyboardLayout(
      defaultKeyboard: try? Files.readText(KeyboardLayout.machineFile), environment: environment)
    do throws(SystemError) {
      do throws(SystemError) {
        try host.takeInputDevices(keyboardLayout: layout)
      } catch {
        guard error.code == EINVAL, layout != KeyboardLayout() else { throw error }
        log.error("\(error.description); xkbcommon's default layout is taken instead")
        layout = KeyboardLayout()
        try host.takeInputDevices(keyboardLayout: layout)
      }
    } catch {
      log.error("\(error.description); the program gets no keyboard, pointer or touch")
      return
    }
    log.info("host mode: the keyboards, pointers and touch screens reach the program (\(layout.description))")
    console = KeyboardTerminal.activeConsole
    if !asking { muteConsole() }
  }

  /// Where a touch or a tablet's point (fractions of its panel) lands in
  /// the window arranged as `arrangement` on `screens`: on the part of it
  /// the device's screen shows (the machine names the screen), turned with
  /// it; the input screen's for a device on none.
  func map(_ arrangement: ScreenArrangement, on screens: [ShownScreen]) {
    guard let host else { return }
    func map(ofScreen index: Int) -> AffineMap? {
      guard screens.indices.contains(index) else { return nil }
      return arrangement.inputMap(ofScreen: index, canvas: screens[index].canvas, rotation: screens[index].rotation)
    }
    let inputScreen = screens.indices.contains(arrangement.inputScreen) ? screens[arrangement.inputScreen] : nil
    let standard =
      map(ofScreen: arrangement.inputScreen)
      ?? (inputScreen?.rotation ?? .none).logicalPointMap(inLogical: arrangement.window)
    host.mapInput(standard: standard, screens: screens.indices.map { (name: screens[$0].name, map: map(ofScreen: $0)) })
  }

  /// A question on the splash is asked (`asking`), or the last one is
  /// answered: meanwhile what is typed is the answer's, never the
  /// program's (no window has the keyboard's focus, nor the pointer's or a
  /// touch), and the console's keyboard is on for the terminal that reads it.
  func questionAsked(_ asking: Bool) {
    self.asking = asking
    host?.withholdInput(asking || dark)
    if asking {
      mutedConsole?.release()
      mutedConsole = nil
    } else if mutedConsole == nil {
      muteConsole()
    }
  }

  /// The screen went off (`dark`) or came on again: input is withheld from
  /// the program while it is off.
  func screenDark(_ dark: Bool) {
    self.dark = dark
    host?.withholdInput(asking || dark)
  }

  /// The console's keyboard is on again (the program has ended, or
  /// splashd ends).
  func release() {
    console = nil
    mutedConsole?.release()
    mutedConsole = nil
  }

  /// Turns the console's keyboard off, said once when it cannot be.
  private func muteConsole() {
    guard let console else { return }
    do {
      mutedConsole = try MutedConsoleKeyboard(console, restoringOnCrash: handlesCrashes)
    } catch {
      log.error("host mode: the console's keyboard stays on (keys reach its terminal too): \(error.phrase)")
      self.console = nil
    }
  }
}
