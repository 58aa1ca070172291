// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem
import SplashWaylandHost

/// Host mode (`host = wayland`): the program as the client of splashd's
/// own Wayland compositor. Once the splash is on the screen, the compositor
/// is loaded (wlroots, only now) and the program started as splashd's child
/// with WAYLAND_SOCKET, its window configured full screen at the canvas's
/// size; each buffer it commits becomes what lies behind the splash on the
/// stage (drawn at the next frame, the doors opening onto it), and each
/// frame on the screen sends its frame callbacks. Its first frame lets the
/// reveal go ahead (`Controller.hostedProgram`); a program that
/// ends before its first frame ends the splash without its transition, the
/// picture kept. After the transition splashd goes on as its compositor
/// until it ends (`Session.keepHosting`).
final class HostedProgram: EventSource, ProgramFrameLender {
  private let program: [String]
  private let settings: Settings
  private let searchPath: String?
  /// splashd's own XDG_RUNTIME_DIR, which the program inherits.
  private let runtimeDirectory: String?
  /// splashd's environment, whose XKB_DEFAULT_* pick the keyboard layout.
  private let environment: [String: String]
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
  /// Whether a crash of splashd puts the console's keyboard back.
  private let handlesCrashes: Bool
  private let controller: Controller
  private let stage: Stage
  private let log: Log
  private var host: WaylandHost?
  /// Where the program's window lies on the screens (`screens`), once it
  /// is started.
  private var arrangement: ScreenArrangement?
  /// The display's listening socket, while it is there.
  private var displaySocket: WaylandDisplaySocket?
  /// The program, once started.
  private(set) var spawned: SpawnedProgram?
  /// Whether the program's window has shown a frame.
  private(set) var showedAFrame = false
  /// Whether it was said that the program's frames so far have nothing in
  /// them (fully transparent), for this start.
  private var saidNothingShows = false
  /// How many of the program's buffers have been shown.
  private(set) var buffersShown = 0
  /// What the program's environment gets besides splashd's (its runtime
  /// directory, the display's name), for each start.
  private var additions: [String: String] = [:]
  /// Whether the program has been started again (`restart`).
  private var restarted = false
  /// The session's clock.
  private let now: () -> Double
  /// Screencopy clients get the screen at most once a refresh of the
  /// screen the program is on (it has nothing newer, and each copy is
  /// whole frames of copying).
  private var screenCopies: RequestPacer

  init(
    program: [String], settings: Settings, environment: [String: String], controller: Controller, stage: Stage,
    now: @escaping () -> Double, log: Log, handlesCrashes: Bool
  ) {
    self.handlesCrashes = handlesCrashes
    self.program = program
    self.settings = settings
    searchPath = environment["PATH"]
    runtimeDirectory = environment["XDG_RUNTIME_DIR"]
    self.environment = environment
    self.controller = controller
    self.stage = stage
    self.now = now
    screenCopies = RequestPacer(interval: 1.0 / 60)
    self.log = log
    controller.hostsProgram()
    controller.programWindows = { [weak self] in self?.host?.windowCount ?? 0 }
  }

  /// Loads the compositor and starts the program, its window arranged on
  /// the stage's screens as `screens` says (the first screen, of `screen`
  /// pixels, is what screencopy clients see); with `takingInput` (the
  /// screens are the machine's own: a card or framebuffer), the machine's
  /// keyboards, pointers and touch screens reach it, touches turned with
  /// their screen. A compositor that cannot be had is one line, and the
  /// splash goes on as without host mode: revealed now, the program run
  /// after it (never lost).
  func start(screen: PixelSize, takingInput: Bool) throws(Failure) {
    screenCopies = RequestPacer(interval: stage.refreshPeriod)
    let arranged =
      settings.handoff.screens.arrangement(of: stage.canvases)
      ?? ScreenArrangement(window: screen, views: [], inputScreen: 0)
    arrangement = arranged
    let size = arranged.window
    let host: WaylandHost
    do {
      host = try WaylandHost(size: size, screen: screen) { [log] in log.info("wayland: \(printable($0))") }
    } catch {
      log.error(
        "\(settings.origin(of: \.handoff.host)) wayland: \(error.phrase); the program runs after the splash instead")
      controller.stopWaitingForProgram()
      _ = controller.execute(.reveal, because: "host mode is not available")
      return
    }
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
    self.host = host
    if asking { host.withholdInput(true) }
    mapInput(of: arranged, on: host)
    if takingInput { takeInputDevices(of: host) }
    stage.onPresented = { [weak host, stage] vsync in host?.frameDone(at: vsync, refreshPeriod: stage.refreshPeriod) }
    stage.programFrames = self
    log.info("host mode: the program's window is \(size.description)")
  }

