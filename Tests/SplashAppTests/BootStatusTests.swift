// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

@testable import SplashApp

/// The status layers in a running splash: commands over the control
/// socket, redraws while it holds, the animation's pace, snapshots.
@Suite struct BootStatusTests {
  /// A held splash on the stand-in screen, 200x100, with a bar across the
  /// middle (200x10 at 0,45) and the control socket.
  func held(_ splash: Harness, _ extra: [String] = []) -> [String] {
    splash.screens.size = PixelSize(width: 200, height: 100)
    return [
      "--display", "screen", "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
      splash.controlPath, "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000",
      "--progress-track", "#0000FF",
    ] + extra
  }

  /// The PNG of a snapshot reply (`ok png LENGTH` and the bytes), decoded
  /// into 0xRRGGBB pixels.
  func snapshot(_ reply: [UInt8], in dir: TemporaryDirectory) throws -> (size: PixelSize, pixels: [UInt32]) {
    let newline = try #require(reply.firstIndex(of: UInt8(ascii: "\n")))
    let line = String(decoding: reply[..<newline], as: UTF8.self)
    let length = try #require(Int(line.split(separator: " ").last ?? ""))
    #expect(line == "ok png \(length)" && reply.count == newline + 1 + length, "\(line), \(reply.count) bytes")
    let path = dir.path + "/snapshot-\(UUID().uuidString).png"
    try Data(reply[(newline + 1)...]).write(to: URL(fileURLWithPath: path))
    var budget = PixelBudget(limit: 1_000_000)
    let image = try DecodedImage(path: path, what: "snapshot", budget: &budget)
    let surface = try #require(image.pixels?.surface.pointee)
    var pixels: [UInt32] = []
    for y in 0..<Int(surface.h) {
      let row = (surface.pixels! + y * Int(surface.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<Int(surface.w) { pixels.append(row[x] & 0xFF_FFFF) }
    }
    return (image.info.size, pixels)
  }

  /// How many pixels of the bar's row are the fill colour.
  func filledColumns(_ shot: (size: PixelSize, pixels: [UInt32])) -> Int {
    (0..<shot.size.width).filter { shot.pixels[50 * shot.size.width + $0] == 0xFF_0000 }.count
  }

  @Test func progressThenSnapshotShowsTheBarThere() throws {
    let splash = try Harness()
    var client: TestClient?
    var before: [UInt8] = []
    splash.clock.at(0.5) {
      client = TestClient(splash.controlPath)
      client?.send("snapshot\n")
    }
    splash.clock.at(1) {
      before = client?.bytes ?? []
      client = TestClient(splash.controlPath)
      client?.send("progress 70\nsnapshot\n")
    }
    var status: [String] = []
    splash.clock.at(1.2) {
      let asker = TestClient(splash.controlPath)
      asker.send("status\n")
      splash.clock.at(1.3) { status = asker.replies }
    }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    var after: [UInt8] = []
    splash.clock.at(1.5) { after = client?.bytes ?? [] }
    #expect(splash.run(held(splash)) == .exit(0))
    // No value yet: the bar is hidden (the picture shows through).
    let hidden = try snapshot(before, in: splash.dir)
    #expect(hidden.size == PixelSize(width: 200, height: 100) && filledColumns(hidden) == 0)
    #expect(!hidden.pixels.contains(0x00_00FF))
    // "ok" for the progress, then the snapshot with the bar at 70%.
    #expect(after.starts(with: Array("ok\n".utf8)))
    let shot = try snapshot(Array(after.dropFirst(3)), in: splash.dir)
    #expect(filledColumns(shot) == 140)
    #expect(status.first?.hasSuffix(" progress=70") == true, "\(status)")
    #expect(shot.pixels[50 * 200 + 140] == 0x00_00FF && shot.pixels[50 * 200 + 199] == 0x00_00FF)
  }

  @Test func statusChangesRedrawTheHeldSplashAndAnimationsStepAtTheirPace() throws {
    let splash = try Harness()
    let frames = try TemporaryDirectory()
    for n in 1...4 {
      try makePNG(width: 4, height: 4) { _, _ in (UInt8(n * 60), 0, 0) }.write(
        to: URL(fileURLWithPath: frames.path + "/\(n).png"))
    }
    var presentsAt: [Double: Int] = [:]
    for time in [0.5, 0.9, 1.0, 1.5, 2.0] {
      splash.clock.at(time) { presentsAt[time] = splash.screens.opened.first?.presents }
    }
    splash.clock.at(0.95) { TestClient(splash.controlPath).send("progress 20\n") }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash, ["--progress", "10"])) == .exit(0))
    // Without an animation, the held splash is drawn again only when told something new.
    #expect(presentsAt[0.5] == presentsAt[0.9] && presentsAt[1.0]! == presentsAt[0.9]! + 1, "\(presentsAt)")
    #expect(presentsAt[2.0] == presentsAt[1.0])

