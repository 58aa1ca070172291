import CSDL2

/// A failed SDL call, with SDL's own explanation.
public struct SDLError: Error, Equatable, Sendable, CustomStringConvertible {
  public let call: String
  public let reason: String

  /// Captures `SDL_GetError()` for the call named `call`.
  public init(_ call: String) {
    self.call = call
    reason = String(cString: SDL_GetError())
  }

  public init(call: String, reason: String) {
    self.call = call
    self.reason = reason
  }

  public var description: String { "\(call): \(reason)" }
}

/// Throws `SDLError` when an SDL call that returns 0 on success fails.
func check(_ call: String, _ result: Int32) throws(SDLError) {
  if result != 0 { throw SDLError(call) }
}

/// The pixel format of every prepared image and offscreen frame: 32-bit
/// XRGB (ARGB where the picture has transparency).
let opaqueFormat = SDL_PIXELFORMAT_RGB888.rawValue
let alphaFormat = SDL_PIXELFORMAT_ARGB8888.rawValue
