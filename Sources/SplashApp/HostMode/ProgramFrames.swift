// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem
import SplashWaylandHost

/// Host mode: the program's frames on the stage. Each buffer it commits
/// is held by the compositor and lies behind the splash on every screen
/// (its part of the window, as `screens` arranges them), drawn at the
/// stage's next frame from where it lies when it fills a screen; its first
/// frame that shows something is the one the doors open onto. Once the
/// program is alone on the screen, a frame that is one GPU buffer the size
/// of the screen is scanned out as it is instead; before that, under the
/// splash, such a frame is drawn from where it lies by the GPU variant's
/// compositor, which composes the stage's frame (`GPUComposition`).
/// Screencopy clients get what the first screen shows, at most once a
/// refresh.
final class ProgramFrames: ProgramFrameLender {
  private let stage: Stage
  /// What shows around a window smaller than its screen.
  private let fill: Color
  private let log: Log
  /// The session's clock.
  private let now: () -> Double
  /// The compositor whose frames these are, once the program is started.
  private var host: (any WaylandHosting)?
  /// Where the program's window lies on the screens.
  var arrangement: ScreenArrangement?
  /// Whether the program has ended (its last frame goes with the stage's
  /// last look at it).
  var programEnded: () -> Bool = { true }
  /// Told when the program's first frame (for this start) is on the stage.
  var onFirstFrame: () -> Void = {}
  /// Whether the program's window has shown a frame, for this start.
  private(set) var showedAFrame = false
  /// How many of the program's buffers have been shown.
  private(set) var buffersShown = 0
  /// Whether it was said that the program's frames so far have nothing in
  /// them (fully transparent), for this start.
  private var saidNothingShows = false
  /// The picture made for each screen that shows the window centred on a
  /// larger canvas, kept so that a frame of which part changed is copied
  /// into it only there; none while a frame may have been held and not
  /// shown into them.
  private var centred: [Int: (pixels: Pixels, window: PixelSize, canvas: PixelSize)] = [:]
  /// Screencopy clients get the screen at most once a refresh of the
  /// screen the program is on (it has nothing newer, and each copy is
  /// whole frames of copying).
  private var screenCopies: RequestPacer

  init(stage: Stage, fill: Color, now: @escaping () -> Double, log: Log) {
    self.stage = stage
    self.fill = fill
    self.now = now
    self.log = log
    screenCopies = RequestPacer(interval: 1.0 / 60)
  }

  /// The frames come from `host` from now on; screen copies are paced
  /// by the stage's refresh.
  func serve(_ host: any WaylandHosting) {
    self.host = host
    screenCopies = RequestPacer(interval: stage.refreshPeriod)
    stage.gpuComposition = host.composesOnGPU ? GPUComposition(host: host) : nil
    // The buffer scanned out goes back to the program once the stage's own
    // frame has replaced it on the screen.
    stage.onComposedAgain = { [weak self] in self?.host?.shownComposed() }
  }

  /// The program starts again: its first frame is waited for anew.
  func programRestarts() {
    showedAFrame = false
    saidNothingShows = false
  }

  /// The program's current buffer behind the splash: centred on the
  /// window over the background colour, and each screen's part of that
  /// (`arrangement`) on its canvas; a screen with no part is left as it is.
  /// The buffer is held (`holdCurrentFrame`) and lent as it is to a screen
  /// it fills, so that it is not copied. A new frame of the program's
  /// (not `wholly`) is drawn only where its client said it changed. Once
  /// the program has shown its first frame, a frame that is one GPU buffer
  /// alone on the screen is scanned out as it is (`mayScanOut`), neither
  /// read nor copied, and one under the splash is composed with it on the
  /// GPU where the stage can (`Stage.showBehindOnGPU`; also `mayScanOut`).
  func showCurrent(wholly: Bool = true, mayScanOut: Bool = true) {
    guard let host, stage.takesProgramFrames, host.holdCurrentFrame() else { return }
    if mayScanOut, showedAFrame, let dmabuf = host.heldDmabuf, stage.scanOut(dmabuf) {
      // Its buffer stays the program's screen until the next is shown so.
      host.shownAsIs()
      centred = [:]
      buffersShown += 1
      return
    }
    if mayScanOut, showedAFrame, let dmabuf = host.heldDmabuf, stage.showBehindOnGPU(dmabuf) {
      centred = [:]
      buffersShown += 1
      return
    }
    // What changed since the frame held before, when that one was shown
    // (a frame held and not shown leaves the kept pictures behind it).
    let changed = wholly ? nil : host.heldFrameDamage
    if wholly { centred = [:] }
    let shown: Bool? = host.withHeldFrame { buffer in
      // A frame with nothing in it (a browser's before its first paint)
      // is not the program's first: the doors would open onto black.
      if !showedAFrame, buffer.showsNothing {
        if !saidNothingShows {
          saidNothingShows = true
          log.info("host mode: the program's frame has nothing in it (fully transparent); waiting for one that has")
        }
        centred = [:]
        stage.presentUnchanged()
        return false
      }
      show(buffer, changed: changed)
      return true
    }
    if shown == nil { centred = [:] }
    guard shown == true else { return }
    buffersShown += 1
    guard !showedAFrame else { return }
    showedAFrame = true
    log.info("host mode: the program's first frame")
    // Its memory has been read: libwayland's SIGBUS handler is in place.
    MappedFile.guardGoesFirst()
    // The splash's start is behind it: its code need not stay mapped.
    ExecutableCode.letGoOfMappedPages()
    onFirstFrame()
  }

