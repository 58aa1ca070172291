import CSDL2
import CSDL2Image
import SplashCore

/// A display in memory: an XRGB surface painted directly. Needs no video
/// driver, so it works on any machine. Its memory is faulted in by a helper
/// thread, so making it before the pictures are decoded costs nothing.
public final class OffscreenDisplay {
  public let size: PixelSize
  public let frame: Pixels
  public let painter: SurfacePainter

  public init(size: PixelSize) throws(SDLError) {
    self.size = size
    frame = try Pixels(width: size.width, height: size.height, format: opaqueFormat)
    painter = SurfacePainter(target: frame.surface)
  }

  public var surface: UnsafeMutablePointer<SDL_Surface> { frame.surface }

  /// Writes the surface as a PNG file; the same pixels always give the same bytes.
  public func savePNG(to path: String) throws(SDLError) {
    try check("IMG_SavePNG \(path)", IMG_SavePNG(surface, path))
  }

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

/// Plays into an offscreen display; the player paces it by the clock at `fps`.
public final class OffscreenSink: SceneSink {
  /// What is drawn; replaced when the splash turns while it holds.
  public var scene: SceneRenderer
  public let refreshPeriod: Double
  private var lastProgress = 0.0

  public init(scene: SceneRenderer, fps: Double) {
    self.scene = scene
    refreshPeriod = 1 / fps
  }

  public func present(_ frame: FrameRequest) throws -> Double? {
    lastProgress = frame.progress
    scene.draw(progress: frame.progress)
    return nil
  }

  public func redraw() { scene.draw(progress: lastProgress) }
}
