// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem

/// The one owner of what is on the screen: the output, one scene per
/// screen, the angle they are turned to, the boot status their layers
/// show, and every frame drawn. The player's frames come in through
/// `present` (the stage is its `FrameSink`); every other change (a status,
/// a turn, new screens, an exposed window, the animation's next frame)
/// marks what it touched, and the stage draws it once per turn of the run
/// loop, as one of its event sources, while it may draw on its own: once
/// the first frame is shown, outside the transition, while not paused.
/// It also moves the splash to another output, reads the screen back,
/// hands the display over and lets go of it.
final class Stage: EventSource, FrameSink {
  /// Where the splash plays; nil before it is placed and after it is let go of.
  private(set) var output: Output?
  /// What is drawn on each of the output's screens, in its order. New
  /// scenes have the program's frame behind them only once it is shown
  /// behind them, by the CPU.
  private(set) var scenes: [SceneRenderer] = [] {
    didSet { programFrameOnGPU = false }
  }
  /// The angle the splash is shown at (each screen may add its own turn).
  private(set) var rotation: Rotation
  /// What the status layers show: the bar's value and the message (or, in
  /// its place, the line of a question being asked).
  private(set) var status: BootStatus
  /// The name of the back end shown on, for `status` (the last one, once let go of).
  private(set) var display = "none"
  /// Plymouth's `deactivate`: another program has the screen; nothing is drawn.
  private(set) var isPaused = false
  /// Called when the output's user closed it (a window).
  var onClosed: () -> Void = {}
  /// Told when each frame reached the screen (its vsync time): host mode's
  /// program draws its next frame then.
  var onPresented: (Double) -> Void = { _ in }
  /// Host mode: the program's frame, lent for each draw to the scenes
  /// that draw it from where it lies.
  weak var programFrames: ProgramFrameLender?
  private let maker: SceneMaker
  private let clock: EventClock
  private let log: Log
  /// The last frame's progress and time (seconds after the first frame).
  private var lastProgress = 0.0
  private var lastTime = 0.0
  /// Whether the splash's pictures were let go of at the transition's end
  /// (a turn after it prepares none again).
  private var splashPicturesReleased = false
  /// Host mode, the program gone: the player's frames return to the
  /// splash, a cross-fade from what lies behind (progress runs backwards).
  private var returning = false
  /// The clock time the first frame was on the screen; nil before.
  private var appearedAt: Double?
  /// Whether the player is between the transition's first frame and its last.
  private var inTransition = false
  /// Whether the splash still holds (its animation steps).
  private var holding = true
  /// What must be drawn again, and since when.
  private var damage: Damage = .none
  private var damagedAt = 0.0
  /// What each of the last frames on the first screen drew, the newest
  /// last: a frame drawn into a target that holds an older frame (a page
  /// flipped in turn) draws what changed since that one.
  private var drawnBefore: [Damage] = []
  /// On a display that does not pace frames (offscreen, a window: its
  /// present gives no vsync), no frame of the stage's own before this: one
  /// refresh after the last, so that a hosted program drawing at each frame
  /// it is told was shown is paced as on a screen, not called thousands of
  /// times a second.
  private var nextUnpacedFrame = -Double.infinity
  /// Replies waiting for the frame that shows what they changed.
  private var afterDrawn: [() -> Void] = []
  /// The output let go of with its last frame kept (keep-last-frame).
  private var released: Output?
  /// Host mode: whether the first screen shows the program's own buffer
  /// (scanned out) rather than the stage's frame.
  private(set) var scansOut = false
  /// Told once the stage's own frame is on the screen again after the
  /// program's buffer was scanned out (that buffer may go back to it).
  var onComposedAgain: () -> Void = {}
  /// Host mode, the GPU variant: composes the first screen's frames on the
  /// GPU over the program's GPU buffer; nil where the CPU draws every frame
  /// (and from the first frame that could not be composed so).
  var gpuComposition: GPUComposition?
  /// Host mode: whether the program's frame behind the first screen's
  /// scene is its GPU buffer, which `gpuComposition` draws from where it
  /// lies (neither read back nor copied).
  private var programFrameOnGPU = false
  /// Host mode: whether the first screen shows a frame of the stage's
  /// composed on the GPU.
  private(set) var showsComposedFrame = false
  /// Why a frame composed on the GPU was last not shown (said once until
  /// one is).
  private var lastComposedRefusal: String?
  /// Whether it was said that frames are composed on the GPU.
  private var saidComposing = false