  /// Starts the program as `host`'s client, with its own connection
  /// (WAYLAND_SOCKET) and `additions`.
  private func spawnProgram(on host: WaylandHost) throws(Failure) {
    let connection: FileDescriptor
    do {
      connection = try host.connectClient()
    } catch {
      throw Failure.runtime("\(settings.origin(of: \.handoff.host)) wayland: \(error.phrase)")
    }
    defer { try? connection.close() }
    spawned = try SpawnedProgram(
      program: program, searchPath: searchPath, user: settings.handoff.user, group: settings.handoff.group,
      additions: additions.merging(["WAYLAND_SOCKET": String(connection.rawValue)]) { $1 }, controller: controller,
      log: log,
      whenEnded: { [weak self] in
        guard let self, !showedAFrame else { return .reveal }
        // No doors onto nothing: the splash ends now (or its player, for a restart, stops).
        controller.programEndedBeforeItsFirstFrame(because: "\(spawned?.path ?? program[0]) ended")
        return nil
      }, revealsWhen: revealsWhen)
  }

  /// Starts the program again (it has ended), under the splash, which it
  /// reveals with its new first frame (with `ready = notify`, and its
  /// READY=1): the boot's other gates (`until-file`, `until-reveal`) are
  /// not waited for again.
  func restart() throws(Failure) {
    guard let host else { throw Failure.runtime("host mode: the compositor is gone") }
    showedAFrame = false
    saidNothingShows = false
    restarted = true
    controller.programRestarted()
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

  /// The display's listening socket, `wayland-N` in the program's runtime
  /// directory (its user's when `user` is set, else `directory`), for what
  /// connects besides the program itself (which has its own connection):
  /// the program's children, grim and other screencopy clients. nil, said
  /// once, when it cannot be had: the program runs without it.
  private func displaySocket(in directory: String?, serving host: WaylandHost) -> WaylandDisplaySocket? {
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

  /// The machine's keyboards (in the machine's layout, `KeyboardLayout`;
  /// one that does not compile is said, and xkbcommon's default taken),
  /// pointers and touch screens for the program, the console's own keyboard
  /// off meanwhile. Without them (not root, no libinput), the program runs
  /// as it would, said once.
  private func takeInputDevices(of host: WaylandHost) {
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

  /// The screen was turned to `rotation` (a sensor, `splashctl rotate`),
  /// while the splash holds or after it: the program's window is
  /// configured at the turned canvas, touches are turned with it, and its
  /// current frame is shown on the new canvas until it draws at the new size.
  func turn(to rotation: Rotation) { rearrange(because: "turned to \(rotation.rawValue) degrees", said: true) }

  /// A screen was plugged in or unplugged (each has its scene again): the
  /// program's current frame lies behind each of them, the new ones too,
  /// without waiting for the program to draw again, and the window is
  /// configured at its new size when the arrangement changed it.
  func screensChanged() { rearrange(because: "the screens changed", said: false) }

  /// Arranges the window on the stage's screens as they are now: a new
  /// size is configured (and said, as a turn always is), touches map onto
  /// the screen that has them, and the current frame is shown on each.
  private func rearrange(because cause: String, said: Bool) {
    guard let host, let next = settings.handoff.screens.arrangement(of: stage.canvases) else { return }
    let resized = next.window != arrangement?.window
    arrangement = next
    if resized { host.resizeWindow(to: next.window) }
    mapInput(of: next, on: host)
    showProgramFrame(host)
    if resized || said { log.info("host mode: the program's window is \(next.window.description) (\(cause))") }
  }

  /// Where a touch or a tablet's point (fractions of its panel) lands in
  /// the window: on the part of it the device's screen shows (the machine
  /// names the screen), turned with it; the input screen's for a device on
  /// none.
  private func mapInput(of arranged: ScreenArrangement, on host: WaylandHost) {
    let canvases = stage.canvases
    func map(ofScreen index: Int) -> AffineMap? {
      guard canvases.indices.contains(index) else { return nil }
      return arranged.inputMap(ofScreen: index, canvas: canvases[index], rotation: stage.rotation(ofScreen: index))
    }
    let standard =
      map(ofScreen: arranged.inputScreen)
      ?? stage.rotation(ofScreen: arranged.inputScreen).logicalPointMap(inLogical: arranged.window)
    let screens = zip(stage.screenNames, canvases.indices).map { (name: $0, map: map(ofScreen: $1)) }
    host.mapInput(standard: standard, screens: screens)
  }

  /// A question on the splash is asked (`asking`), or the last one is
  /// answered: meanwhile what is typed is the answer's, never the
  /// program's (no window has the keyboard's focus, nor the pointer's or a
  /// touch), and the console's keyboard is on for the terminal that reads it.
  func questionAsked(_ asking: Bool) {
    self.asking = asking
    host?.withholdInput(asking)
    if asking {
      mutedConsole?.release()
      mutedConsole = nil
    } else if mutedConsole == nil {
      muteConsole()
    }
  }

  /// Lets go of what the compositor holds outside splashd (the program has
  /// ended, or splashd ends): the display's socket is removed, the
  /// console's keyboard turned back on.
  func close() {
    removeDisplaySocket()
    console = nil
    mutedConsole?.release()
    mutedConsole = nil
  }

  /// Removes the display's socket.
  private func removeDisplaySocket() {
    displaySocket?.remove()
    displaySocket = nil
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
  private func startXwayland(on host: WaylandHost) -> String? {
    let origin = settings.origin(of: \.handoff.xwayland)
    guard Executables.locate("Xwayland", searchPath: searchPath) != nil else {
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

  /// Whether the program has ended (or never started).
  var ended: Bool { spawned?.ended ?? true }

  var descriptors: [FileDescriptor] { (host.map { [$0.descriptor] } ?? []) + (spawned?.descriptors ?? []) }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    guard let host, descriptor == host.descriptor else {
      spawned?.handle(descriptor, events: events)
      return
    }
    let happened = host.dispatch()
    if happened.contains(.newBuffer) { showProgramFrame(host) }
    if happened.contains(.screenWanted), screenCopies.request(at: now()) { showScreen(to: host) }
    if !happened.isDisjoint(with: [.clientGone, .clientCame]), !showedAFrame { followConnections(of: host) }
  }

  /// A screen copy asked for sooner than a refresh after the last waits
  /// until then.
  var wakeTime: Double? { host == nil ? nil : screenCopies.dueTime }

  func wake() {
    guard let host, screenCopies.serveDue(at: now()) else { return }
    showScreen(to: host)
  }

  /// Before the program's first frame, whether it is connected: by its own
  /// connection, or by one of its processes through the display's socket
  /// (cog tries the display with WAYLAND_SOCKET, lets go, then connects
  /// again by WAYLAND_DISPLAY). While it is, a reveal waits for its frame;
  /// once none is left, a reveal no longer waits for a frame that cannot
  /// come; should it connect again, reveals wait again.
  private func followConnections(of host: WaylandHost) {
    guard let program = spawned?.child.pid else { return }
    let connected = host.clientProcesses.contains { pid in
      pid.map { ProcessAncestry.descends($0, from: program, parent: Processes.parent(of:)) } ?? true
    }
    switch (connected, controller.hostedProgram) {
    case (false, .starting?):
      log.info("host mode: the program closed its Wayland connection before its first frame; reveals wait no more")
      controller.stopWaitingForProgram(.disconnected)
    case (true, .disconnected?):
      log.info("host mode: the program connected again; reveals wait for its first frame")
      controller.hostsProgram()
    default:
      break
    }
  }

  func withHeldFrame(_ body: (Pixels?) -> Void) {
    let lent: Void? = host?.withHeldFrame { buffer in
      body(try? Pixels(lending: buffer.pixels, size: buffer.size, stride: buffer.stride))
    }
    if lent == nil { body(nil) }
  }

  /// Once the program has ended, its last frame goes with the stage's
  /// last look at it.
  func stageLetGoOfFrame() {
    if ended { host?.dropHeldFrame() }
  }

  /// What the first screen shows, for the screencopy clients that asked.
  private func showScreen(to host: WaylandHost) {
    switch stage.snapshot() {
    case .success(let pixels):
      withExtendedLifetime(pixels) {
        let surface = pixels.surface.pointee
        guard let data = surface.pixels else { return host.failScreenCopies() }
        host.showScreen(
          HostedBuffer(
            pixels: data, size: PixelSize(width: Int(surface.w), height: Int(surface.h)), stride: Int(surface.pitch)))
      }
    case .failure(let error):
      log.error("host mode: the screen cannot be copied: \(error.message)")
      host.failScreenCopies()
    }
  }

  /// The program's current buffer behind the splash: centred on the
  /// window over the background colour, and each screen's part of that
  /// (`arrangement`) on its canvas; a screen with no part is left as it is.
  /// The buffer is held (`WaylandHost.holdCurrentFrame`) and lent as it is
  /// to a screen it fills, so that it is not copied.
  private func showProgramFrame(_ host: WaylandHost) {
    let fill: Color
    if case .color(let color) = settings.splash.background { fill = color } else { fill = .black }
    guard stage.takesProgramFrames, host.holdCurrentFrame() else { return }
    let shown: Bool? = host.withHeldFrame { buffer in
      // A frame with nothing in it (a browser's before its first paint)
      // is not the program's first: the doors would open onto black.
      if !showedAFrame, buffer.showsNothing {
        if !saidNothingShows {
          saidNothingShows = true
          log.info("host mode: the program's frame has nothing in it (fully transparent); waiting for one that has")
        }
        stage.presentUnchanged()
        return false
      }
      let window = arrangement?.window ?? buffer.size
      /// The buffer itself (readable only now), when it is `canvas`'s size;
      /// else centred on it.
      func picture(on canvas: PixelSize) throws(RenderError) -> (pixels: Pixels, lent: Bool) {
        guard buffer.size == canvas else {
          let centred = try Pixels.centred(
            buffer.pixels, size: buffer.size, stride: buffer.stride, on: canvas, fill: fill)
          return (centred, false)
        }
        return (try Pixels(lending: buffer.pixels, size: buffer.size, stride: buffer.stride), true)
      }
      var windowPicture: (pixels: Pixels, lent: Bool)?
      func picture() throws(RenderError) -> (pixels: Pixels, lent: Bool) {
        if let windowPicture { return windowPicture }
        let made = try picture(on: window)
        windowPicture = made
        return made
      }
      stage.showBehind { index, canvas throws(RenderError) in
        guard let arrangement, arrangement.views.indices.contains(index) else { return try picture(on: canvas) }
        guard let view = arrangement.views[index] else { return nil }
        let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        // The whole window on a screen its size: the window's picture itself.
        if canvas == window, view.destination == whole, view.source == whole.rect { return try picture() }
        return (try Pixels.showing(picture().pixels, placed: view, on: canvas, fill: fill), false)
      }
      return true
    }
    guard shown == true else { return }
    buffersShown += 1
    guard !showedAFrame else { return }
    showedAFrame = true
    log.info("host mode: the program's first frame")
    // Its memory has been read: libwayland's SIGBUS handler is in place.
    MappedFile.guardGoesFirst()
    // The splash's start is behind it: its code need not stay mapped.
    ExecutableCode.letGoOfMappedPages()
    controller.programShowedItsFirstFrame()
    if revealsOnFirstFrame { _ = controller.execute(.reveal, because: "the program's first frame") }
  }
}
