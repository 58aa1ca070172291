// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem
import SplashWaylandHost

/// Host mode (`host = wayland`): the program as the client of splashd's
/// own Wayland compositor, started, started again and ended. Once the
/// splash is on the screen, the compositor is made (wlroots loaded, only
/// now) and the program started as splashd's child with WAYLAND_SOCKET,
/// its window configured full screen at the canvas's size; its frames lie
/// behind the splash (`ProgramFrames`), its first one lets the reveal go
/// ahead (`FirstFrameHold`), the machine's input reaches it
/// (`ProgramInput`); a program that ends before its first frame ends the
/// splash without its transition, the picture kept. After the transition
/// splashd goes on as its compositor until it ends (`KioskSupervisor`).
/// The run loop's source of the compositor's events and the program's.
final class HostedProgram: EventSource {
  private let program: [String]
  private let settings: Settings
  /// splashd's environment, of which the program gets what
  /// `ProgramEnvironment` says.
  private let environment: [String: String]
  /// splashd's own XDG_RUNTIME_DIR, which the program inherits.
  private var runtimeDirectory: String? { environment["XDG_RUNTIME_DIR"] }
  private let controller: Controller
  private let stage: Stage
  private let log: Log
  /// Makes the compositor (`WaylandHost`; a fake in the tests).
  private let makeHost: WaylandHostMaker
  /// The reveal's hold on the program's first frame, and what `status`
  /// says of the program.
  let hold: FirstFrameHold
  /// Its frames on the stage.
  let frames: ProgramFrames
  /// What reaches it from the machine's input devices.
  private let input: ProgramInput
  /// Whether it still answers (`hang-timeout`).
  let liveness: ProgramLiveness
  /// Its standard error, forwarded to splashd's and its last lines kept;
  /// nil when the pipe cannot be had (it then writes to splashd's own).
  let stderr: ProgramStderr?
  private var host: (any WaylandHosting)?
  /// Where the program's window lies on the screens (`screens`), once it
  /// is started.
  private var arrangement: ScreenArrangement?
  /// Whether the screen `screens` names was missing the last time the
  /// window was arranged (said once each time it goes missing).
  private var namedScreenMissing = false
  /// What the program's window was last told the screen scans out (nil:
  /// nothing, or nothing any more).
  private var offeredScanout: ScanoutLayouts?
  /// The display's listening socket, while it is there.
  private var displaySocket: WaylandDisplaySocket?
  /// The program, once started.
  private(set) var spawned: SpawnedProgram?
  /// What the program's environment gets besides splashd's (its runtime
  /// directory, the display's name), for each start.
  private var additions: [String: String] = [:]
  /// Whether the program has been started again (`restart`).
  private var restarted = false
  /// The on-screen keyboard beside it (`keyboard`), started with it.
  let keyboard: ScreenKeyboard?

  init(
    program: [String], settings: Settings, environment: [String: String], controller: Controller, stage: Stage,
    makeHost: @escaping WaylandHostMaker, clock: EventClock, log: Log, handlesCrashes: Bool,
    stderrDestination: FileDescriptor
  ) {
    self.program = program
    self.settings = settings
    self.environment = environment
    self.controller = controller
    self.stage = stage
    self.makeHost = makeHost
    self.log = log
    let fill: Color
    if case .color(let color) = settings.splash.background { fill = color } else { fill = .black }
    hold = FirstFrameHold(controller: controller, log: log)
    frames = ProgramFrames(stage: stage, fill: fill, now: clock.now, log: log)
    input = ProgramInput(environment: environment, handlesCrashes: handlesCrashes, log: log)
    liveness = ProgramLiveness(timeout: settings.handoff.hangTimeout, clock: clock, log: log)
    do {
      stderr = try ProgramStderr(forwardingTo: stderrDestination)
    } catch {
      log.error("host mode: the program's standard error goes to splashd's as it is (\(error.phrase))")
      stderr = nil
    }
    keyboard = ScreenKeyboard(
      command: settings.handoff.keyboard, popsUpBySignals: settings.handoff.keyboardPopup == .signals,
      handoff: settings.handoff, environment: environment, now: clock.now, log: log)
    controller.successor = hold
    hold.windows = { [weak self] in self?.host?.windowCount ?? 0 }
    hold.screenPaths = { [weak self] in self?.frames.screenPaths ?? [] }
    frames.programEnded = { [weak self] in self?.ended ?? true }
    frames.onFirstFrame = { [weak self] in self?.showedItsFirstFrame() }
    liveness.programShown = { [weak self] in self?.frames.showedAFrame ?? false }
    liveness.programRuns = { [weak self] in !(self?.ended ?? true) }
  }

