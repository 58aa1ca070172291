// SPDX-License-Identifier: Apache-2.0
import CSDL2
import CSDL2Image
import Glibc
import SplashCore
import SplashSettings
import SplashSystem

/// The frames of an animation, decoded: an animated GIF (SDL_image's
/// IMG_LoadAnimation) or a folder of numbered PNGs. Its size is known, and
/// refused when too large, before any frame is decoded.
public final class DecodedAnimation {
  /// Every frame, in order, all of `size`, in 32-bit pixels.
  public let frames: [Pixels]
  public let size: PixelSize
  /// When each frame shows.
  public let timeline: AnimationTimeline

  /// The biggest GIF file read.
  static let maxFileBytes = 64 << 20

  /// Decodes the animation at `path` (`what` names it in errors); `fps`
  /// replaces the delays stored in the file (a folder's default is 30).
  public init(path: String, what: String, fps: Double?) throws(RenderError) {
    func fail(_ reason: String) -> RenderError { RenderError(call: "\(what) \(printable(path))", reason: reason) }
    let kind: FileKind
    do { kind = try Files.kind(of: path) } catch { throw fail(error.phrase) }
    var delays: [Double]
    switch kind {
    case .directory:
      (frames, size) = try Self.decodeFolder(path, fail)
      delays = Array(repeating: 1 / 30, count: frames.count)
    case .regular:
      (frames, size, delays) = try Self.decodeGIF(path, fail)
    case .other:
      throw fail("is not a regular file or a folder, expected an animated GIF or a folder of numbered PNGs")
    }
    if let fps { delays = Array(repeating: 1 / fps, count: frames.count) }
    timeline = AnimationTimeline(delays: delays)
  }

  /// Why the frames, shown at `size` (prepared: scaled to its rectangle,
  /// as they are kept while the splash holds), would take more memory than
  /// may be taken; nil when they fit. The run refuses such an animation, and
  /// `--check` as the run would.
  public func preparedSizeProblem(shownAt size: PixelSize) -> String? {
    let prepared = frames.count * size.width * size.height * 4
    guard prepared > AnimationSettings.maxPreparedBytes else { return nil }
    return "\(frames.count) frames shown at \(size.width)x\(size.height) take \(mebibytes(prepared)) prepared; at most "
      + "\(mebibytes(AnimationSettings.maxPreparedBytes)) are accepted (a smaller animation-rect, or fewer frames)"
  }

  /// Checks `count` frames of `width`×`height` against the limits.
  private static func checkSize(_ count: Int, _ width: Int, _ height: Int, _ fail: (String) -> RenderError)
    throws(RenderError)
  {
    guard count > 0 else { throw fail("has no frames") }
    guard count <= AnimationSettings.maxFrames else {
      throw fail("has \(count) frames; at most \(AnimationSettings.maxFrames) are accepted")
    }
    let bytes = count * width * height * 4
    guard width <= PixelSize.maxSide, height <= PixelSize.maxSide, bytes <= AnimationSettings.maxDecodedBytes else {
      throw fail(
        "\(count) frames of \(width)x\(height) take \(mebibytes(bytes)) decoded; at most "
          + "\(mebibytes(AnimationSettings.maxDecodedBytes)) are accepted")
    }
  }

