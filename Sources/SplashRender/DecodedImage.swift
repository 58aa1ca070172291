import CSDL2
import CSDL2Image
import SplashCore
import SplashSystem

/// A picture that cannot be used; `message` names the file and the reason.
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A decoded picture in 32-bit ARGB, owned until `release()`.
public final class DecodedImage {
  /// The file it came from.
  public let path: String
  /// The pixels, SDL_PIXELFORMAT_ARGB8888.
  public private(set) var surface: UnsafeMutablePointer<SDL_Surface>?
  public let info: ImageInfo

  /// How many bytes of the header are read to learn the declared size.
  static let headerBytes = 512 * 1024

  /// Decodes the picture at `path` (`what` names it in messages, such as
  /// "--image"). Refuses, before decoding, files that are missing, not
  /// regular, empty, or that declare more than `Settings.maxSide` pixels on
  /// a side.
  public init(path: String, what: String) throws(ImageError) {
    self.path = path
    func fail(_ reason: String) -> ImageError { ImageError("\(what) \(path): \(reason)") }
    let header: [UInt8]
    do {
      switch try Files.kind(of: path) {
      case .directory: throw fail("is a directory, expected a picture file")
      case .other: throw fail("is not a regular file, expected a picture file")
      case .regular(let size) where size == 0: throw fail("is empty (0 bytes), expected a picture file")
      case .regular: break
      }
      header = try Files.readPrefix(of: path, count: Self.headerBytes)
    } catch let error as SystemError {
      throw fail(error.reason.lowercasedFirst)
    } catch let error as ImageError {
      throw error
    } catch {
      throw fail("\(error)")
    }
    if let (w, h) = declaredImageSize(header) {
      try Self.checkSide(w, h, fail)
    }
    guard let loaded = withStandardErrorSilenced({ IMG_Load(path) }) else {
      throw fail("not a picture splashd can decode (\(String(cString: SDL_GetError())))")
    }
    defer { SDL_FreeSurface(loaded) }
    try Self.checkSide(Int(loaded.pointee.w), Int(loaded.pointee.h), fail)
    let format = loaded.pointee.format.pointee
    var colorKey: UInt32 = 0
    let hasAlpha = format.Amask != 0 || SDL_GetColorKey(loaded, &colorKey) == 0 || format.palette != nil
    guard let converted = SDL_ConvertSurfaceFormat(loaded, alphaFormat, 0) else {
      throw fail("cannot convert its pixels (\(String(cString: SDL_GetError())))")
    }
    surface = converted
    let size = PixelSize(width: Int(converted.pointee.w), height: Int(converted.pointee.h))
    info = ImageInfo(size: size, opaque: !hasAlpha || Self.allOpaque(converted))
  }

  private static func checkSide(_ w: Int, _ h: Int, _ fail: (String) -> ImageError) throws(ImageError) {
    if w > Settings.maxSide || h > Settings.maxSide {
      throw fail("picture is \(w)x\(h) pixels; at most \(Settings.maxSide) on a side are accepted")
    }
    if w <= 0 || h <= 0 { throw fail("picture declares an empty size \(w)x\(h)") }
  }

  private static func allOpaque(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Bool {
    let s = surface.pointee
    for y in 0..<Int(s.h) {
      let row = (s.pixels! + y * Int(s.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<Int(s.w) where row[x] >> 24 != 0xFF { return false }
    }
    return true
  }

  /// Frees the pixels; the image is unusable afterwards.
  public func release() {
    if let surface { SDL_FreeSurface(surface) }
    surface = nil
  }

  deinit { release() }
}

extension String {
  /// The string with its first letter in lower case ("No such file" → "no such file").
  var lowercasedFirst: String {
    guard let first = first else { return self }
    return first.lowercased() + dropFirst()
  }
}
