// SPDX-License-Identifier: Apache-2.0
import CLinux
import Foundation
import Glibc
import SplashCore
import SplashDevices
import SplashRender
import SplashSettings
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// A clock whose time moves only when the splash waits: real descriptors
/// are polled without waiting, and when none is ready the time jumps to the
/// next scheduled action (which is then run) or to the deadline. A splash
/// that would wait for ever with nothing scheduled, or that spins (finds a
/// descriptor ready again and again without time passing), fails the test
/// and is stopped with a SIGTERM through `stopper`.
final class TestClock: EventClock {
  private(set) var time = 100.0
  private var actions: [(at: Double, action: () -> Void)] = []
  /// Where the clock sends SIGTERM to end a splash that is stuck.
  var stopper: PipeSignals?
  /// Polls in a row that found something ready at the same instant.
  private var readyInARow = 0
  private var readyAt = -1.0
  /// Seconds of real time a wait for ever may take (for real child processes).
  var realWaitLimit = 20.0

  func now() -> Double { time }

  /// Runs `action` when the clock reaches `at` (seconds after its start, 100).
  func at(_ seconds: Double, _ action: @escaping () -> Void) { atTime(100 + seconds, action) }

  /// Runs `action` when the clock reads `time`.
  func atTime(_ time: Double, _ action: @escaping () -> Void) {
    actions.append((time, action))
    actions.sort { $0.at < $1.at }
  }

  /// Time passes (a frame being drawn).
  func advance(by seconds: Double) { time += seconds }

  /// Drops the actions that never came due (they hold on to their test).
  func discardPending() { actions = [] }

  func poll(_ descriptors: inout [pollfd], until deadline: Double) -> Bool {
    while true {
      if Glibc.poll(&descriptors, nfds_t(descriptors.count), 0) > 0 {
        readyInARow = readyAt == time ? readyInARow + 1 : 0
        readyAt = time
        if readyInARow > 10_000 {
          Issue.record("the splash spins: a descriptor is ready again and again at \(time)")
          readyInARow = 0
          stuck()
          continue
        }
        return true
      }
      if let next = actions.first, next.at <= deadline {
        actions.removeFirst()
        time = max(time, next.at)
        next.action()
        continue
      }
      if deadline == .infinity {
        // Only real processes can end such a wait: give them real time.
        if Glibc.poll(&descriptors, nfds_t(descriptors.count), Int32(realWaitLimit * 1000)) > 0 { return true }
        Issue.record("the splash waits for ever with nothing scheduled (at \(time))")
        stuck()
        continue
      }
      time = max(time, deadline)
      return false
    }
  }

  private func stuck() {
    guard let stopper else { fatalError("stuck, and no way to stop the splash") }
    stopper.send(SIGTERM)
  }
}

/// A pipe whose ends never block: the reading end as a descriptor, the writing one.
func nonBlockingPipe() -> (FileDescriptor, Int32) {
  var ends: [Int32] = [0, 0]
  // Close-on-exec: a process another test spawns meanwhile must not keep
  // the writer open after the test closes it (its reader would never see
  // the hang-up a test waits for).
  precondition(pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0)
  return (FileDescriptor(rawValue: ends[0]), ends[1])
}

/// Signals through a pipe, standing in for the signalfd.
final class PipeSignals: SignalReceiving {
  let descriptor: FileDescriptor
  private let writer: Int32

  init() {
    (descriptor, writer) = nonBlockingPipe()
  }

  deinit {
    close(writer)
    close(descriptor.rawValue)
  }

  func send(_ signal: Int32) {
    var value = signal
    _ = write(writer, &value, 4)
  }

  func next() -> Int32? {
    var value: Int32 = 0
    return read(descriptor.rawValue, &value, 4) == 4 ? value : nil
  }
}

/// An orientation device through a pipe: each byte written is an angle / 90.
final class PipeAngles: AngleSource {
  let descriptor: FileDescriptor
  private var writer: Int32
  let path = "test sensor"
  let cause = "the test sensor"

  init() {
    (descriptor, writer) = nonBlockingPipe()
  }

