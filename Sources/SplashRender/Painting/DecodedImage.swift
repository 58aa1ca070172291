// SPDX-License-Identifier: Apache-2.0
import CPNG
import CSDL2
import CSDL2Image
import Glibc
import SplashCore
import SplashSystem

/// How much memory the pictures of a splash may take while decoded, all
/// together, counted in 4-byte pixels, and how much they take already.
public struct PixelBudget: Equatable, Sendable {
  public let limit: Int
  public private(set) var used = 0

  public init(limit: Int) { self.limit = limit }

  /// Counts `pixels` 4-byte pixels against the budget; false when they do not fit.
  public mutating func take(_ pixels: Int) -> Bool {
    guard pixels <= limit - used else { return false }
    used += pixels
    return true
  }
}

/// A picture file that passed every check made before decoding: it is a
/// regular, non-empty file whose header tells its format and a size of at
/// most `PixelSize.maxSide` a side, and decoding it fits in what was left of
/// the budget (which it is counted against).
public struct PictureFile: Sendable {
  public let path: String
  /// How messages name it ("--image").
  public let what: String
  public let header: PictureHeader

  /// Checks the picture at `path` (`what` names it in messages, such as
  /// "--image"). Refuses files that are missing, not regular or empty,
  /// whose header tells no size, that declare more than `PixelSize.maxSide`
  /// pixels on a side, or more pixels than are left in `budget`.
  public init(path: String, what: String, budget: inout PixelBudget) throws(RenderError) {
    self.path = path
    self.what = what
    let fail = Self.failure(path, what)
    let header: PictureHeader
    do {
      switch try Files.kind(of: path) {
      case .directory: throw fail("is a directory, expected a picture file")
      case .other: throw fail("is not a regular file, expected a picture file")
      case .regular(let size) where size == 0: throw fail("is empty (0 bytes), expected a picture file")
      case .regular: break
      }
      let file = try FileDescriptor.open(path, O_RDONLY)
      defer { try? file.close() }
      switch readPictureHeader(name: path, read: { (try? file.read(at: $0, count: $1)) ?? [] }) {
      case .success(let read): header = read
      case .failure(let problem): throw fail(problem.description)
      }
    } catch let error as SystemError {
      throw fail(error.phrase)
    } catch let error as RenderError {
      throw error
    } catch {
      throw fail("\(error)")
    }
    self.header = header
    let (w, h) = (header.width, header.height)
    if w > PixelSize.maxSide || h > PixelSize.maxSide {
      throw fail("picture is \(w)x\(h) pixels; at most \(PixelSize.maxSide) on a side are accepted")
    }
    let before = budget
    let cost = DecodedImage.decodingCost(w, h, header.format)
    guard budget.take(cost) else {
      let left = before.used > 0 ? "; \(megapixels(before.limit - before.used)) of them are left" : ""
      throw fail(
        "picture is \(w)x\(h) \(header.format.rawValue) (\(megapixels(w * h)), \(mebibytes(cost * 4)) to decode); "
          + "the pictures may take \(megapixels(before.limit)) (\(mebibytes(before.limit * 4))) in all "
          + "(--max-megapixels)\(left)")
    }
  }

  fileprivate static func failure(_ path: String, _ what: String) -> (String) -> RenderError {
    { reason in RenderError(call: "\(what) \(printable(path))", reason: reason) }
  }

  /// Decodes it, each format by its own decoder: PNG by libpng straight
  /// into 32-bit pixels, the others by SDL_image's.
  public func decode() throws(RenderError) -> DecodedImage { try DecodedImage(self) }
}

/// A decoded picture, owned until it is released or taken.
public final class DecodedImage {
  /// The pixels: 32-bit XRGB (SDL_PIXELFORMAT_RGB888) or ARGB
  /// (SDL_PIXELFORMAT_ARGB8888) for PNG files and for pictures with
  /// transparency; other opaque pictures as decoded (often 24-bit RGB).
  public private(set) var pixels: Pixels?
  public let info: ImageInfo
  /// The file's format.
  public let format: PictureFormat

  /// Checks and decodes the picture at `path` (see `PictureFile`).
  public convenience init(path: String, what: String, budget: inout PixelBudget) throws(RenderError) {
    try self.init(try PictureFile(path: path, what: what, budget: &budget))
  }

