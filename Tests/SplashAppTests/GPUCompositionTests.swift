// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import Testing

@testable import SplashApp

/// Host mode's transition composed on the GPU, in process: on a card with
/// a render node, a GPU program's frames under the doors are drawn from
/// where they lie by the compositor (the stand-in composes in memory),
/// never read back, into buffers the card scans out; the frame is the one
/// the CPU would have drawn, on a turned screen too; the splash's pictures
/// go once the program is alone; and a frame that cannot be composed falls
/// to the CPU, said once.
extension ScanoutTests {
  /// The doors over 2 s from t = 1 (the program's first frame).
  func slowDoors(_ more: [String] = []) -> [String] {
    ["--host", "wayland", "--hold", "0", "--duration", "2", "--timeout", "10", "--background", "#102030"] + more
      + ["--", "sleep", "60"]
  }

  /// A harness whose card has a render node (the stand-in compositor then
  /// composes on its "GPU"), and whose program commits GPU buffers: its
  /// first (901) at t = 1, a red one (902) at 1.5; then `more`.
  func gpuHarness(then more: @escaping (FakeWaylandHost, Harness) -> Void = { _, _ in }) throws -> (
    Harness, FakeCard
  ) {
    let (splash, card) = try harness()
    card.renderNode = "/dev/dri/renderD128"
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commitDmabuf(color: Self.programColor, descriptor: 901) }
      splash.clock.at(1.5) { host.commitDmabuf(color: 0xFF_0000, descriptor: 902) }
      more(host, splash)
    }
    return (splash, card)
  }

  /// The stage's frame at this moment drawn by the CPU (a snapshot needs
  /// splashd's own), its pixels without alpha, row after row.
  func frameDrawnByTheCPU(_ splash: Harness) -> [UInt32]? {
    guard let stage = splash.session?.stage, case .success(let pixels) = stage.snapshot() else { return nil }
    let surface = pixels.surface.pointee
    return (0..<Int(surface.h)).flatMap { row in
      let line = (surface.pixels! + row * Int(surface.pitch)).assumingMemoryBound(to: UInt32.self)
      return UnsafeBufferPointer(start: line, count: Int(surface.w)).map { $0 & 0xFF_FFFF }
    }
  }

  /// The frame the stand-in composed that CRTC 31 shows, if it shows one.
  func composedFrame(_ card: FakeCard, _ host: FakeWaylandHost?) -> [UInt32]? {
    guard let descriptor = scannedOut(card) else { return nil }
    return host?.composed[descriptor]?.pixels
  }

  @Test func underTheDoorsAGPUProgramsFramesAreComposedOnTheGPUWithoutBeingReadBack() throws {
    let (splash, card) = try gpuHarness { host, splash in
      splash.clock.at(3.2) { host.commitDmabuf(color: 0x00_00FF, descriptor: 903) }
    }
    var readsAfterTheSecond: Int?
    var midway: (frame: [UInt32]?, status: String, reads: Int, composed: Int, pictures: Int)?
    var drawnByTheCPU: [UInt32]?
    var alone: (shown: Int32?, status: String, pictures: Int)?
    splash.clock.at(1.6) { readsAfterTheSecond = splash.waylandHost?.heldFrameReads }
    splash.clock.at(2) {
      guard let host = splash.waylandHost else { return }
      midway = (
        composedFrame(card, host), splash.session?.controller.statusLine() ?? "", host.heldFrameReads,
        host.framesComposed, host.pictures.count
      )
      // The same frame drawn by the CPU (a snapshot needs splashd's own).
      drawnByTheCPU = frameDrawnByTheCPU(splash)
    }
    splash.clock.at(3.5) {
      alone = (
        scannedOut(card), splash.session?.controller.statusLine() ?? "", splash.waylandHost?.pictures.count ?? -1
      )
    }
    splash.clock.at(4) { splash.killProgram() }
    #expect(splash.run(slowDoors()) == .exit(128 + SIGKILL))
    let frame = try #require(midway?.frame, "\(String(describing: midway)) \(splash.lines)")
    // The doors over the program's second frame, composed on the GPU: the
    // gap between the leaves shows it, and status says the path.
    #expect(frame[24 * 64 + 32] == 0xFF_0000, "\(String(format: "%06x", frame[24 * 64 + 32]))")
    #expect(midway?.status.contains("scanout=composed") == true, "\(String(describing: midway?.status))")
    #expect(splash.lines.contains("splashd: host mode: the splash's frames are composed on the GPU over the program's"))
    // Several frames composed, the program's buffer not read once for them,
    // and the splash's pictures uploaded.
    #expect((midway?.composed ?? 0) > 3 && midway?.reads == readsAfterTheSecond, "\(String(describing: midway))")
    #expect((midway?.pictures ?? 0) > 0)
    // The frame the CPU draws at the same moment is the same picture.
    let cpu = try #require(drawnByTheCPU)
    let differing = zip(frame, cpu).filter { $0 != $1 }.count
    #expect(cpu.count == frame.count && differing == 0, "\(differing) of \(frame.count) pixels differ")
    // Alone, the program's buffer is scanned out, and the splash's pictures are gone from the GPU.
    #expect(alone?.shown == 903 && alone?.status.contains("scanout=direct") == true, "\(String(describing: alone))")
    #expect(alone?.pictures == 0, "\(String(describing: alone))")
  }

  @Test func aFrameThatCannotBeComposedOnTheGPUIsDrawnByTheCPUFromThenOn() throws {
    let (splash, card) = try gpuHarness { host, _ in host.composes = false }
    var midway: (centre: UInt32?, status: String, composed: Int)?
    splash.clock.at(2) {
      midway = (centre(card), splash.session?.controller.statusLine() ?? "", splash.waylandHost?.framesComposed ?? -1)
    }
    splash.clock.at(2.5) { splash.killProgram() }
    #expect(splash.run(slowDoors()) == .exit(128 + SIGKILL))
    // The CPU drew the program's second frame between the leaves.
    #expect(midway?.centre == 0xFF_0000 && midway?.composed == 0, "\(String(describing: midway))")
    #expect(midway?.status.contains("scanout=software") == true, "\(String(describing: midway?.status))")
    let said = splash.lines.filter { $0.contains("cannot be composed on the GPU") }
    #expect(said.count == 1, "\(splash.lines)")
  }

  /// A turned screen: the program's frame (upright, the turned canvas's
  /// size, a pattern that shows a turn) is turned on the GPU with the
  /// splash's pictures: the composed frame is the one the CPU draws.
  @Test(arguments: [90, 180, 270]) func aTurnedScreenIsComposedOnTheGPUAsTheCPUDrawsIt(degrees: Int) throws {
    let (splash, card) = try harness()
    card.renderNode = "/dev/dri/renderD128"
    splash.onWaylandHost = { host in
      splash.clock.at(1) { host.commitDmabuf(color: Self.programColor, descriptor: 901) }
      splash.clock.at(1.5) { host.commitDmabuf(color: 0x40, descriptor: 902, patterned: true) }
    }
    var midway: (frame: [UInt32]?, status: String)?
    var drawnByTheCPU: [UInt32]?
    splash.clock.at(2) {
      midway = (composedFrame(card, splash.waylandHost), splash.session?.controller.statusLine() ?? "")
      drawnByTheCPU = frameDrawnByTheCPU(splash)
    }
    splash.clock.at(2.5) { splash.killProgram() }
    #expect(splash.run(slowDoors(["--rotate", String(degrees)])) == .exit(128 + SIGKILL))
    let frame = try #require(midway?.frame, "\(String(describing: midway?.status)) \(splash.lines)")
    #expect(midway?.status.contains("scanout=composed") == true, "\(String(describing: midway?.status))")
    // The pattern shows between the leaves, turned as the CPU turns it.
    #expect(Set(frame.filter { $0 & 0xFF == 0x40 }).count > 50, "the program's pattern does not show")
    let cpu = try #require(drawnByTheCPU)
    let differing = zip(frame, cpu).filter { $0 != $1 }.count
    #expect(cpu.count == frame.count && differing == 0, "\(differing) of \(frame.count) pixels differ")
  }

  @Test func aComposedFrameTheScreenDoesNotTakeIsDrawnByTheCPUThatOnce() throws {
    let (splash, card) = try gpuHarness { host, splash in
      splash.clock.at(2) { host.commitDmabuf(color: 0x00_00FF, descriptor: 903) }
    }
    // The card takes no buffer for a while (as a screen not lit would not).
    splash.clock.at(1.6) { card.importsDmabufs = false }
    splash.clock.at(1.8) { card.importsDmabufs = true }
    var refused: (centre: UInt32?, status: String)?
    var again: (frame: [UInt32]?, status: String)?
    splash.clock.at(1.75) { refused = (centre(card), splash.session?.controller.statusLine() ?? "") }
    splash.clock.at(2.3) {
      again = (composedFrame(card, splash.waylandHost), splash.session?.controller.statusLine() ?? "")
    }
    splash.clock.at(2.5) { splash.killProgram() }
    #expect(splash.run(slowDoors()) == .exit(128 + SIGKILL))
    // Meanwhile the CPU drew the program's frame between the leaves.
    #expect(
      refused?.centre == 0xFF_0000 && refused?.status.contains("scanout=software") == true,
      "\(String(describing: refused))")
    // Then the next frame was composed on the GPU again.
    #expect(again?.frame?[24 * 64 + 32] == 0x00_00FF, "\(String(describing: again?.status)) \(splash.lines)")
    #expect(again?.status.contains("scanout=composed") == true, "\(String(describing: again?.status))")
    let said = splash.lines.filter { $0.contains("a frame composed on the GPU is not shown") }
    #expect(said.count == 1, "\(splash.lines)")
    #expect(!splash.lines.contains { $0.contains("cannot be composed on the GPU") }, "\(splash.lines)")
  }

  @Test func aProgramGoneInTheMiddleOfTheDoorsLeavesComposingOnForItsNextFrames() throws {
    let (splash, card) = try gpuHarness { host, splash in
      // Its connection closes (its last frame kept as pixels); then it is back.
      splash.clock.at(1.7) { host.disconnectAll() }
      splash.clock.at(2.1) {
        host.connect(nil)
        host.commitDmabuf(color: 0x00_00FF, descriptor: 903)
      }
      splash.clock.at(2.3) { host.commitDmabuf(color: 0x00_FF00, descriptor: 904) }
    }
    var gone: (centre: UInt32?, status: String)?
    var back: (frame: [UInt32]?, status: String)?
    splash.clock.at(1.9) { gone = (centre(card), splash.session?.controller.statusLine() ?? "") }
    splash.clock.at(2.6) {
      back = (composedFrame(card, splash.waylandHost), splash.session?.controller.statusLine() ?? "")
    }
    splash.clock.at(2.8) { splash.killProgram() }
    #expect(splash.run(slowDoors()) == .exit(128 + SIGKILL))
    // Its kept frame drawn by the CPU between the leaves meanwhile.
    #expect(
      gone?.centre == 0xFF_0000 && gone?.status.contains("scanout=software") == true, "\(String(describing: gone))")
    // Its next GPU frames composed on the GPU again: composing was not turned off.
    #expect(back?.frame?[24 * 64 + 32] == 0x00_FF00, "\(String(describing: back?.status)) \(splash.lines)")
    #expect(back?.status.contains("scanout=composed") == true, "\(String(describing: back?.status))")
    #expect(!splash.lines.contains { $0.contains("cannot be composed on the GPU") }, "\(splash.lines)")
  }
}