  private static func decodeGIF(_ path: String, _ fail: (String) -> RenderError) throws(RenderError)
    -> ([Pixels], PixelSize, [Double])
  {
    let bytes: [UInt8]
    do { bytes = try Files.readRegularFile(path, limit: maxFileBytes) } catch { throw fail(error.phrase) }
    guard let header = GIFStructure(bytes) else {
      throw fail("is not an animated GIF or a folder of numbered PNGs (a GIF's blocks could not be read)")
    }
    try checkSize(header.frameCount, header.width, header.height, fail)
    let animation = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<IMG_Animation>? in
      guard let stream = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
      return withStandardErrorSilenced { IMG_LoadAnimationTyped_RW(stream, 1, "GIF") }
    }
    guard let animation else {
      throw fail("not an animation SDL_image can decode (\(String(cString: SDL_GetError())))")
    }
    defer { IMG_FreeAnimation(animation) }
    let a = animation.pointee
    let count = Int(a.count)
    try checkSize(count, Int(a.w), Int(a.h), fail)
    var frames: [Pixels] = []
    var delays: [Double] = []
    for index in 0..<count {
      guard let converted = SDL_ConvertSurfaceFormat(a.frames[index], alphaFormat, 0) else {
        throw fail("cannot convert frame \(index + 1) (\(String(cString: SDL_GetError())))")
      }
      frames.append(Pixels(adopting: converted))
      delays.append(Double(a.delays[index]) / 1000)
    }
    return (frames, PixelSize(width: Int(a.w), height: Int(a.h)), delays)
  }

  private static func decodeFolder(_ path: String, _ fail: (String) -> RenderError) throws(RenderError)
    -> ([Pixels], PixelSize)
  {
    let names: [String]
    do { names = try Files.entries(of: path) } catch { throw fail(error.phrase) }
    let numbered = names.compactMap { name -> (Int, String)? in
      guard name.hasSuffix(".png") else { return nil }
      let digits = name.dropLast(4).reversed().prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let number = Int(String(digits.reversed())) else { return nil }
      return (number, name)
    }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    guard let first = numbered.first else { throw fail("holds no numbered PNG files (1.png, 2.png, ...)") }
    guard numbered.count <= AnimationSettings.maxFrames else {
      throw fail("has \(numbered.count) frames; at most \(AnimationSettings.maxFrames) are accepted")
    }
    // Every frame's size from its header first: one size for all, and all
    // together within the limit, before any is decoded.
    var size: PixelSize?
    for (_, name) in numbered {
      let file = path + "/" + name
      let header: PictureHeader
      do {
        let descriptor = try FileDescriptor.open(file, O_RDONLY | O_NONBLOCK)
        defer { try? descriptor.close() }
        switch readPictureHeader(name: file, read: { (try? descriptor.read(at: $0, count: $1)) ?? [] }) {
        case .success(let read): header = read
        case .failure(let problem): throw fail("\(printable(name)): \(problem.description)")
        }
      } catch let error as SystemError {
        throw fail("\(printable(name)): \(error.phrase)")
      } catch let error as RenderError {
        throw error
      } catch {
        throw fail("\(printable(name)): \(error)")
      }
      let frameSize = PixelSize(width: header.width, height: header.height)
      guard header.format == .png else { throw fail("\(printable(name)) is \(header.format.rawValue), not PNG") }
      if let size, size != frameSize {
        throw fail("\(printable(name)) is \(frameSize.description), the first frame \(first.1) \(size.description)")
      }
      size = frameSize
    }
    try checkSize(numbered.count, size!.width, size!.height, fail)
    var budget = PixelBudget(limit: numbered.count * size!.width * size!.height)
    var frames: [Pixels] = []
    for (_, name) in numbered {
      do {
        let image = try DecodedImage(path: path + "/" + name, what: "frame", budget: &budget)
        frames.append(image.pixels!)
      } catch {
        throw fail("\(printable(name)): \(error.reason)")
      }
    }
    return (frames, size!)
  }
}

/// What a GIF's blocks say, read without decoding: the size of its canvas
/// (or of its largest frame, if larger) and how many frames (image
/// descriptors) it holds.
public struct GIFStructure: Equatable, Sendable {
  public private(set) var width: Int
  public private(set) var height: Int
  public let frameCount: Int

  /// Walks the blocks of `bytes`; nil when they are not a well-formed GIF.
  public init?(_ bytes: [UInt8]) {
    guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return nil }
    /// The little-endian 16-bit number at `at`.
    func word(at index: Int) -> Int { Int(bytes[index]) | (Int(bytes[index + 1]) << 8) }
    width = word(at: 6)
    height = word(at: 8)
    var offset = 13
    if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
    /// Skips data sub-blocks (a size byte, then that many bytes) up to the empty one.
    func skipSubBlocks() -> Bool {
      while offset < bytes.count {
        let size = Int(bytes[offset])
        offset += 1 + size
        if size == 0 { return true }
      }
      return false
    }
    var frames = 0
    while offset < bytes.count {
      let introducer = bytes[offset]
      offset += 1
      switch introducer {
      case 0x3B:
        frameCount = frames
        return
      case 0x21:
        offset += 1
        guard skipSubBlocks() else { return nil }
      case 0x2C:
        guard offset + 9 < bytes.count else { return nil }
        let flags = bytes[offset + 8]
        // A frame may claim to be larger than the canvas; decoders allocate what it claims.
        let (left, top) = (word(at: offset), word(at: offset + 2))
        width = max(width, left + word(at: offset + 4))
        height = max(height, top + word(at: offset + 6))
        offset += 9
        if flags & 0x80 != 0 { offset += 3 << (Int(flags & 7) + 1) }
        offset += 1
        frames += 1
        guard skipSubBlocks() else { return nil }
      default:
        return nil
      }
    }
    // A GIF without its trailer: the frames read so far are what decoders show.
    frameCount = frames
  }
}