  deinit {
    if writer >= 0 { close(writer) }
    close(descriptor.rawValue)
  }

  func send(_ rotation: Rotation) {
    var byte = UInt8(rotation.rawValue / 90)
    _ = write(writer, &byte, 1)
  }

  /// The device goes away.
  func unplug() {
    close(writer)
    writer = -1
  }

  func read() throws(DeviceError) -> Rotation? {
    var last: Rotation?
    while case .bytes(let bytes) = descriptor.readAvailable() {
      last = bytes.last.flatMap { Rotation(rawValue: Int($0) * 90) }
    }
    return last
  }
}

/// Display devices' events through a pipe, as the kernel's uevents would
/// bring them.
final class PipeDisplayEvents: DisplayDeviceEvents {
  let descriptor: FileDescriptor
  private let writer: Int32
  private var queued: [DisplayDeviceEvent?] = []

  init() {
    (descriptor, writer) = nonBlockingPipe()
  }

  deinit {
    close(writer)
    close(descriptor.rawValue)
  }

  /// Sends `event`; nil says that events were lost.
  func send(_ event: DisplayDeviceEvent?) {
    queued.append(event)
    var byte: UInt8 = 1
    _ = write(writer, &byte, 1)
  }

  func read() -> (events: [DisplayDeviceEvent], lost: Bool) {
    while case .bytes = descriptor.readAvailable() {}
    defer { queued = [] }
    return (queued.compactMap { $0 }, queued.contains { $0 == nil })
  }
}

/// A screen with a fixed mode (a framebuffer's) and a vsync every 1/60 s on
/// the test clock; drawing frame N costs `cost(N)` seconds. It paints into
/// memory.
class ScreenStub: Output, FlipWatchedOutput, PowerSwitchedOutput {
  let canvas: OffscreenOutput
  /// Since when its page flip has been stuck, as a display that stopped
  /// completing them; nil while it completes them.
  var flipsStuckSince: Double?
  let clock: TestClock
  let cost: (Int) -> Double
  /// Whether it keeps what was painted between frames (as offscreen and an
  /// unflipped framebuffer do: `frameAge` 1).
  let retainsFrame: Bool
  private(set) var presents = 0
  /// How it was released: nil while it holds the screen.
  private(set) var keptLastFrame: Bool?

  /// The back end's name.
  let name: String
  let traits: OutputTraits

  init(
    size: PixelSize, clock: TestClock, retainsFrame: Bool, name: String = "screen",
    traits: OutputTraits = .framebuffer, cost: @escaping (Int) -> Double
  ) throws {
    canvas = try OffscreenOutput(size: size)
    self.name = name
    self.traits = traits
    self.clock = clock
    self.retainsFrame = retainsFrame
    self.cost = cost
  }

  var description: String { "\(size.description) stub" }
  var screens: [OutputScreen] {
    [
      OutputScreen(
        name: name, size: canvas.size, painter: canvas.painter, mode: canvas.size.description,
        frameAge: retainsFrame ? 1 : nil)
    ]
  }
  var refreshPeriod: Double { 1.0 / 60 }
  var eventDescriptors: [FileDescriptor] { [] }
  func handleEvents() -> OutputEvents { [] }

  /// Whether its screen is on (`setPowered`); each switch, with its time;
  /// the frames presented while it was off (none may be).
  private(set) var powered = true
  private(set) var powerSwitches: [(time: Double, on: Bool)] = []
  private(set) var presentsWhileOff = 0

  func setPowered(_ on: Bool) -> String? {
    powered = on
    powerSwitches.append((clock.now(), on))
    return nil
  }

  func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    if !powered { presentsWhileOff += 1 }
    draw(0)
    clock.advance(by: cost(presents))
    presents += 1
    let vsync = (clock.time / refreshPeriod - 1e-9).rounded(.up) * refreshPeriod
    clock.advance(by: vsync - clock.time)
    return vsync
  }

  /// Like a screen that keeps no copy of what it showed: the frame is painted again, then read.
  func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels {
    repaintLast()
    return try .copy(of: canvas.surface)
  }

  func release(keepingLastFrame: Bool, repaintLast: () -> Void) { keptLastFrame = keepingLastFrame }

  /// Stuck past a second, as the native KMS output's flip timeout.
  func flipStuck(at now: Double) -> Bool { flipsStuckSince.map { now - $0 > 1 } ?? false }
}