  /// What must be drawn again.
  private enum Damage: Equatable {
    case none
    /// Only this rectangle of the first screen's logical canvas.
    case area(PixelRect)
    case whole
  }

  init(rotation: Rotation, status: BootStatus, maker: SceneMaker, clock: EventClock, log: Log) {
    self.rotation = rotation
    self.status = status
    self.maker = maker
    self.clock = clock
    self.log = log
  }

  // MARK: Placing and moving

  /// `made` (new scenes) with the diagnostic screen shown now, if any,
  /// rendered in each (one that cannot be is said, and left out).
  private func withReport(_ made: [SceneRenderer]) -> [SceneRenderer] {
    guard let report = status.report else { return made }
    for scene in made {
      do {
        try scene.status?.render(report: report)
      } catch {
        log.error("\(error): the diagnostic screen is not shown")
      }
    }
    return made
  }

  /// Plays on `output` from now on, with a scene for each of its screens.
  func place(on output: Output) throws(Failure) {
    scenes = withReport(try maker.scenes(for: output, rotation: rotation, message: status.shownText).scenes)
    self.output = output
    display = output.name
    drawnBefore = []
  }

  /// Moves the splash to `output`: each of its screens gets its scene, the
  /// current frame (progress, layers) is drawn there at once, and the old
  /// output is let go of as for a program that follows. On a failure
  /// `output` is let go of and the splash stays where it was.
  func move(to next: Output) throws(Failure) {
    guard let current = output else { throw Failure.runtime("the splash has been let go of") }
    do {
      let made = withReport(try maker.scenes(for: next, rotation: rotation, message: status.shownText).scenes)
      _ = try next.present { made[$0].draw(progress: lastProgress, time: lastTime, status: status) }
      scenes = made
    } catch {
      next.release(keepingLastFrame: false) {}
      throw error as? Failure ?? Failure.runtime("\(error)")
    }
    output = next
    display = next.name
    drawnBefore = []
    // The old device's screen is no longer looked at: let go of it as for a
    // program that follows (the VT stays in graphics mode).
    current.release(keepingLastFrame: true) {}
    // New screens: a hosted program's frame goes behind their scenes (the
    // doors would otherwise open onto the background until it drew again),
    // its window sized for them.
    onScreensChanged(shownScreens, nil)
  }

  /// Lets the output look at its device `node` again after it changed;
  /// when its screens changed, each gets its scene again (without the
  /// splash's pictures once they were let go of), `onScreensChanged` is
  /// told, and the frame is drawn on all. Whether they changed.
  func screensChanged(on node: String) throws(Failure) -> Bool {
    guard let output = output as? HotPluggableOutput, output.screensChanged(on: node) else { return false }
    scenes = withReport(try maker.scenes(for: output, rotation: rotation, message: status.shownText).scenes)
    if splashPicturesReleased { releaseSplashPictures() }
    damage(.whole)
    onScreensChanged(shownScreens, nil)
    return true
  }

  /// Told when the screens changed, the stage moved to another output or
  /// turned (the new angle), with each screen as it is now (host mode: the
  /// program's frame goes behind each of them again, its window arranged
  /// on them).
  var onScreensChanged: (_ screens: [ShownScreen], _ turned: Rotation?) -> Void = { _, _ in }

  /// Each screen as its scene shows it: name, logical canvas, turn; the
  /// first screen's first.
  var shownScreens: [ShownScreen] {
    let names = output?.screens.map(\.name) ?? []
    return scenes.indices.map { index in
      ShownScreen(
        name: names.indices.contains(index) ? names[index] : "", canvas: scenes[index].layout.canvas,
        rotation: scenes[index].rotation)
    }
  }

