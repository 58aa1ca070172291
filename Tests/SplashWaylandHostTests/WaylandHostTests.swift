// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashSystem
import SplashTestSupport
import SplashWaylandHost
import Testing

/// Host mode's compositor (libsplashd-wayland-host.so, built by make beside
/// the test binary) serving real Wayland programs from Debian: foot and
/// weston's simple-shm, connected through WAYLAND_SOCKET.
@Suite struct WaylandHostTests {
  /// A compositor of `size` and a program started as its client.
  final class Hosted {
    let host: WaylandHost
    let child: ChildProcess
    var events: WaylandHostEvents = []
    var lines: [String] = []
    let clock = MonotonicClock()

    init(size: PixelSize, screen: PixelSize? = nil, program: [String]) throws {
      var said: [String] = []
      host = try WaylandHost(size: size, screen: screen) { said.append($0) }
      lines = said
      let connection = try host.connectClient()
      defer { try? connection.close() }
      let path = try #require(Executables.locate(program[0], searchPath: "/usr/bin:/bin"), "\(program[0]) is missing")
      child = try ChildProcess.spawn(
        path, program, environment: Environment.all().merging(["WAYLAND_SOCKET": "\(connection.rawValue)"]) { $1 })
    }

    deinit {
      child.send(SIGKILL)
      _ = try? child.wait()
    }

    /// Serves the client until `event` happens (true) or 20 s pass (false).
    func wait(for event: WaylandHostEvents) -> Bool {
      let deadline = clock.now() + 20
      while clock.now() < deadline {
        events.formUnion(host.dispatch())
        if events.contains(event) {
          events.remove(event)
          return true
        }
        var poll = pollfd(fd: host.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&poll, 1, 100)
      }
      return false
    }

    /// The window's pixels at its next change that shows something (a
    /// commit without a buffer, as the first one before its configure, is a
    /// change too); nil when none comes in 20 s.
    func nextFrame() -> (size: PixelSize, rgb: [UInt32])? {
      while wait(for: .newBuffer) {
        if let shown = pixels() { return shown }
      }
      return nil
    }

    /// The client's current pixels, row by row as 0xRRGGBB.
    func pixels() -> (size: PixelSize, rgb: [UInt32])? {
      guard host.holdCurrentFrame() else { return nil }
      return host.withHeldFrame { buffer in
        var rgb: [UInt32] = []
        rgb.reserveCapacity(buffer.size.width * buffer.size.height)
        for y in 0..<buffer.size.height {
          let row = buffer.pixels.advanced(by: y * buffer.stride).assumingMemoryBound(to: UInt32.self)
          for x in 0..<buffer.size.width { rgb.append(row[x] & 0xFF_FFFF) }
        }
        return (buffer.size, rgb)
      }
    }
  }

  /// foot's window is configured to the screen's size before its first
  /// buffer, and that buffer (its background colour, as asked) is read.
  @Test func footIsConfiguredToTheScreenAndItsPixelsAreRead() throws {
    let hosted = try Hosted(
      size: PixelSize(width: 320, height: 240), program: ["foot", "--override=colors.background=2080c0"])
    let shown = try #require(hosted.nextFrame(), "foot never showed a buffer: \(hosted.lines)")
    #expect(shown.size == PixelSize(width: 320, height: 240))
    let background = shown.rgb.filter { $0 == 0x2080C0 }.count
    #expect(background > shown.rgb.count * 9 / 10, "\(background) of \(shown.rgb.count) pixels are foot's background")
  }