  /// Makes the compositor and starts the program, its window arranged on
  /// the stage's `screens` as `screens` says (the first screen, of
  /// `screen` pixels, is what screencopy clients see); with `takingInput`
  /// (the screens are the machine's own: a card or framebuffer), the
  /// machine's keyboards, pointers and touch screens reach it, touches
  /// turned with their screen. A compositor that cannot be had is one
  /// line, and the splash goes on as without host mode: revealed now, the
  /// program run after it (never lost).
  func start(screen: PixelSize, screens: [ShownScreen], takingInput: Bool) throws(Failure) {
    let arranged = arrangement(on: screens) ?? ScreenArrangement(window: screen, views: [], inputScreen: 0)
    arrangement = arranged
    let size = arranged.window
    let host: any WaylandHosting
    do {
      let renderNode = settings.handoff.gpu ? (stage.output as? ScanningOutOutput)?.renderNode : nil
      host = try makeHost(size, screen, renderNode) { [log] in log.info("wayland: \(printable($0))") }
    } catch {
      log.error(
        "\(settings.origin(of: \.handoff.host)) wayland: \(error.phrase); the program runs after the splash instead")
      hold.noCompositor()
      _ = controller.execute(.reveal, because: "host mode is not available")
      return
    }
    offerScanout(to: host, window: size)
    let programDirectory: String?
    if settings.handoff.user == nil, runtimeDirectory == nil {
      programDirectory = madeRuntimeDirectory()
      additions["XDG_RUNTIME_DIR"] = programDirectory
    } else {
      programDirectory = runtimeDirectory
    }
    if let socket = displaySocket(in: programDirectory, serving: host) {
      additions["WAYLAND_DISPLAY"] = socket.name
      displaySocket = socket
    }
    if settings.handoff.xwayland, let display = startXwayland(on: host) { additions["DISPLAY"] = display }
    do {
      try spawnProgram(on: host)
    } catch {
      // No program: nothing will connect.
      removeDisplaySocket()
      throw error
    }
    startKeyboard(beside: host)
    self.host = host
    frames.serve(host)
    liveness.serve(host)
    frames.arrangement = arranged
    input.serve(host)
    input.map(arranged, on: screens)
    if takingInput { input.takeDevices() }
    // Weakly: the stage keeps the closure.
    stage.onPresented = { [weak host, weak stage] vsync in
      guard let stage else { return }
      host?.frameDone(at: vsync, refreshPeriod: stage.refreshPeriod)
    }
    stage.programFrames = frames
    log.info("host mode: the program's window is \(size.description)")
  }

  /// Starts the program as `host`'s client, with its own connection
  /// (WAYLAND_SOCKET) and `additions`.
  private func spawnProgram(on host: any WaylandHosting) throws(Failure) {
    let connection: FileDescriptor
    do {
      connection = try host.connectClient()
    } catch {
      throw Failure.runtime("\(settings.origin(of: \.handoff.host)) wayland: \(error.phrase)")
    }
    defer { try? connection.close() }
    guard let toRun = HandOff(program: program, settings: settings.handoff, environment: environment) else {
      throw Failure.runtime("host mode: no program")
    }
    spawned = try SpawnedProgram(
      toRun, additions: additions.merging(["WAYLAND_SOCKET": String(connection.rawValue)]) { $1 },
      standardError: stderr?.writeEnd, controller: controller, log: log,
      whenEnded: { [weak self] in
        guard let self, !frames.showedAFrame else { return .reveal }
        // No doors onto nothing: the splash ends now (or its player, for a restart, stops).
        controller.endSplash(because: "\(spawned?.path ?? program[0]) ended")
        return nil
      }, revealsWhen: revealsWhen)
  }

