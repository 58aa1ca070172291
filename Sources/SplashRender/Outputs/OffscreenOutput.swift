// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashCore
import SplashSystem

/// A display in memory: an XRGB surface painted directly. Needs no video
/// driver, so it works on any machine; frames are paced by the clock at
/// `fps`. Its memory is faulted in by a helper thread, so making it before
/// the pictures are decoded costs nothing.
public final class OffscreenOutput: Output, AdoptableOutput {
  public let size: PixelSize
  public let frame: Pixels
  public let surfacePainter: SurfacePainter
  public let refreshPeriod: Double

  public init(size: PixelSize, fps: Double = 60) throws(RenderError) {
    self.size = size
    refreshPeriod = 1 / fps
    frame = try Pixels(width: size.width, height: size.height, format: opaqueFormat)
    surfacePainter = SurfacePainter(target: frame.surface)
  }

  /// The registry's entry: always there, always opens.
  public static let backEnd = BackEnd(
    name: "offscreen", traits: .memory,
    help: "Renders into memory, paced by --fps (for tests, recording and machines without a screen).",
    probe: { _ in .tried("renders in memory") },
    open: { request throws(RenderError) in try OffscreenOutput(size: request.size, fps: request.fps) })

  public var name: String { "offscreen" }
  public var traits: OutputTraits { .memory }
  public var description: String { "\(size.description) in memory" }
  public var painter: LayerPainter { surfacePainter }
  public var screens: [OutputScreen] {
    [OutputScreen(name: name, size: size, painter: surfacePainter, mode: size.description, frameAge: 1)]
  }
  public var eventDescriptors: [FileDescriptor] { [] }
  public func handleEvents() -> OutputEvents { [] }

  public func present(_ draw: (Int) -> Void) throws(RenderError) -> Double? {
    draw(0)
    return nil
  }

  /// Handed over as it is: the adopter opens it again.
  public var handover: OutputHandover { OutputHandover() }
  public func handedOver() {}

  public func release(keepingLastFrame: Bool, repaintLast: () -> Void) {}

  public var surface: UnsafeMutablePointer<SDL_Surface> { frame.surface }

  public func readBack(repaintLast: () -> Void) throws(RenderError) -> Pixels { try .copy(of: surface) }

  /// Every pixel as 0xRRGGBB, row by row.
  public func pixels() -> [UInt32] {
    let s = surface.pointee
    var result: [UInt32] = []
    result.reserveCapacity(size.width * size.height)
    for y in 0..<size.height {
      let row = (s.pixels! + y * Int(s.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<size.width { result.append(row[x] & 0xFF_FFFF) }
    }
    return result
  }
}
