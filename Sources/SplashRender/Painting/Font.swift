// SPDX-License-Identifier: Apache-2.0
import CSDL2
import CTTF
import SplashCore
import SplashSystem

/// A TrueType or OpenType font at one height, through SDL2_ttf and FreeType
/// (anti-aliased, kerned; no HarfBuzz shaping), linked into splashd
/// (tools/build/build-sdl.sh) and initialised the first time a font is opened.
public final class Font {
  private let font: UnsafeMutableRawPointer
  /// The line height in pixels.
  public let height: Int

  /// Opens the font at `path` with lines `pixels` high; `what` names it in
  /// errors ("--message-font /x.ttf").
  public init(path: String, pixels: Int, what: String) throws(RenderError) {
    func fail(_ reason: String) -> RenderError { RenderError(call: what, reason: reason) }
    try Self.checkFile(path, what: what)
    var reason = [CChar](repeating: 0, count: 256)
    guard splashd_ttf_init(&reason, reason.count) == 0 else {
      throw fail(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    // A font's line is taller than its point size: open it once to learn
    // how much, then at the size that makes lines `pixels` high.
    var points = max(1, pixels)
    var opened: UnsafeMutableRawPointer?
    for _ in 0..<2 {
      if let opened { splashd_ttf_close(opened) }
      opened = splashd_ttf_open(path, Int32(points))
      guard let font = opened else {
        throw fail("not a font SDL2_ttf can read (\(String(cString: SDL_GetError())))")
      }
      let line = Int(splashd_ttf_height(font))
      if line <= 0 || line == pixels { break }
      points = max(1, Int((Double(points) * Double(pixels) / Double(line)).rounded()))
    }
    font = opened!
    height = Int(splashd_ttf_height(font))
  }

  deinit { splashd_ttf_close(font) }

  /// Checks that `path` is a file that may be a font (regular, not empty),
  /// without loading the text library.
  public static func checkFile(_ path: String, what: String) throws(RenderError) {
    func fail(_ reason: String) -> RenderError { RenderError(call: what, reason: reason) }
    let kind: FileKind
    do { kind = try Files.kind(of: path) } catch { throw fail(error.phrase) }
    switch kind {
    case .regular(let size) where size > 0: return
    case .regular: throw fail("is empty (0 bytes), expected a font file")
    case .directory: throw fail("is a directory, expected a font file")
    case .other: throw fail("is not a regular file, expected a font file")
    }
  }

  /// The width `text` renders at, in pixels.
  public func width(of text: String) -> Int {
    var width: Int32 = 0
    var height: Int32 = 0
    return splashd_ttf_size(font, text, &width, &height) == 0 ? Int(width) : 0
  }

  /// `text` as it fits in `maxWidth` pixels: whole, or cut at a character
  /// (grapheme) boundary and ended with "…".
  public func fitted(_ text: String, maxWidth: Int) -> String {
    guard width(of: text) > maxWidth else { return text }
    let characters = Array(text)
    var (fits, tooLong) = (0, characters.count)
    while tooLong - fits > 1 {
      let middle = (fits + tooLong) / 2
      if width(of: String(characters[..<middle]) + "…") <= maxWidth { fits = middle } else { tooLong = middle }
    }
    return String(characters[..<fits]) + "…"
  }

  /// `text`, cut to fit `maxWidth`, rendered in `color` on transparency
  /// (ARGB8888); nil for an empty line.
  public func render(_ text: String, color: Color, maxWidth: Int) throws(RenderError) -> Pixels? {
    let line = fitted(text, maxWidth: maxWidth)
    guard !line.isEmpty else { return nil }
    guard let rendered = splashd_ttf_render(font, line, color.red, color.green, color.blue) else {
      throw RenderError(call: "TTF_RenderUTF8_Blended", reason: String(cString: SDL_GetError()))
    }
    return Pixels(adopting: rendered)
  }
}