  /// Starts the program again (it has ended), under the splash, which it
  /// reveals with its new first frame (with `ready = notify`, and its
  /// READY=1): the boot's other gates (`until-file`, `until-reveal`) are
  /// not waited for again.
  func restart() throws(Failure) {
    guard let host else { throw Failure.runtime("host mode: the compositor is gone") }
    frames.programRestarts()
    liveness.programRestarts()
    restarted = true
    hold.programRestarted()
    // The ended one's notify socket goes first: the new one takes its name.
    spawned = nil
    try spawnProgram(on: host)
  }

  /// The program's exit status once it has ended (128 + the signal when a
  /// signal ended it), said in the log; nil when it cannot be had.
  func exitStatus() -> Int32? {
    guard let spawned, let exited = try? spawned.child.wait() else { return nil }
    log.info("\(spawned.path) ended with status \(exited.status)")
    return exited.status
  }

  /// Whether the program has ended (or never started).
  var ended: Bool { spawned?.ended ?? true }

  /// Lets go of what the compositor holds outside splashd (the program has
  /// ended, or splashd ends): the on-screen keyboard is ended, the
  /// display's socket removed, the console's keyboard turned back on.
  func close() {
    keyboard?.stop()
    removeDisplaySocket()
    input.release()
  }

  /// A question on the splash is asked, or the last one answered: nothing
  /// typed reaches the program meanwhile.
  func questionAsked(_ asking: Bool) { input.questionAsked(asking) }

  /// The screen went off or came on again: nothing reaches the program
  /// while it is off.
  func screenDark(_ dark: Bool) { input.screenDark(dark) }

  /// Told when a key, a button, a touch or the pointer moved came (reaching
  /// the program or withheld).
  var onInput: () -> Void = {}
  /// Told when a client's idle inhibitor came or went.
  var onIdleInhibition: () -> Void = {}

  /// Whether a client holds an idle inhibitor.
  var idleInhibited: Bool { host?.idleInhibited ?? false }

  /// The stage's screens are now `screens` (a turn, `turned`; screens
  /// plugged in or unplugged; the stage moved): the window is arranged on
  /// them, configured at its new size when that changed (said, as a turn
  /// always is), touches map onto the screen that has them, and the
  /// program's current frame is shown on each without waiting for it to
  /// draw again.
  func screensChanged(to screens: [ShownScreen], turned: Rotation?) {
    guard let host, let next = arrangement(on: screens) else { return }
    let resized = next.window != arrangement?.window
    arrangement = next
    frames.arrangement = next
    if resized { host.resizeWindow(to: next.window) }
    offerScanout(to: host, window: next.window)
    input.map(next, on: screens)
    frames.showCurrent()
    guard resized || turned != nil else { return }
    let cause = turned.map { "turned to \($0.rawValue) degrees" } ?? "the screens changed"
    log.info("host mode: the program's window is \(next.window.description) (\(cause))")
  }

  /// The window's arrangement on `screens` as `screens` says; nil for no
  /// screens. A screen it names that is not among them is said once each
  /// time it goes missing (the window is then the first screen's).
  private func arrangement(on screens: [ShownScreen]) -> ScreenArrangement? {
    let sharing = settings.handoff.screens
    guard !screens.isEmpty else { return nil }
    let missing = sharing.namesAScreenOtherThan(screens.map(\.name))
    if missing && !namedScreenMissing {
      log.error(
        "\(settings.origin(of: \.handoff.screens)): no screen \(sharing.text) among "
          + "\(screens.map(\.name).joined(separator: ", ")); the program shows on \(screens[0].name) until it is "
          + "plugged in")
    }
    namedScreenMissing = missing
    return sharing.arrangement(of: screens.map { ($0.name, $0.canvas) })
  }

  // MARK: The run loop's source