  /// Each screen as `status` reports it, "NAME:MODE:DEGREES"; none for an
  /// output of one screen named after it.
  var screenStates: [String] {
    guard let output else { return [] }
    let screens = output.screens
    if screens.count == 1 && screens[0].name == output.name { return [] }
    return zip(screens, scenes).map { "\($0.name):\($0.mode):\($1.rotation.rawValue)" }
  }

  /// Starts from the boot status a previous splashd showed (its bar, its
  /// message), before the splash is placed.
  func adopt(_ previous: BootStatus) {
    if let progress = previous.progress { status.progress = progress }
    if let message = previous.message { status.message = message }
  }

  // MARK: What the commands change

  /// Turns the splash to `rotation`, asked for by `cause`: the pictures are
  /// prepared again for the new canvas and the frame drawn again. Returns
  /// why it could not, or nil.
  func turn(to rotation: Rotation, by cause: String) -> String? {
    guard let output else { return "this splash cannot turn" }
    let keys: [String]
    do {
      (scenes, keys) = try maker.scenes(for: output, rotation: rotation, message: status.shownText)
      scenes = withReport(scenes)
    } catch {
      return error.message
    }
    self.rotation = rotation
    // After the transition only what lies behind is drawn (the program).
    if splashPicturesReleased { releaseSplashPictures() }
    damage(.whole)
    let note = maker.choosesByShape ? "; pictures: " + keys.joined(separator: ", ") : ""
    log.info("turned to \(rotation.rawValue) degrees (\(cause))\(note)")
    onScreensChanged(shownScreens, rotation)
    return nil
  }

  /// Shows `next` from the next frame on (a message, the diagnostic
  /// screen, is rendered now); returns why it could not (the message's
  /// font), or nil.
  func show(_ next: BootStatus) -> String? {
    guard next != status else { return nil }
    if next.shownText != status.shownText {
      do {
        for scene in scenes { try scene.status?.render(message: next.shownText) }
      } catch {
        log.error("\(error): the message is not shown")
        return error.description
      }
    }
    if next.report != status.report {
      do {
        for scene in scenes { try scene.status?.render(report: next.report) }
      } catch {
        log.error("\(error): the diagnostic screen is not shown")
        return error.description
      }
    }
    // A bar that was shown and moved changes only inside its rectangle.
    let onlyTheBar =
      next.shownText == status.shownText && next.report == status.report && next.progress != nil
      && status.progress != nil
    status = next
    if let layers = scenes.first?.status, onlyTheBar { damage(.area(layers.layout.bar)) } else { damage(.whole) }
    return nil
  }

  /// Another program has the screen (`paused`): nothing is drawn until it
  /// is given back, then the held splash is drawn again, whole.
  func setPaused(_ paused: Bool) {
    guard paused != isPaused else { return }
    if paused { leaveScanout() }
    isPaused = paused
    if paused {
      (output as? PausableOutput)?.deactivate()
      drawn()
    } else {
      (output as? PausableOutput)?.reactivate()
      damage(.whole)
    }
  }

  /// Whether the screens are off (`ScreenPowerKeeper`).
  private(set) var isDark = false

  /// Switches the screens off (`dark`: really dark where the output can,
  /// `PowerSwitchedOutput`) or on. Meanwhile nothing is drawn or
  /// presented (the program gets no frame callbacks, and draws nothing);
  /// on again, the frame is drawn again, whole. Returns whether the output
  /// itself switched (false: it cannot, or it failed, with why).
  func setDark(_ dark: Bool) -> Result<Bool, ControlError> {
    guard dark != isDark, let output else { return .success(canSwitchPower) }
    if dark { leaveScanout() }
    let problem = (output as? PowerSwitchedOutput)?.setPowered(!dark)
    // Where the display stays lit (no power switch, or it failed), it
    // shows black rather than a frame frozen while input is withheld.
    if dark && (problem != nil || !canSwitchPower) { presentBlack(on: output) }
    isDark = dark
    if dark { drawn() } else { damage(.whole) }
    if let problem { return .failure(ControlError("\(output.name): \(problem)")) }
    return .success(canSwitchPower)
  }

  /// Whether the output can switch its screens off (`PowerSwitchedOutput`).
  var canSwitchPower: Bool { output is PowerSwitchedOutput }