    let animated = try Harness()
    for time in [1.0, 2.0] { animated.clock.at(time) { presentsAt[time] = animated.screens.opened.first?.presents } }
    animated.clock.at(2) { TestClient(animated.controlPath).send("reveal\n") }
    #expect(animated.run(held(animated, ["--animation", frames.path, "--animation-fps", "20"])) == .exit(0))
    // 20 frames a second: 20 presents in the second between.
    let stepped = presentsAt[2.0]! - presentsAt[1.0]!
    #expect((19...21).contains(stepped), "\(stepped) presents in a second")
  }

  /// Changes that come together are drawn together: a client's hundred
  /// `progress` lines in one write cost one frame, not a hundred; each line
  /// still gets its `ok`, in order, once the frame showing it is on the
  /// screen, and a `status` behind them waits its turn.
  @Test func manyChangesInOneTurnAreDrawnOnceAndAnsweredInOrder() throws {
    let splash = try Harness()
    var client: TestClient?
    var presents: (before: Int, after: Int)?
    splash.clock.at(1) {
      presents = (splash.screens.opened[0].presents, 0)
      client = TestClient(splash.controlPath)
      client?.send((1...100).map { "progress \($0)\n" }.joined() + "status\n")
    }
    splash.clock.at(1.5) { presents?.after = splash.screens.opened[0].presents }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(presents.map { $0.after - $0.before } == 1, "\(String(describing: presents))")
    let replies = client?.replies ?? []
    #expect(replies.count == 101 && replies.prefix(100).allSatisfy { $0 == "ok" }, "\(replies.prefix(3))")
    #expect(replies.last?.hasSuffix(" progress=100") == true, "\(String(describing: replies.last))")
  }

  /// On a screen that keeps its frame, an animation step paints only its
  /// own rectangle: the still picture around it is not drawn again.
  @Test func anAnimationStepRepaintsOnlyItsRectangle() throws {
    let splash = try Harness()
    splash.screens.retainFrames = true
    let frames = try TemporaryDirectory()
    for n in 1...2 {
      try makePNG(width: 4, height: 4) { _, _ in (0, UInt8(n * 100), 0) }.write(
        to: URL(fileURLWithPath: frames.path + "/\(n).png"))
    }
    var marked: (outside: UInt32, inside: UInt32)?
    var read: (outside: UInt32, inside: UInt32)?
    // The animation plays in 0.5, 0.5, 0.1, 0.1 of 200x100: 10x10 at (100, 50).
    func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt32> {
      let surface = splash.screens.opened[0].canvas.surface.pointee
      return (surface.pixels! + y * Int(surface.pitch) + x * 4).assumingMemoryBound(to: UInt32.self)
    }
    splash.clock.at(1) {
      pixel(10, 10).pointee = 0x12_3456
      pixel(105, 55).pointee = 0x12_3456
      marked = (pixel(10, 10).pointee, pixel(105, 55).pointee)
    }
    splash.clock.at(1.5) { read = (pixel(10, 10).pointee & 0xFF_FFFF, pixel(105, 55).pointee & 0xFF_FFFF) }
    splash.clock.at(2) { TestClient(splash.controlPath).send("reveal\n") }
    let arguments = held(splash, ["--animation", frames.path, "--animation-rect", "0.5, 0.5, 0.1, 0.1"])
    #expect(splash.run(arguments) == .exit(0))
    #expect(marked?.outside == 0x12_3456)
    // Outside the animation the mark stays; inside, the animation's frame replaced it.
    #expect(read?.outside == 0x12_3456)
    #expect(read?.inside == 0x00_6400 || read?.inside == 0x00_C800, "\(String(describing: read))")
  }

  /// The text library is loaded for the first message, not at start; the
  /// message shows in its box, and clearing it restores the picture there.
  @Test func aClientsMessageShowsAndClears() throws {
    let splash = try Harness()
    var client: TestClient?
    var shown: [UInt8] = []
    splash.clock.at(0.5) {
      client = TestClient(splash.controlPath)
      client?.send("message Mounting /data\nsnapshot\n")
    }
    splash.clock.at(0.7) {
      shown = client?.bytes ?? []
      client = TestClient(splash.controlPath)
      client?.send("message\nsnapshot\n")
    }
    var cleared: [UInt8] = []
    splash.clock.at(0.9) { cleared = client?.bytes ?? [] }
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash, ["--message-center", "0.5, 0.2", "--message-size", "0.2"])) == .exit(0))
    #expect(shown.starts(with: Array("ok\n".utf8)) && cleared.starts(with: Array("ok\n".utf8)))
    let text = try snapshot(Array(shown.dropFirst(3)), in: splash.dir)
    let plain = try snapshot(Array(cleared.dropFirst(3)), in: splash.dir)
    var differ: [(Int, Int)] = []
    for y in 0..<100 {
      for x in 0..<200 where text.pixels[y * 200 + x] != plain.pixels[y * 200 + x] { differ.append((x, y)) }
    }
    // Lines 20 px high centred at (100, 20); the text drew there and only there.
    #expect(differ.count > 50, "\(differ.count) pixels")
    #expect(differ.allSatisfy { abs($0.1 - 20) <= 10 }, "\(differ.prefix(5))")
    #expect(text.pixels.contains(0xFF_FFFF))
  }

  @Test func aBadAnimationOrFontAtStartIsABadInputAndTheProgramStillRuns() throws {
    let splash = try Harness()
    let ending = splash.run([
      "--display", "screen", "--animation", splash.dir.path + "/missing.gif", "--", "/bin/true",
    ])
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(splash.lines.contains { $0.hasPrefix("splashd: --animation \(splash.dir.path)/missing.gif: ") })
    #expect(splash.screens.opened.first?.presents ?? 0 == 0)
    let font = try Harness()
    #expect(font.run(["--display", "screen", "--message", "Hi", "--message-font", "/nope.ttf"]) == .exit(2))
    #expect(font.lines.contains("splashd: --message-font /nope.ttf: no such file or directory"), "\(font.lines)")
  }

  /// An animation is budgeted as prepared, not as decoded: 600 tiny frames
  /// stretched over a 1080p screen (4.6 GiB) are refused before any is
  /// scaled, with one line; the program still runs.
  @Test func anAnimationStretchedOverTheScreenIsRefusedByWhatItWouldTake() throws {
    let splash = try Harness()
    let frames = splash.dir.path + "/frames"
    try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
    let tiny = makePNG(width: 16, height: 9) { _, _ in (10, 20, 30) }
    for n in 1...600 { writeFile(atPath: frames + "/\(n).png", contents: tiny) }
    splash.screens.size = PixelSize(width: 1920, height: 1080)
    let ending = splash.run([
      "--display", "screen", "--animation", frames, "--animation-rect", "0,0,1,1", "--", "/bin/true",
    ])
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(
      splash.lines.contains(
        "splashd: --animation \(frames): 600 frames shown at 1920x1080 take 4746.1 MiB prepared; at most 128 MiB are "
          + "accepted (a smaller animation-rect, or fewer frames)"), "\(splash.lines)")
  }

  /// `--check` judges the animation as the run does: one the run would
  /// refuse (by what it takes prepared for the canvas) is refused there
  /// too, exit status 2, with the run's line.
  @Test func checkRefusesTheAnimationTheRunWouldRefuse() throws {
    let splash = try Harness()
    let frames = splash.dir.path + "/frames"
    try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
    let tiny = makePNG(width: 16, height: 9) { _, _ in (10, 20, 30) }
    for n in 1...600 { writeFile(atPath: frames + "/\(n).png", contents: tiny) }
    let ending = splash.run([
      "--check", "--size", "1920x1080", "--animation", frames, "--animation-rect", "0,0,1,1", "--", "/bin/true",
    ])
    #expect(ending == .exit(2))
    #expect(
      splash.lines.contains(
        "splashd: --animation \(frames): 600 frames shown at 1920x1080 take 4746.1 MiB prepared; at most 128 MiB are "
          + "accepted (a smaller animation-rect, or fewer frames)"), "\(splash.lines)")
  }

  @Test func aRecordingShowsTheAnimationsFramesByItsClock() throws {
    let splash = try Harness()
    let frames = try TemporaryDirectory()
    let shades: [UInt8] = [40, 120, 200]
    for (n, shade) in shades.enumerated() {
      try makePNG(width: 4, height: 4) { _, _ in (shade, shade, shade) }.write(
        to: URL(fileURLWithPath: frames.path + "/frame-\(n + 1).png"))
    }
    let record = splash.dir.path + "/rec"
    #expect(
      splash.run([
        "--record", record, "--size", "100x100", "--fps", "10", "--hold", "0.45", "--duration", "0.1",
        "--animation", frames.path, "--animation-fps", "10", "--animation-rect", "0, 0, 0.5, 0.5",
      ]) == .exit(0))
    var seen: [UInt8] = []
    for index in 0..<5 {
      var budget = PixelBudget(limit: 1_000_000)
      let image = try DecodedImage(path: record + "/frame-0000\(index).png", what: "frame", budget: &budget)
      let surface = try #require(image.pixels?.surface.pointee)
      seen.append(UInt8(surface.pixels!.load(fromByteOffset: 20 * Int(surface.pitch) + 20 * 4, as: UInt32.self) & 0xFF))
    }
    // Frames at 0, 0.1, 0.2, 0.3, 0.4 s: the animation's 0, 1, 2, 0, 1.
    #expect(seen == [40, 120, 200, 40, 120])
  }

  /// `source = time`: the first boot assumes 20 s and records its own time
  /// at the reveal; the next boot's bar moves against that, 90% at the
  /// recorded time, and never fills before its reveal.
  @Test func theTimeSourceLearnsHowLongABootTakes() throws {
    let record = try TemporaryDirectory().path + "/state/boot-duration"
    func boot(revealAt reveal: Double, snapshotsAt times: [Double]) throws -> (Harness, [Int]) {
      let splash = try Harness()
      var shots: [Double: TestClient] = [:]
      for time in times {
        splash.clock.at(time) {
          shots[time] = TestClient(splash.controlPath)
          shots[time]?.send("snapshot\n")
        }
      }
      var replies: [Double: [UInt8]] = [:]
      splash.clock.at(reveal - 0.01) { for (time, client) in shots { replies[time] = client.bytes } }
      splash.clock.at(reveal) { TestClient(splash.controlPath).send("reveal\n") }
      #expect(
        splash.run(held(splash, ["--progress-source", "time", "--progress-duration-file", record])) == .exit(0))
      let filled = try times.map { try filledColumns(snapshot(replies[$0] ?? [], in: splash.dir)) }
      return (splash, filled)
    }
    // The first boot: nothing recorded; at 20 s the bar is at 90% (180 of 200 columns).
    let (first, firstFilled) = try boot(revealAt: 21, snapshotsAt: [0.5, 20])
    #expect(
      first.lines.contains { $0.hasPrefix("splashd: progress: no boot time recorded yet (--progress-duration-file ") })
    #expect(firstFilled[0] < 15 && (179...181).contains(firstFilled[1]), "\(firstFilled)")
    // It took 21 s, less the first frame's 1/60 s, from its first frame to its reveal.
    let appeared = try #require(first.time(of: "splashd: appeared")) - 100
    #expect(abs(appeared - 1.0 / 60) < 1e-6)
    let written = try String(contentsOfFile: record, encoding: .utf8)
    #expect(written == "20.983\n", "\(written)")
    // The next boot moves against that: more fill later, 90% at 21 s, never all of it.
    let (second, filled) = try boot(revealAt: 40, snapshotsAt: [2, 10, 21, 39])
    #expect(
      second.lines.contains(
        "splashd: progress: the last boot took 20.983 s from its first frame (--progress-duration-file \(record))"))
    #expect(filled[0] < filled[1] && filled[1] < filled[2] && filled[2] < filled[3], "\(filled)")
    #expect((179...181).contains(filled[2]) && filled[3] < 200, "\(filled)")
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "39.983\n")
  }

  @Test func aBootTimeThatCannotBeRecordedCostsALogLine() throws {
    let splash = try Harness()
    let blocker = splash.dir.path + "/not-a-directory"
    writeFile(atPath: blocker, contents: Data("x".utf8))
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    let arguments = held(splash, ["--progress-source", "time", "--progress-duration-file", blocker + "/boot-duration"])
    #expect(splash.run(arguments) == .exit(0))
    #expect(
      splash.lines.contains {
        $0.hasPrefix("splashd: progress: cannot record this boot's time in \(blocker)/boot-duration: ")
      }, "\(splash.lines)")
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
  }
}