  var descriptors: [FileDescriptor] { (host.map { [$0.descriptor] } ?? []) + (spawned?.descriptors ?? []) }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    guard let host, descriptor == host.descriptor else {
      spawned?.handle(descriptor, events: events)
      return
    }
    let happened = host.dispatch()
    if happened.contains(.newBuffer) { frames.showCurrent(wholly: false) }
    if happened.contains(.screenWanted) { frames.screenWanted() }
    if happened.contains(.pingMissed) { liveness.pingMissed() }
    if happened.contains(.input) { onInput() }
    if happened.contains(.idleInhibition) { onIdleInhibition() }
    if happened.contains(.textField) { keyboard?.textFieldChanged(active: host.textFieldActive) }
    if !happened.isDisjoint(with: [.clientGone, .clientCame]), !frames.showedAFrame { followConnections(of: host) }
  }

  /// A screen copy asked for sooner than a refresh after the last waits
  /// until then.
  var wakeTime: Double? { frames.wakeTime }

  func wake() { frames.wake() }

  // MARK: The program's start

  /// The program's first frame is on the stage: the reveal may go ahead,
  /// and reveals it by itself when nothing else is waited for.
  private func showedItsFirstFrame() {
    hold.firstFrameShown()
    if revealsOnFirstFrame { _ = controller.execute(.reveal, because: "the program's first frame") }
  }

  /// Before the program's first frame, whether it is connected: by its own
  /// connection, or by one of its processes through the display's socket
  /// (cog tries the display with WAYLAND_SOCKET, lets go, then connects
  /// again by WAYLAND_DISPLAY). While it is, a reveal waits for its frame;
  /// once none is left, a reveal no longer waits for a frame that cannot
  /// come; should it connect again, reveals wait again.
  private func followConnections(of host: any WaylandHosting) {
    guard let program = spawned?.child.pid else { return }
    let connected = host.clientProcesses.contains { pid in
      pid.map { ProcessAncestry.descends($0, from: program, parent: Processes.parent(of:)) } ?? true
    }
    switch (connected, hold.state) {
    case (false, .starting?):
      log.info("host mode: the program closed its Wayland connection before its first frame; reveals wait no more")
      hold.programDisconnected()
    case (true, .disconnected?):
      log.info("host mode: the program connected again; reveals wait for its first frame")
      hold.programConnectedAgain()
    default:
      break
    }
  }

  /// Whether the program's first frame reveals the splash by itself:
  /// `ready = first-frame`, or no other gate (`exec`, no until-file or
  /// until-reveal). Otherwise those reveal, once the first frame is there.
  private var revealsOnFirstFrame: Bool {
    let handoff = settings.handoff
    if restarted { return handoff.ready != .notify }
    return handoff.ready == .firstFrame || (handoff.ready == .exec && handoff.untilFile == nil && !handoff.untilReveal)
  }

  /// What reveals the splash, as the log says it.
  private var revealsWhen: String {
    if revealsOnFirstFrame { return "it shows its first frame" }
    let gate = settings.handoff.ready == .notify ? "it sends READY=1" : "the splash is revealed"
    return gate + ", once it has shown its first frame"
  }

  // MARK: The program's environment

  /// The display's listening socket, `wayland-N` in the program's runtime
  /// directory (its user's when `user` is set, else `directory`), for what
  /// connects besides the program itself (which has its own connection):
  /// the program's children, grim and other screencopy clients. nil, said
  /// once, when it cannot be had: the program runs without it.
  private func displaySocket(in directory: String?, serving host: any WaylandHosting) -> WaylandDisplaySocket? {
    do throws(SystemError) {
      var folder = directory
      var owner: ProgramUser?
      if let user = settings.handoff.user {
        let found = try ProgramUser.lookUp(user, group: settings.handoff.group)
        folder = try found.runtimeDirectory()
        owner = found
      }
      guard let folder else { return nil }
      let socket = try WaylandDisplaySocket.claim(in: folder, owner: owner.map { ($0.uid, $0.gid) })
      do throws(SystemError) {
        try host.serve(socket.listener)
      } catch {
        socket.remove()
        throw error
      }
      log.info("host mode: Wayland clients connect at \(socket.path)")
      return socket
    } catch {
      log.error("host mode: no Wayland socket for other clients (grim, the program's children): \(error.phrase)")
      return nil
    }
  }

  /// Starts the on-screen keyboard (`keyboard`) as a client of the
  /// display's socket, told whether a field takes text; without the
  /// socket, said in one line, there is none.
  private func startKeyboard(beside host: any WaylandHosting) {
    guard let keyboard else { return }
    guard displaySocket != nil else {
      log.error("\(settings.origin(of: \.handoff.keyboard)): no on-screen keyboard without the display's socket")
      return
    }
    keyboard.start(additions: additions)
    keyboard.textFieldChanged(active: host.textFieldActive)
  }

  /// Removes the display's socket.
  private func removeDisplaySocket() {
    displaySocket?.remove()
    displaySocket = nil
  }

  /// On a GPU, tells the program's window what the screen shows as it is
  /// when its frames may be scanned out (the window alone on one screen,
  /// unturned: `ScanoutChoice`), so that its GPU renders into buffers the
  /// display takes without a copy (linux-dmabuf's scan-out tranche); and
  /// that nothing is, once they may not be (a turn, a second screen).
  private func offerScanout(to host: any WaylandHosting, window: PixelSize) {
    guard host.composesOnGPU, let layouts = (stage.output as? ScanningOutOutput)?.scanoutLayouts else { return }
    let mayScanOut = ScanoutChoice.refusal(frame: window, screens: stage.scanoutScreens, splashShows: false) == nil
    guard offeredScanout != (mayScanOut ? layouts : nil) else { return }
    let offered = host.offerScanout(mayScanOut ? layouts : ScanoutLayouts(device: layouts.device, layouts: []))
    offeredScanout = mayScanOut ? layouts : nil
    log.info(
      mayScanOut
        ? "host mode: the program is offered \(offered) of the \(layouts.layouts.count) pixel layouts the screen "
          + "scans out as they are"
        : "host mode: the program is offered no pixel layouts to be scanned out as they are any more")
  }

  /// A runtime directory for a program that runs as splashd's own user
  /// and has none (a system service has no XDG_RUNTIME_DIR, and GTK will
  /// not open a Wayland display without one): /run/user/UID, as logind
  /// makes it; nil, said once, when it cannot be had (foot and most
  /// programs do without).
  private func madeRuntimeDirectory() -> String? {
    do {
      return try ProgramUser.running().runtimeDirectory()
    } catch {
      log.error("host mode: the program gets no XDG_RUNTIME_DIR: \(error.phrase)")
      return nil
    }
  }

  /// Serves X11 programs too (`xwayland = yes`): the display's name for
  /// the program's DISPLAY; nil, said in one line, when Xwayland is not
  /// installed or cannot be set up (the program starts without it).
  private func startXwayland(on host: any WaylandHosting) -> String? {
    let origin = settings.origin(of: \.handoff.xwayland)
    guard Executables.locate("Xwayland", searchPath: environment["PATH"]) != nil else {
      log.error("\(origin): Xwayland is not installed (the xwayland package); the program gets no DISPLAY")
      return nil
    }
    do {
      let display = try host.startXwayland(lettingIn: settings.handoff.user)
      log.info("host mode: X11 programs connect at DISPLAY=\(display) (Xwayland starts with the first)")
      return display
    } catch {
      log.error("\(origin): \(error.phrase); the program gets no DISPLAY")
      return nil
    }
  }
}

/// Makes host mode's compositor: the program's window of `size`, the
/// first screen of `screen` pixels (what screencopy clients get), the
/// render node of the GPU its screen's card has (the program renders with
/// it and hands its buffers over as they are), `log` told the compositor's
/// errors.
typealias WaylandHostMaker = (
  _ size: PixelSize, _ screen: PixelSize, _ renderNode: String?, _ log: @escaping (String) -> Void
) throws(SystemError) -> any WaylandHosting