/// A screen of two pages flipped in turn, as a KMS card's dumb buffers:
/// each frame is painted into the page not shown, which holds the frame
/// before last (`frameAge` 2 once both were painted), then shown. Frames
/// come at the test clock's 60 Hz.
final class FlippingScreenStub: Output {
  let pages: [OffscreenOutput]
  let clock: TestClock
  /// One painter, turned to the page painted next before each frame (as a
  /// KMS screen's).
  let painter: SurfacePainter
  /// The page on the screen.
  private(set) var shown = 1
  /// The frame number each page holds, and the frames painted.
  private var painted: [Int?] = [nil, nil]
  private var frames = 0

  init(size: PixelSize, clock: TestClock) throws {
    pages = [try OffscreenOutput(size: size), try OffscreenOutput(size: size)]
    self.clock = clock
    painter = SurfacePainter(target: pages[0].frame.surface)
  }

  var back: Int { 1 - shown }
  let name = "screen"
  let traits: OutputTraits = .framebuffer
  var description: String { "two flipped pages" }
  var screens: [OutputScreen] {
    [
      OutputScreen(
        name: name, size: pages[0].size, painter: painter, mode: pages[0].size.description,
        frameAge: painted[back].map { frames - $0 })
    ]
  }
  var refreshPeriod: Double { 1.0 / 60 }
  var eventDescriptors: [FileDescriptor] { [] }
  func handleEvents() -> OutputEvents { [] }

  func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    painter.target = pages[back].frame.surface
    draw(0)
    painted[back] = frames
    frames += 1
    shown = back
    clock.advance(by: 0.004)
    let vsync = (clock.time / refreshPeriod - 1e-9).rounded(.up) * refreshPeriod
    clock.advance(by: vsync - clock.time)
    return vsync
  }

  /// What the screen shows.
  func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels { try .copy(of: pages[shown].frame.surface) }
  func release(keepingLastFrame: Bool, repaintLast: () -> Void) {}
}

/// A `ScreenStub` on a DRM card: its screens follow the card's device.
final class CardScreenStub: ScreenStub, HotPluggableOutput {
  /// The card it draws on.
  let deviceNode: String

  init(size: PixelSize, clock: TestClock, device: String, cost: @escaping (Int) -> Double) throws {
    deviceNode = device
    try super.init(size: size, clock: clock, retainsFrame: false, name: "kms", traits: .card, cost: cost)
  }

  func showsOn(_ node: String) -> Bool { node == deviceNode }
  func screensChanged(on node: String) -> Bool { false }
}

/// The stand-in screens a test's back ends open, for the test to look at.
final class Screens: @unchecked Sendable {
  var opened: [ScreenStub] = []
  var cost: (Int) -> Double = { _ in 0.004 }
  var size = PixelSize(width: 640, height: 480)
  var retainFrames = false

  /// A stand-in for the native KMS back end: opens a `ScreenStub` named
  /// "kms" of `cardSize` on the card asked for, once that card is in
  /// `cards`, and fails as a card without a connected connector otherwise.
  var cards: Set<String> = []
  var cardSize = PixelSize(width: 800, height: 600)
  var kmsBackEnd: BackEnd {
    BackEnd(
      name: "kms", traits: .card, help: "A stand-in KMS card.", probe: { _ in .skipped("no card yet") },
      open: { [self] request throws(RenderError) in
        guard let clock = request.clock as? TestClock else { throw RenderError("not on a test clock") }
        guard let card = request.device?.path, cards.contains(card) else {
          throw RenderError("no connected connector", named: request.device?.path ?? "no card")
        }
        do {
          let screen = try CardScreenStub(size: cardSize, clock: clock, device: card, cost: cost)
          opened.append(screen)
          return screen
        } catch {
          throw RenderError("\(error)")
        }
      })
  }

