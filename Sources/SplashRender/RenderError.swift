// SPDX-License-Identifier: Apache-2.0
import CSDL2
import SplashDevices
import SplashSystem

/// What went wrong in the render layer (a picture, SDL, a display device),
/// with the thing that failed and why.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What failed: an SDL call, a device, `--image door.png`.
  public let call: String
  public let reason: String

  /// Captures `SDL_GetError()` for the SDL call named `call`.
  public init(_ call: String) {
    self.call = call
    reason = String(cString: SDL_GetError())
  }

  public init(call: String, reason: String) {
    self.call = call
    self.reason = reason
  }

  /// A failed system call, as this layer reports it.
  public init(_ error: SystemError) {
    call = error.call
    reason = error.phrase
  }

  /// A device that cannot be used, in its own words (it names itself).
  public init(_ error: DeviceError) {
    call = ""
    reason = error.message
  }

  /// Why something cannot be used at all, with nothing more to name.
  public init(_ reason: String, named call: String = "") {
    self.call = call
    self.reason = reason
  }

  public var description: String { call.isEmpty ? reason : "\(call): \(reason)" }
}

/// Throws `RenderError` when an SDL call that returns 0 on success fails.
func check(_ call: String, _ result: Int32) throws(RenderError) {
  if result != 0 { throw RenderError(call) }
}

/// The pixel format of every prepared image and offscreen frame: 32-bit
/// XRGB (ARGB where the picture has transparency).
let opaqueFormat = SDL_PIXELFORMAT_RGB888.rawValue
let alphaFormat = SDL_PIXELFORMAT_ARGB8888.rawValue