  /// An animating client (weston-simple-shm) draws a new frame after each
  /// frame callback: its pixels change from one buffer to the next.
  @Test func anAnimatingClientDrawsAfterEachFrameDone() throws {
    let hosted = try Hosted(size: PixelSize(width: 320, height: 240), program: ["weston-simple-shm"])
    var frames: [[UInt32]] = []
    // Presented a refresh period apart, as a 60 Hz screen would (the client
    // animates by the frame callbacks' times).
    let start = hosted.clock.now()
    for frame in 0..<3 {
      frames.append(try #require(hosted.nextFrame(), "no new buffer after \(frames.count) frames").rgb)
      hosted.host.frameDone(at: start + Double(frame) / 60, refreshPeriod: 1.0 / 60)
    }
    #expect(frames[0] != frames[1] && frames[1] != frames[2], "the client's pixels did not change")
    // Nothing was drawn but what the client drew: not one colour all over.
    #expect(Set(frames[2]).count > 10)
  }

  /// The output's mode says the screen's refresh, not the headless back
  /// end's 60 Hz: tools/test/qemu/frame-counter (built here with wayland-scanner's
  /// xdg-shell code), presented at 50 Hz, reads 50000 mHz from wl_output.
  @Test func theOutputSaysTheScreensRefresh() throws {
    let dir = try TemporaryDirectory()
    let counter = dir.path + "/frame-counter"
    try buildWaylandClient("tools/test/qemu/frame-counter.c", in: dir.path, to: counter)
    let figures = dir.path + "/figures"
    let hosted = try Hosted(size: PixelSize(width: 320, height: 240), program: [counter, "0", "0.2", figures])
    let start = hosted.clock.now()
    var frame = 0
    // Each new frame presented, until the client has written its figures.
    while !FileManager.default.fileExists(atPath: figures), hosted.clock.now() < start + 20 {
      if hosted.host.dispatch().contains(.newBuffer), hosted.pixels() != nil {
        frame += 1
        hosted.host.frameDone(at: start + Double(frame) / 50, refreshPeriod: 1.0 / 50)
      }
      var poll = pollfd(fd: hosted.host.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
      _ = Glibc.poll(&poll, 1, 20)
    }
    let line = try String(contentsOfFile: figures, encoding: .utf8)
    #expect(line.hasSuffix(" refresh_mhz 50000\n"), "\(line)")
  }

  /// A screencopy client (Debian's grim) that connects to the host's
  /// socket gets the screen as splashd gives it, at the screen's size (here
  /// another one than the program's window: a turned screen), pixel for
  /// pixel.
  @Test func grimCopiesWhatTheScreenShows() throws {
    let dir = try TemporaryDirectory()
    let screen = PixelSize(width: 240, height: 320)
    // A program that says nothing: nothing but grim wakes the host.
    let hosted = try Hosted(size: PixelSize(width: 320, height: 240), screen: screen, program: ["sleep", "30"])
    let socket = try WaylandDisplaySocket.claim(in: dir.path)
    defer { socket.remove() }
    try hosted.host.serve(socket.listener)
    // What the screen shows: a dark blue with an orange square.
    var pixels = [UInt32](repeating: 0x20_4060, count: screen.width * screen.height)
    for y in 30..<80 { for x in 40..<90 { pixels[y * screen.width + x] = 0xC0_8040 } }
    let copy = dir.path + "/screen.ppm"
    let grim = try ChildProcess.spawn(
      "/usr/bin/grim", ["grim", "-t", "ppm", copy],
      environment: Environment.all().merging(["XDG_RUNTIME_DIR": dir.path, "WAYLAND_DISPLAY": socket.name]) { $1 })
    let ended = try grim.endWatch()
    var asked = 0
    let deadline = hosted.clock.now() + 10
    // As splashd's run loop does: a dispatch only when the host's
    // descriptor is readable, so that what is not sent is never sent.
    var grimEnded = false
    while hosted.clock.now() < deadline, !grimEnded {
      var polls = [
        pollfd(fd: hosted.host.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
        pollfd(fd: ended.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
      ]
      _ = Glibc.poll(&polls, 2, 100)
      grimEnded = polls[1].revents != 0
      if polls[0].revents != 0, hosted.host.dispatch().contains(.screenWanted) {
        asked += 1
        let shown = pixels.withUnsafeBytes { bytes in
          hosted.host.showScreen(HostedBuffer(pixels: bytes.baseAddress!, size: screen, stride: screen.width * 4))
        }
        #expect(shown)
      }
    }
    if !grimEnded { grim.send(SIGKILL) }
    let exit = try grim.wait()
    try #require(exit.status == 0, "grim ended with status \(exit.status)")
    #expect(asked >= 1)
    let image = try #require(PPM(contentsOf: copy))
    #expect(image.size == screen)
    let differing = zip(image.rgb, pixels).filter { $0 != $1 }.count
    #expect(image.rgb.count == pixels.count && differing == 0, "\(differing) of grim's pixels are not the screen's")
  }

  /// A window of several surfaces is read as one picture: weston's
  /// subsurfaces demo (a full-screen main surface, a shared-memory
  /// subsurface and a GL one over its right side) shows its subsurfaces
  /// over the main surface's colour, not the main surface alone.
  @Test func subsurfacesAreComposedIntoTheWindow() throws {
    let hosted = try Hosted(size: PixelSize(width: 320, height: 240), program: ["weston-subsurfaces"])
    var over = 0
    var shown: (size: PixelSize, rgb: [UInt32])?
    for _ in 0..<20 where over == 0 {
      guard let pixels = hosted.nextFrame() else { break }
      shown = pixels
      // The main surface's colour on the left; on the right, what covers it.
      let main = pixels.rgb[pixels.size.width / 8 + pixels.size.width * pixels.size.height / 2]
      let right = (0..<pixels.size.height).flatMap { y in
        (pixels.size.width * 3 / 4..<pixels.size.width).map { pixels.rgb[y * pixels.size.width + $0] }
      }
      over = right.filter { $0 != main }.count * 100 / right.count
    }
    #expect(shown?.size == PixelSize(width: 320, height: 240))
    #expect(over > 50, "only \(over)% of the window's right side is not the main surface's colour: \(hosted.lines)")
  }

  /// What is found outside a dispatch wakes the caller's poll: a program
  /// killed while it waits for its frame callback is found gone when they
  /// are flushed (frameDone), and the host's descriptor turns readable, so
  /// that the next dispatch says so. Before, nothing woke the caller, and a
  /// closed window stayed on the screen until another client spoke.
  @Test func whatIsFoundOutsideADispatchWakesThePoll() throws {
    let hosted = try Hosted(size: PixelSize(width: 160, height: 120), program: ["weston-simple-shm"])
    _ = try #require(hosted.nextFrame(), "no frame: \(hosted.lines)")
    hosted.child.send(SIGKILL)
    _ = try hosted.child.wait()
    // Its frame callback is written to the closed connection here.
    hosted.host.frameDone(at: hosted.clock.now(), refreshPeriod: 1.0 / 60)
    var poll = pollfd(fd: hosted.host.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(Glibc.poll(&poll, 1, 5000) == 1, "the host's descriptor did not turn readable")
    #expect(hosted.host.dispatch().contains(.clientGone))
  }

  /// A program that ends closes its connection: the host says so.
  @Test func aProgramThatEndsIsGone() throws {
    let hosted = try Hosted(
      size: PixelSize(width: 160, height: 120), program: ["foot", "--", "/bin/sh", "-c", "sleep 0.2"])
    #expect(hosted.wait(for: .clientGone))
  }

  /// Each connected client is named by its process: the program's own
  /// connection (made by splashd) by none, one through the display's socket
  /// by the process that connected, whose arrival and going are told.
  @Test func clientsAreToldByTheirProcesses() throws {
    let dir = try TemporaryDirectory()
    let hosted = try Hosted(size: PixelSize(width: 160, height: 120), program: ["sleep", "30"])
    #expect(hosted.host.clientProcesses == [nil])
    let socket = try WaylandDisplaySocket.claim(in: dir.path)
    defer { socket.remove() }
    try hosted.host.serve(socket.listener)
    // A client that says nothing: this process, connected through the socket.
    let client = try UnixSocket.connect(to: dir.path + "/" + socket.name)
    #expect(hosted.wait(for: .clientCame))
    #expect(hosted.host.clientProcesses.sorted { ($0 ?? 0) < ($1 ?? 0) } == [nil, getpid()])
    try client.close()
    #expect(hosted.wait(for: .clientGone))
    #expect(hosted.host.clientProcesses == [nil])
    // Its parent, as /proc says, for ProcessAncestry.
    #expect(Processes.parent(of: hosted.child.pid) == getpid())
    #expect(Processes.parent(of: getpid()) == getppid())
  }

  /// The machine's input devices: a layout that does not compile is an
  /// error naming it; xkbcommon's default compiles, and a machine with no
  /// device (this one: no /dev/input) is no failure.
  @Test func inputDevicesAreTakenWithACompilingLayout() throws {
    let host = try WaylandHost(size: PixelSize(width: 8, height: 8)) { _ in }
    #expect {
      try host.takeInputDevices(keyboardLayout: KeyboardLayout(layout: "no-such-layout"))
    } throws: { error in
      "\(error)".contains("layout no-such-layout") && "\(error)".contains("does not compile")
    }
    try host.takeInputDevices(keyboardLayout: KeyboardLayout())
  }

  /// A library that is not there is an error naming it, not a crash.
  @Test func aMissingLibraryIsAnError() {
    #expect(throws: SystemError.self) {
      _ = try WaylandHost(
        size: PixelSize(width: 8, height: 8), libraryPaths: { _ in ["/nonexistent/lib.so"] }, log: { _ in })
    }
  }

  /// A GPU that cannot be rendered with (no such node, or no EGL there)
  /// costs the program its GPU, never its compositor: the plain one is
  /// made, and the reason said.
  @Test func aRenderNodeThatCannotBeUsedLeavesThePlainCompositor() throws {
    var said: [String] = []
    let host = try WaylandHost(size: PixelSize(width: 8, height: 8), renderNode: "/nonexistent/renderD128") {
      said.append($0)
    }
    #expect(host.renderNode == nil)
    #expect(
      said.contains {
        $0.hasPrefix("host mode: the GPU's compositor cannot be had (")
          && $0.contains("/nonexistent/renderD128: No such file or directory")
      }, "\(said)")
    // Without the GPU variant installed: the same.
    said = []
    let plain = try WaylandHost(
      size: PixelSize(width: 8, height: 8), renderNode: "/dev/dri/renderD128",
      libraryPaths: { $0 == WaylandHost.gpuLibraryName ? ["/nonexistent/gpu.so"] : WaylandHost.libraryPaths(of: $0) },
      log: { said.append($0) })
    #expect(plain.renderNode == nil)
    #expect(said.contains { $0.hasPrefix("host mode: the GPU's compositor cannot be had (cannot load ") }, "\(said)")
  }
}

/// A binary PPM (P6, 8 bits a channel) as grim writes it.
struct PPM {
  let size: PixelSize
  /// Row by row as 0xRRGGBB.
  let rgb: [UInt32]

  init?(contentsOf path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let bytes = [UInt8](data)
    // Three header fields after the magic, each ended by one whitespace byte.
    var fields: [Int] = []
    var index = 2
    guard bytes.starts(with: Array("P6".utf8)) else { return nil }
    while fields.count < 3, index < bytes.count {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
      var value = 0
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
      }
      fields.append(value)
    }
    index += 1
    guard fields.count == 3, fields[2] == 255, bytes.count - index == fields[0] * fields[1] * 3 else { return nil }
    size = PixelSize(width: fields[0], height: fields[1])
    rgb = stride(from: index, to: bytes.count, by: 3).map {
      UInt32(bytes[$0]) << 16 | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2])
    }
  }
}