  /// A back end named "flipping" that opens a `FlippingScreenStub`.
  var flippingBackEnd: BackEnd {
    BackEnd(
      name: "flipping", traits: .framebuffer, help: "Two flipped pages.", probe: { _ in .tried("a stand-in") },
      open: { [self] request throws(RenderError) in
        guard let clock = request.clock as? TestClock else { throw RenderError("not on a test clock") }
        do {
          let screen = try FlippingScreenStub(size: size, clock: clock)
          flipping.append(screen)
          return screen
        } catch {
          throw RenderError("\(error)")
        }
      })
  }
  /// The flipping screens opened.
  var flipping: [FlippingScreenStub] = []

  /// A back end named "screen" that opens a `ScreenStub`.
  var backEnd: BackEnd {
    BackEnd(
      name: "screen", traits: .framebuffer, help: "A stand-in screen.", probe: { _ in .tried("a stand-in") },
      open: { [self] request throws(RenderError) in
        guard let clock = request.clock as? TestClock else { throw RenderError("not on a test clock") }
        do {
          let screen = try ScreenStub(size: size, clock: clock, retainsFrame: retainFrames, cost: cost)
          opened.append(screen)
          return screen
        } catch {
          throw RenderError("\(error)")
        }
      })
  }
}

/// A back end that never opens.
let brokenBackEnd = BackEnd(
  name: "broken", traits: .framebuffer, help: "Never opens.", probe: { _ in .tried("always tried") },
  open: { _ throws(RenderError) in throw RenderError("no such screen", named: "/dev/broken") })

/// One splash run in process: the arguments (after an empty config), a test
/// clock, captured log and output, signals through a pipe.
final class Harness {
  let dir: TemporaryDirectory
  let clock = TestClock()
  let signals = PipeSignals()
  let screens = Screens()
  var environment = ["PATH": "/usr/bin:/bin"]
  var backEnds: [BackEnd]
  var resolveRotation: ((OrientationSettings, EventClock) -> ResolvedRotation)?
  /// Display devices' events, sent by the test; none are followed without.
  var displayEvents: PipeDisplayEvents?
  /// Where the last hand-off is recorded, as under systemd; nil as outside it.
  var handOffRecord: String?
  /// Each log line with the clock's time when it was written.
  private(set) var log: [(time: Double, line: String)] = []
  private(set) var printed = ""
  private(set) var rotations: [Rotation] = []
  /// The session of the last run, for its state after the run.
  private(set) var session: Session?
  /// Whether host mode's compositor is stood in for by `FakeWaylandHost`.
  var fakesWaylandHost = false
  /// The stand-in compositor of the last run, once made.
  private(set) var waylandHost: FakeWaylandHost?
  /// Told of the stand-in compositor when it is made.
  var onWaylandHost: (FakeWaylandHost) -> Void = { _ in }
  /// Where host mode's program's standard error is forwarded (the test
  /// process's own when nil).
  var programStderr: FileDescriptor?

  init() throws {
    dir = try TemporaryDirectory()
    backEnds = Outputs.registry
    backEnds.append(screens.backEnd)
    backEnds.append(screens.flippingBackEnd)
    backEnds.append(brokenBackEnd)
    clock.stopper = signals
  }

  /// The control socket tests talk to.
  var controlPath: String { dir.path + "/control" }
  /// Where the backlights are (none by default).
  var backlightFolder: String?
  /// The local time of day the run sees; the machine's by default.
  var localSecondOfDay: (() -> Double)?
  /// The journal's native socket the run sends to (none there by default).
  var journalSocket: String?