  /// `buffer` behind the splash on each screen, of which `changed` (in
  /// the window's pixels; nil: all of it may have) changed since the frame
  /// shown before: a screen that shows it as it is draws only that again,
  /// and a screen that shows it centred on its canvas has only that copied
  /// into its picture (kept from the frame before).
  private func show(_ buffer: HostedBuffer, changed: PixelRect?) {
    let window = arrangement?.window ?? buffer.size
    /// The buffer itself (readable only now), when it is `canvas`'s size;
    /// else centred on it, in the picture kept for `screen` where it is
    /// still the one of this size: only what changed copied into it.
    func picture(on canvas: PixelSize, for screen: Int?) throws(RenderError) -> Stage.ShownFrame {
      guard buffer.size != canvas else {
        let lent = try Pixels(lending: buffer.pixels, size: buffer.size, stride: buffer.stride)
        return Stage.ShownFrame(pixels: lent, lent: true, changed: changed)
      }
      if let screen, let changed, let kept = centred[screen], kept.window == buffer.size, kept.canvas == canvas {
        kept.pixels.placeCentred(buffer.pixels, size: buffer.size, stride: buffer.stride, part: changed)
        let (x, y) = kept.pixels.centringOffset(of: buffer.size)
        let moved = PixelRect(x: changed.x + x, y: changed.y + y, width: changed.width, height: changed.height)
        return Stage.ShownFrame(pixels: kept.pixels, lent: false, changed: moved)
      }
      let made = try Pixels.centred(buffer.pixels, size: buffer.size, stride: buffer.stride, on: canvas, fill: fill)
      if let screen { centred[screen] = (made, buffer.size, canvas) }
      return Stage.ShownFrame(pixels: made, lent: false, changed: nil)
    }
    var windowPicture: Stage.ShownFrame?
    func picture() throws(RenderError) -> Stage.ShownFrame {
      if let windowPicture { return windowPicture }
      let made = try picture(on: window, for: nil)
      windowPicture = made
      return made
    }
    stage.showBehind { index, canvas throws(RenderError) in
      guard let arrangement, arrangement.views.indices.contains(index) else {
        return try picture(on: canvas, for: index)
      }
      guard let view = arrangement.views[index] else { return nil }
      let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
      // The whole window on a screen its size: the window's picture itself.
      if canvas == window, view.destination == whole, view.source == whole.rect {
        return try picture(on: canvas, for: index)
      }
      let shown = try Pixels.showing(picture().pixels, placed: view, on: canvas, fill: fill)
      return Stage.ShownFrame(pixels: shown, lent: false, changed: nil)
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
    if programEnded() { host?.dropHeldFrame() }
  }

  func composeHeldFrame() { showCurrent(wholly: true, mayScanOut: false) }

  /// The path each screen's frames take (`status`'s scanout=): `direct`
  /// while the program's buffer is scanned out, `composed` while the GPU
  /// composes the stage's frame over it, else `software` (the CPU draws
  /// the program's frame into splashd's).
  var screenPaths: [String] {
    stage.shownScreens.indices.map {
      guard $0 == 0 else { return "software" }
      return stage.scansOut ? "direct" : stage.showsComposedFrame ? "composed" : "software"
    }
  }

  // MARK: Screen copies

  /// A screencopy client asked for the screen: served now, or a refresh
  /// after the last copy (`wakeTime`).
  func screenWanted() {
    if screenCopies.request(at: now()) { showScreen() }
  }

  /// When a screen copy asked for sooner than a refresh after the last is due.
  var wakeTime: Double? { host == nil ? nil : screenCopies.dueTime }

  func wake() {
    guard host != nil, screenCopies.serveDue(at: now()) else { return }
    showScreen()
  }

  /// What the first screen shows, for the screencopy clients that asked.
  private func showScreen() {
    guard let host else { return }
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
}