  /// One black frame on every screen.
  private func presentBlack(on output: Output) {
    do {
      _ = try output.present { index in
        let screen = output.screens[index]
        let whole = Rect(x: 0, y: 0, width: Double(screen.size.width), height: Double(screen.size.height))
        screen.painter.fill(whole, with: .black, alpha: 1)
        screen.painter.finish()
      }
    } catch {
      log.error("\(output.name): cannot show black: \(error)")
    }
  }

  /// Draws what changed at once, when the stage draws on its own (a screen
  /// switched on just before the display is let go of or handed over).
  func drawPendingNow() {
    if damage != .none && drawsOnItsOwn { drawDamage() }
  }

  /// Runs `action` once a frame shows what changed so far: at once when
  /// nothing waits to be drawn, or nothing will be (paused, dark, let go of).
  func afterFrame(_ action: @escaping () -> Void) {
    if damage == .none || isPaused || isDark || output == nil {
      action()
    } else {
      afterDrawn.append(action)
    }
  }

  /// What the first screen shows now (changes still to be drawn drawn
  /// first): a copy of its pixels.
  func snapshot() -> Result<Pixels, ControlError> {
    guard let output else { return .failure(noOutput) }
    leaveScanout()
    if damage != .none && drawsOnItsOwn { drawDamage() }
    do {
      return .success(try output.readBack { drawLast(0) })
    } catch {
      return .failure(ControlError(error.description))
    }
  }

  /// Why there is no output to act on.
  private var noOutput: ControlError {
    ControlError(display == "none" ? "nothing is shown yet" : "the display has been let go of")
  }

  // MARK: The player's frames

  var refreshPeriod: Double { output?.refreshPeriod ?? 1.0 / 60 }

  func present(_ frame: FrameRequest) throws -> Double? {
    guard let output else { return nil }
    lastProgress = returning ? 1 - frame.progress : frame.progress
    lastTime = frame.time
    // Dark: the player's frames pass by the clock, unseen.
    guard !isDark else { return nil }
    let transition: TransitionKind? = returning ? .crossfade : nil
    let vsync = try drawFrame(on: output) { screen, drawing in
      scenes[screen].draw(progress: lastProgress, time: frame.time, status: status, transition: transition, on: drawing)
    }
    noteDrawn(.whole)
    drawn()
    onPresented(vsync ?? clock.now())
    return vsync
  }

  /// Takes note of a playback event: when the first frame was shown, and
  /// whether the transition's frames are the player's now.
  func record(_ event: PlaybackEvent) {
    switch event {
    case .appeared(let at): appearedAt = at
    case .willDisappear:
      holding = false
      inTransition = true
    case .didDisappear: inTransition = false
    case .waiting, .gateOpened, .gateTimedOut: break
    }
  }

  // MARK: Drawing on its own

  /// Whether the stage draws what changed itself: once the first frame is
  /// shown, outside the transition (whose frames are the player's), while
  /// it is not paused or dark.
  private var drawsOnItsOwn: Bool { output != nil && appearedAt != nil && !inTransition && !isPaused && !isDark }

  private func damage(_ more: Damage) {
    if damage == .none { damagedAt = clock.now() }
    switch (damage, more) {
    case (.whole, _), (_, .whole): damage = .whole
    case (.none, let next): damage = next
    case (.area(let a), .area(let b)): damage = .area(a.union(b))
    case (.area, .none): break
    }
  }

  /// The animation's rectangle and its next frame's time (seconds after the
  /// first frame), while the splash holds.
  private var nextAnimationFrame: (rect: PixelRect, time: Double)? {
    guard holding, let animation = scenes.first?.status?.animation,
      let next = animation.timeline.nextChange(after: lastTime)
    else { return nil }
    return (animation.rect, next)
  }

  var descriptors: [FileDescriptor] { output?.eventDescriptors ?? [] }