  /// Runs splashd with `arguments`, with the empty config unless they name one.
  func run(_ arguments: [String]) -> Ending {
    SDLThreadCleanup.register()
    var dependencies = Dependencies(
      clock: clock, environment: environment,
      log: Log { [weak self] line in self?.log.append((self?.clock.now() ?? 0, String(line.dropLast()))) },
      backEnds: backEnds,
      defaultConfig: dir.path + "/no-default.conf", onRotation: { [weak self] in self?.rotations.append($0) },
      print: { [weak self] in self?.printed += $0 })
    dependencies.signals = signals
    if let resolveRotation { dependencies.resolveRotation = resolveRotation }
    dependencies.displayEvents = { [weak self] in self?.displayEvents }
    dependencies.sessionMade = { [weak self] in self?.session = $0 }
    if let programStderr { dependencies.programStderr = programStderr }
    dependencies.backlightFolder = backlightFolder ?? dir.path + "/no-backlights"
    dependencies.journalSocket = journalSocket ?? dir.path + "/no-journal"
    if let localSecondOfDay { dependencies.localSecondOfDay = localSecondOfDay }
    dependencies.handOffRecord = handOffRecord.map { HandOffRecord(path: $0) }
    if fakesWaylandHost {
      dependencies.makeWaylandHost = { [weak self] size, screen, renderNode, _ throws(SystemError) in
        let host = FakeWaylandHost(size: size, screen: screen, renderNode: renderNode)
        host.clock = self?.clock
        self?.waylandHost = host
        self?.onWaylandHost(host)
        return host
      }
    }
    // Made in place, in step with the test clock (the real binary's tests
    // cover the snapshots made on threads of their own).
    dependencies.snapshotsOffTheLoop = false
    let hasConfig = arguments.contains { $0 == "--config" || $0.hasPrefix("--config=") }
    defer {
      clock.discardPending()
      // A test's hook that names the harness would keep it (and the session) for ever.
      onWaylandHost = { _ in }
      waylandHost?.onConnect = { _ in }
    }
    return Splashd.run((hasConfig ? [] : ["--config", dir.testConfig]) + arguments, dependencies)
  }

  /// The log's lines, without their times.
  var lines: [String] { log.map(\.line) }

  /// Ends host mode's program that runs now (SIGKILL), as a crash would.
  /// `awaitingItsEnd`: then waits (in real time, without reaping it) until
  /// it has ended, so that splashd finds its end at its next turn, not at
  /// some later time of the test clock.
  func killProgram(awaitingItsEnd: Bool = false) {
    guard let pid = session?.kiosk?.program.spawned?.child.pid else {
      Issue.record("no program runs")
      return
    }
    kill(pid, SIGKILL)
    guard awaitingItsEnd else { return }
    var info = siginfo_t()
    _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
  }

  /// What revealed the splash of the last run, and what stopped it.
  var revealReason: String? { session?.controller.revealReason }
  var stopReason: String? { session?.controller.stopReason }
  /// How the last run's playback went, when it ended on its own.
  var playback: PlaybackReport? { session?.controller.playback }
  /// Whether the last run's gate held until its timeout.
  var gateTimedOut: Bool {
    session?.controller.playbackEvents.contains { if case .gateTimedOut = $0 { true } else { false } } ?? false
  }

  /// When the first line starting with `prefix` was logged.
  func time(of prefix: String) -> Double? { log.first { $0.line.hasPrefix(prefix) }?.time }

  /// Whether the first line starting with `first` came before the first starting with `second`.
  func logged(_ first: String, before second: String) -> Bool {
    guard let a = lines.firstIndex(where: { $0.hasPrefix(first) }),
      let b = lines.firstIndex(where: { $0.hasPrefix(second) })
    else { return false }
    return a < b
  }
}

/// A client of the control socket, in process: connects, sends, and reads
/// what came back without waiting (the replies stay in the socket).
final class TestClient {
  let fd: Int32
  private var data: [UInt8] = []
  private var closed = false

  init(_ path: String) {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    let socket = fd
    let connected = withUnixAddress(path) { connect(socket, $0, $1) }
    if connected != 0 { Issue.record("cannot connect to \(path): errno \(errno)") }
  }

  deinit { close(fd) }

  func send(_ text: String) {
    _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
  }

  func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

  /// Everything received so far, and whether the other end has closed.
  func received() -> (text: String, closed: Bool) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !closed {
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count > 0 {
        data += buffer[..<count]
        continue
      }
      closed = count == 0
      break
    }
    return (String(decoding: data, as: UTF8.self), closed)
  }

  /// Every byte received so far.
  var bytes: [UInt8] {
    _ = received()
    return data
  }

  /// The reply lines received so far.
  var replies: [String] { received().text.split(separator: "\n").map(String.init) }
}
