import CPNG
import CSDL2
import CSDL2Image
import SplashCore
import SplashSystem

/// A decoded picture, owned until it is released or taken.
public final class DecodedImage {
  /// The pixels: 32-bit XRGB (SDL_PIXELFORMAT_RGB888) or ARGB
  /// (SDL_PIXELFORMAT_ARGB8888) for PNG files and for pictures with
  /// transparency; other opaque pictures as decoded (often 24-bit RGB).
  public private(set) var pixels: Pixels?
  public let info: ImageInfo

  /// How many bytes of the file are read to learn the declared size (JPEG
  /// puts its frame header after any EXIF data).
  static let headerBytes = 256 * 1024

  /// Decodes the picture at `path` (`what` names it in messages, such as
  /// "--image"). Refuses, before decoding, files that are missing, not
  /// regular, empty, or that declare more than `Settings.maxSide` pixels on
  /// a side. PNG files are decoded by libpng straight into 32-bit pixels;
  /// other formats by SDL_image.
  public init(path: String, what: String) throws(RenderError) {
    func fail(_ reason: String) -> RenderError { RenderError(call: "\(what) \(printable(path))", reason: reason) }
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
      throw fail(error.phrase)
    } catch let error as RenderError {
      throw error
    } catch {
      throw fail("\(error)")
    }
    if let (w, h) = declaredImageSize(header) {
      try Self.checkSide(w, h, fail)
    }
    let decoded = isPNG(header) ? try Self.decodePNG(path, fail) : try Self.decodeWithSDLImage(path, fail)
    pixels = decoded.pixels
    info = ImageInfo(
      size: PixelSize(width: decoded.pixels.width, height: decoded.pixels.height),
      opaque: !decoded.mayBeTransparent || Self.allOpaque(decoded.pixels.surface))
  }

  private static func decodePNG(_ path: String, _ fail: (String) -> RenderError) throws(RenderError)
    -> (pixels: Pixels, mayBeTransparent: Bool)
  {
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    func libpngMessage() -> String {
      withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    guard png_image_begin_read_from_file(&image, path) != 0 else {
      throw fail("not a picture splashd can decode (libpng: \(libpngMessage()))")
    }
    try checkSide(Int(image.width), Int(image.height), fail)
    let hasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
    // BGRA bytes are a little-endian ARGB word; opaque pictures get XRGB.
    image.format = png_uint_32(PNG_FORMAT_BGRA)
    let pixels: Pixels
    do {
      pixels = try Pixels(
        width: Int(image.width), height: Int(image.height), format: hasAlpha ? alphaFormat : opaqueFormat)
    } catch {
      throw fail("cannot allocate its pixels (\(error))")
    }
    let surface = pixels.surface.pointee
    guard png_image_finish_read(&image, nil, surface.pixels, surface.pitch, nil) != 0 else {
      let message = libpngMessage()
      // libpng says "Read Error" when the data ends before the picture does.
      let reason = message == "Read Error" ? "the file is cut short or unreadable" : "not a picture splashd can decode"
      throw fail("\(reason) (libpng: \(message))")
    }
    return (pixels, hasAlpha)
  }

  private static func decodeWithSDLImage(_ path: String, _ fail: (String) -> RenderError) throws(RenderError)
    -> (pixels: Pixels, mayBeTransparent: Bool)
  {
    guard let loaded = withStandardErrorSilenced({ IMG_Load(path) }) else {
      throw fail("not a picture splashd can decode (\(String(cString: SDL_GetError())))")
    }
    do {
      try checkSide(Int(loaded.pointee.w), Int(loaded.pointee.h), fail)
    } catch {
      SDL_FreeSurface(loaded)
      throw error
    }
    let format = loaded.pointee.format.pointee
    var colorKey: UInt32 = 0
    let mayBeTransparent = format.Amask != 0 || SDL_GetColorKey(loaded, &colorKey) == 0 || format.palette != nil
    // Kept as decoded: preparing converts it once, straight into the display's format.
    guard mayBeTransparent else { return (Pixels(adopting: loaded), false) }
    defer { SDL_FreeSurface(loaded) }
    guard let converted = SDL_ConvertSurfaceFormat(loaded, alphaFormat, 0) else {
      throw fail("cannot convert its pixels (\(String(cString: SDL_GetError())))")
    }
    return (Pixels(adopting: converted), true)
  }

  private static func checkSide(_ w: Int, _ h: Int, _ fail: (String) -> RenderError) throws(RenderError) {
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

  /// Lets go of the pixels; the image is unusable afterwards.
  public func release() { pixels = nil }
}