  /// Events may already be queued inside the display library, where the
  /// connection's descriptor does not show them.
  func prepareToWait() { handleOutputEvents() }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) { handleOutputEvents() }

  var wakeTime: Double? {
    guard drawsOnItsOwn, let appearedAt else { return nil }
    if damage != .none { return max(damagedAt, nextUnpacedFrame) }
    return nextAnimationFrame.map { appearedAt + $0.time }
  }

  func wake() {
    guard drawsOnItsOwn, let appearedAt else { return }
    if damage == .none, let next = nextAnimationFrame, clock.now() >= appearedAt + next.time {
      damage(.area(next.rect))
    }
    drawDamage()
  }

  private func handleOutputEvents() {
    guard let output else { return }
    let events = output.handleEvents()
    if events.contains(.closed) { onClosed() }
    if events.contains(.redraw) { damage(.whole) }
  }

  /// Draws the held frame again where it was damaged (only there on an
  /// output of one screen that keeps its frame), as it is now.
  private func drawDamage() {
    guard let output, let appearedAt, damage != .none else { return }
    let time = holding ? clock.now() - appearedAt : lastTime
    lastTime = time
    let clip = clipOfNextFrame(on: output)
    var vsync: Double?
    do {
      vsync = try drawFrame(on: output) { screen, drawing in
        // A frame composed on the GPU is drawn whole (into a buffer of its own).
        let part = screen == 0 && drawing == nil ? clip : nil
        scenes[screen].draw(progress: lastProgress, time: time, status: status, clip: part, on: drawing)
      }
    } catch {
      log.error("\(output.name): cannot redraw: \(error)")
    }
    noteDrawn(damage)
    drawn()
    let now = clock.now()
    nextUnpacedFrame = vsync == nil ? now + refreshPeriod : -Double.infinity
    onPresented(vsync ?? now)
  }

  /// Host mode: whether the program's new frames go behind the splash.
  /// While the splash comes back, the program's last frame stays behind it
  /// (a program stopping may still draw; a background picture stays).
  var takesProgramFrames: Bool { !returning }

  /// Host mode: the program's new frame lies behind the splash on the
  /// screens from now on (`frame` makes it for a screen, by its index and
  /// canvas, says whether it is lent: readable only now, see
  /// `SceneRenderer.showBehind`, and what changed in it since the frame
  /// before, on that canvas: nil for all of it; nil leaves that screen as
  /// it is), drawn at the next frame: only where it changed, where the
  /// screen's target allows.
  func showBehind(_ frame: (Int, PixelSize) throws(RenderError) -> ShownFrame?) {
    guard takesProgramFrames else { return }
    programFrameOnGPU = false
    var changed: Damage = .none
    for (index, scene) in scenes.enumerated() {
      do {
        guard let made = try frame(index, scene.layout.canvas) else { continue }
        try scene.showBehind(made.pixels, lent: made.lent)
        // What changed on the first screen; anywhere else, all of it.
        guard index == 0, let area = made.changed else {
          changed = .whole
          continue
        }
        // A frame that changed nothing is still drawn (its callback is owed).
        let drawn = area.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1) : area
        if changed != .whole { changed = changed == .none ? .area(drawn) : .whole }
      } catch {
        log.error("host mode: the program's frame cannot be shown: \(error)")
        changed = .whole
      }
    }
    damage(changed == .none ? .whole : changed)
  }

  /// A program's frame as one screen shows it (`showBehind`).
  struct ShownFrame {
    let pixels: Pixels
    /// Whether `pixels` are the program's own, readable only now.
    let lent: Bool
    /// What changed since the frame before, on the screen's canvas; nil:
    /// all of it may have.
    let changed: PixelRect?
  }

  /// Host mode, the GPU variant: the program's new frame, its GPU buffer
  /// `dmabuf`, lies behind the splash from now on, drawn from where it
  /// lies at the next frame, composed on the GPU (`gpuComposition`): where
  /// there is one screen, whose canvas (turned or not) is the buffer's
  /// size, that shows the program's frames already, and the stage draws
  /// (not paused, not dark).
  /// False when not: the frame is to be read back and shown as any other
  /// (`showBehind`).
  func showBehindOnGPU(_ dmabuf: Dmabuf) -> Bool {
    guard gpuComposition != nil, takesProgramFrames, !isPaused, !isDark, output is ScanningOutOutput, scenes.count == 1,
      let scene = scenes.first, scene.layout.canvas == dmabuf.size,
      case .image = scene.layout.backdrop
    else { return false }
    programFrameOnGPU = true
    damage(.whole)
    return true
  }

  /// Host mode: a frame of the program's that is not shown (it has nothing
  /// in it) is still owed its frame callback at the next frame, or the
  /// program would wait for it and draw nothing more: a frame is drawn
  /// though nothing changed (one pixel of it, where the screen keeps its
  /// frame).
  func presentUnchanged() { damage(.area(PixelRect(x: 0, y: 0, width: 1, height: 1))) }

  /// The screens as scan-out sees them (`ScanoutChoice`): each one's mode
  /// and how its picture is turned.
  var scanoutScreens: [ScanoutChoice.Screen] {
    zip(output?.screens ?? [], scenes).map { ScanoutChoice.Screen(mode: $0.size, turn: $1.rotation) }
  }

  /// Host mode: the program's frame `dmabuf` (its own GPU buffer, with
  /// nothing over it) on the screen as it is, when the program is alone
  /// there (`ScanoutChoice`) and the output can show it so; waits for that
  /// flip. Whether it is on the screen now; when not, the screen is as it
  /// was and the frame is to be drawn as any other.
  func scanOut(_ dmabuf: Dmabuf) -> Bool {
    guard let output = output as? ScanningOutOutput, appearedAt != nil, !isDark else { return false }
    let splashShows = !splashPicturesReleased || returning || inTransition || isPaused
    if let refusal = ScanoutChoice.refusal(frame: dmabuf.size, screens: scanoutScreens, splashShows: splashShows) {
      // While the splash shows, composing is the rule, not news.
      if !splashShows { noteScanoutRefusal(refusal) }
      return false
    }
    switch output.scanOut(dmabuf) {
    case .failure(let error):
      noteScanoutRefusal(error.description)
      return false
    case .success(let vsync):
      if !scansOut { log.info("host mode: the program's frames are scanned out as they are (\(dmabuf.formatName))") }
      scansOut = true
      lastScanoutRefusal = nil
      noteDrawn(.whole)
      drawn()
      onPresented(vsync ?? clock.now())
      return true
    }
  }

  /// Why the program's frame was last not scanned out (said once until it is).
  private var lastScanoutRefusal: String?

  private func noteScanoutRefusal(_ reason: String) {
    guard reason != lastScanoutRefusal else { return }
    lastScanoutRefusal = reason
    log.info("host mode: the program's frame is not scanned out (splashd draws or composes it): \(reason)")
  }

  /// The stage's own frame is drawn on the screen again, by the CPU, when
  /// the program's buffer is scanned out or the frame was composed on the
  /// GPU: before a snapshot, a pause, a hand-over or letting go, all of
  /// which need the stage's frame in the output's own buffers.
  private func leaveScanout() {
    guard scansOut || showsComposedFrame || programFrameOnGPU else { return }
    programFrameOnGPU = false
    programFrames?.composeHeldFrame()
    damage(.whole)
    drawDamage()
  }

  /// Draws a frame (`draw`: a screen's scene, on the drawing given, or with
  /// its painter for nil) and shows it: composed on the GPU where the
  /// program's frame behind is its GPU buffer, else by the CPU. Its vsync
  /// time.
  private func drawFrame(on output: Output, _ draw: (Int, (any LayerDrawing)?) -> Void) throws -> Double? {
    if programFrameOnGPU, case .shown(let vsync) = composeOnGPU(on: output, draw) { return vsync }
    let vsync = try lendingProgramFrame { try output.present { draw($0, nil) } }
    composedAgain()
    showsComposedFrame = false
    return vsync
  }

  /// What became of a frame offered to the GPU.
  private enum GPUFrame {
    /// Composed and scanned out: its vsync time (nil when none came).
    case shown(vsync: Double?)
    /// Not: the program's frame was read back for the CPU to draw this one.
    case drawnByTheCPU
  }

  /// The first (only) screen's frame composed on the GPU and scanned out.
  /// A frame the compositor cannot compose turns composing off for good
  /// (said); one the display does not take (not lit, a flip still on its
  /// way), or over a program's frame that is no longer its GPU buffer (its
  /// client went), is drawn by the CPU this once (the refusal said once
  /// until a frame is taken).
  private func composeOnGPU(on output: Output, _ draw: (Int, (any LayerDrawing)?) -> Void) -> GPUFrame {
    func drawnByTheCPU() -> GPUFrame {
      programFrameOnGPU = false
      programFrames?.composeHeldFrame()
      return .drawnByTheCPU
    }
    guard let gpuComposition, let scanning = output as? ScanningOutOutput, let scene = scenes.first,
      let pictures = scene.painter as? SurfacePainter
    else { return drawnByTheCPU() }
    let size = scene.rotation.physicalSize(ofLogical: scene.layout.canvas)
    switch gpuComposition.compose(size: size, rotation: scene.rotation, pictures: pictures, { draw(0, $0) }) {
    case .programFrameNotOnGPU:
      return drawnByTheCPU()
    case .failed(let error):
      log.info("host mode: the splash's frames cannot be composed on the GPU (\(error)); the CPU draws them")
      self.gpuComposition = nil
      return drawnByTheCPU()
    case .frame(let frame):
      switch scanning.scanOut(frame) {
      case .failure(let error):
        if error.description != lastComposedRefusal {
          lastComposedRefusal = error.description
          log.info("host mode: a frame composed on the GPU is not shown (\(error)); the CPU draws it")
        }
        return drawnByTheCPU()
      case .success(let vsync):
        if !saidComposing { log.info("host mode: the splash's frames are composed on the GPU over the program's") }
        saidComposing = true
        lastComposedRefusal = nil
        composedAgain()
        showsComposedFrame = true
        return .shown(vsync: vsync)
      }
    }
  }

  /// After a frame of the stage's own reached the screen.
  private func composedAgain() {
    guard scansOut else { return }
    scansOut = false
    onComposedAgain()
  }

  /// Whether the last transition reached its end: its doors open, the
  /// program's frame alone drawn (not while the splash returns).
  var transitionReachedItsEnd: Bool { lastProgress >= 1 && !returning }

  /// Host mode, after the splash: the transition's end (the program alone)
  /// is what the stage draws from now on, even when the splash was stopped
  /// before its transition; the splash's pictures are let go of.
  func showTransitionEnd() {
    if lastProgress < 1 {
      lastProgress = 1
      damage(.whole)
    }
    releaseSplashPictures()
    splashPicturesReleased = true
  }

  /// The splash's pictures are not drawn after the transition: their memory
  /// goes (a 1080p pair of leaves is 8 MB), and the freed heap goes back too.
  private func releaseSplashPictures() {
    for scene in scenes { scene.releaseSplashPictures() }
    gpuComposition?.letGoOfReleasedPictures()
    Heap.returnFreedMemory()
    ExecutableCode.letGoOfMappedPages()
  }

  /// Host mode, the program gone: the splash's pictures are prepared again
  /// (or `other`'s: the shutdown's), the program's last frame kept behind
  /// them, and the player's next frames return to the splash (`returning`). False when there is no
  /// return to play: the splash was never let go of (it was stopped before
  /// its transition), or its pictures cannot be had (said).
  func prepareReturn(to other: SceneMaker? = nil) -> Bool {
    guard let output, splashPicturesReleased else { return false }
    let previous = scenes
    do {
      (scenes, _) = try (other ?? maker).scenes(for: output, rotation: rotation, message: status.shownText)
      scenes = withReport(scenes)
    } catch {
      log.error("host mode: the splash cannot come back: \(error.message)")
      return false
    }
    for (scene, old) in zip(scenes, previous) { scene.keepBehind(from: old) }
    splashPicturesReleased = false
    returning = true
    return true
  }

  /// Host mode: the return to the splash is played (or was not needed):
  /// the splash holds again, at rest, its animation stepping, over its own
  /// background (the program's last frame let go of).
  func holdAgain() {
    returning = false
    holding = true
    lastProgress = 0
    for scene in scenes { scene.dropKeptBehind() }
    damage(.whole)
    programFrames?.stageLetGoOfFrame()
  }

  /// A player's playback is over, played to its end or stopped: the stage
  /// draws what changes on its own again.
  func playbackEnded() { inTransition = false }

  /// Where the next frame of the stage's own, drawing `damage`, is drawn
  /// on an output of one screen: only there when its target holds a frame
  /// at most a few frames old (`OutputScreen.frameAge`), with what changed
  /// since that frame; everywhere (nil) otherwise.
  private func clipOfNextFrame(on output: Output) -> Rect? {
    guard case .area(var area) = damage, output.screens.count == 1, let age = output.screens[0].frameAge,
      age >= 1, age - 1 <= drawnBefore.count
    else { return nil }
    for earlier in drawnBefore.suffix(age - 1) {
      guard case .area(let other) = earlier else { return nil }
      area = area.union(other)
    }
    return area.rect
  }

  /// Notes what changed on the first screen in a frame drawn (`.whole` for
  /// the player's frames), whether it was drawn whole or not.
  private func noteDrawn(_ drew: Damage) {
    drawnBefore.append(drew)
    if drawnBefore.count > Self.framesRemembered { drawnBefore.removeFirst() }
  }

  /// How many frames' damage is remembered: more than any target's age.
  private static let framesRemembered = 3

  /// The frame on the screen shows every change: the replies waiting for it go.
  private func drawn() {
    damage = .none
    let waiting = afterDrawn
    afterDrawn = []
    for action in waiting { action() }
  }

  private func drawLast(_ screen: Int) {
    lendingProgramFrame { scenes[screen].draw(progress: lastProgress, time: lastTime, status: status) }
  }

  /// Runs `draw` with the program's frame lent to the scenes that draw it
  /// from where it lies (readable only meanwhile: `ProgramFrameLender`).
  private func lendingProgramFrame<Result, Failure: Error>(_ draw: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    guard let programFrames, scenes.contains(where: \.drawsBehindInPlace) else { return try draw() }
    var drawn: Swift.Result<Result, Failure>?
    programFrames.withHeldFrame { frame in
      for scene in scenes { scene.lend(frame) }
      drawn = Swift.Result { () throws(Failure) -> Result in try draw() }
      for scene in scenes { scene.endLending() }
    }
    return try drawn!.get()
  }

  // MARK: Letting go

  /// What a splashd that adopts this one gets: the back end's name and its
  /// cards, open; or why this display cannot be handed over.
  func handover() -> Result<(display: String, cards: HandedOverCards), ControlError> {
    guard let output else { return .failure(noOutput) }
    guard let handingOver = output as? AdoptableOutput else {
      return .failure(ControlError("the \(output.name) display cannot be handed over"))
    }
    return .success((output.name, handingOver.handover.cards))
  }

  /// The display belongs to another splashd now: nothing more is drawn, and
  /// nothing on the screen let go of: the output is kept until the process
  /// ends (its descriptors' files live on in the adopter), with only the
  /// buffers off the screen freed.
  func handedOver() {
    leaveScanout()
    if let output {
      (output as? AdoptableOutput)?.handedOver()
      KeptForLife.keep(output as AnyObject)
    }
    output = nil
    drawn()
  }

  /// Lets go of the output, keeping the last frame on the screen or not;
  /// nothing is drawn after.
  func release(keepingLastFrame: Bool) {
    guard let output else { return }
    leaveScanout()
    output.release(keepingLastFrame: keepingLastFrame) { drawLast(0) }
    released = keepingLastFrame ? output : nil
    self.output = nil
    drawn()
  }

  /// After `release(keepingLastFrame: true)`: whether the screen still
  /// shows the last frame only while this process holds the display.
  var lastFrameNeedsThisProcess: Bool { (released as? LingeringOutput)?.lastFrameNeedsThisProcess ?? false }
}

/// A screen as the stage shows it.
struct ShownScreen: Equatable {
  /// Its name, as `status` lists it ("HDMI-A-1", "card1-HDMI-A-1").
  let name: String
  /// Its logical canvas (its size turned as its content is).
  let canvas: PixelSize
  /// How its content is turned (the global angle, or its own: its panel's
  /// orientation, its `[screen]` section).
  let rotation: Rotation
}