  fileprivate init(_ file: PictureFile) throws(RenderError) {
    let fail = PictureFile.failure(file.path, file.what)
    let (w, h) = (file.header.width, file.header.height)
    let path = file.path
    let decoded =
      file.header.format == .png
      ? try Self.decodePNG(path, fail) : try Self.decodeWithSDLImage(path, file.header.format, fail)
    // A decoder that made more than the header declared would break the budget.
    guard decoded.pixels.width <= w, decoded.pixels.height <= h else {
      throw fail("decodes to \(decoded.pixels.width)x\(decoded.pixels.height), larger than the \(w)x\(h) it declares")
    }
    pixels = decoded.pixels
    format = file.header.format
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
    func libpngMessage() -> String { SplashRender.libpngMessage(image) }
    // Mapped whole: libpng's stdio path reads it 4 KiB at a time.
    let file: MappedFile
    do {
      file = try MappedFile(path, limit: Int.max)
    } catch {
      throw fail("cannot read it: \(error.phrase)")
    }
    guard png_image_begin_read_from_memory(&image, file.bytes.baseAddress, file.bytes.count) != 0 else {
      throw fail("not a picture splashd can decode (libpng: \(libpngMessage()))")
    }
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
    let finished = withExtendedLifetime(file) {
      png_image_finish_read(&image, nil, surface.pixels, surface.pitch, nil) != 0
    }
    guard finished else {
      let message = libpngMessage()
      // libpng says so when the data ends before the picture does.
      let reason =
        message == "read beyond end of data"
        ? "the file is cut short or unreadable" : "not a picture splashd can decode"
      throw fail("\(reason) (libpng: \(message))")
    }
    return (pixels, hasAlpha)
  }

  private static func decodeWithSDLImage(_ path: String, _ format: PictureFormat, _ fail: (String) -> RenderError)
    throws(RenderError) -> (pixels: Pixels, mayBeTransparent: Bool)
  {
    guard let file = SDL_RWFromFile(path, "rb") else { throw fail(String(cString: SDL_GetError())) }
    defer { SDL_RWclose(file) }
    let load: (UnsafeMutablePointer<SDL_RWops>?) -> UnsafeMutablePointer<SDL_Surface>?
    switch format {
    case .png: load = IMG_LoadPNG_RW
    case .jpeg: load = IMG_LoadJPG_RW
    case .gif: load = IMG_LoadGIF_RW
    case .bmp: load = IMG_LoadBMP_RW
    case .tiff: load = IMG_LoadTIF_RW
    case .tga: load = IMG_LoadTGA_RW
    case .webp: load = IMG_LoadWEBP_RW
    case .qoi: load = IMG_LoadQOI_RW
    case .pnm: load = IMG_LoadPNM_RW
    case .pcx: load = IMG_LoadPCX_RW
    }
    guard let loaded = withStandardErrorSilenced({ load(file) }) else {
      throw fail("not a picture splashd can decode (\(format.rawValue): \(String(cString: SDL_GetError())))")
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

  private static func allOpaque(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Bool {
    let s = surface.pointee
    for y in 0..<Int(s.h) {
      let row = (s.pixels! + y * Int(s.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<Int(s.w) where row[x] >> 24 != 0xFF { return false }
    }
    return true
  }

  /// What decoding a picture of `width`×`height` in `format` takes, in
  /// 4-byte pixels: its pixels and, for SDL_image's formats, the copy
  /// they are converted from.
  public static func decodingCost(_ width: Int, _ height: Int, _ format: PictureFormat) -> Int {
    (width * height * format.decodingBytesPerPixel + 3) / 4
  }

  /// Lets go of the pixels; the image is unusable afterwards.
  public func release() { pixels = nil }
}

/// `bytes` in mebibytes for people: "7.9 MiB".
public func mebibytes(_ bytes: Int) -> String { "\(formatNumber((Double(bytes) / 104_857.6).rounded() / 10)) MiB" }

/// `pixels` in megapixels for people: "2.1 megapixels".
public func megapixels(_ pixels: Int) -> String {
  "\(formatNumber((Double(pixels) / 100_000).rounded() / 10)) megapixels"
}

/// What libpng's simplified API said went wrong with `image`.
func libpngMessage(_ image: png_image) -> String {
  withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
