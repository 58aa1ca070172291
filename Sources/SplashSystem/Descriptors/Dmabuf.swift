// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// A buffer in GPU memory shared as DMA-BUF descriptors (linux-dmabuf: a GL
/// program's frame), described as a DRM plane takes it. The descriptors
/// are borrowed: valid while their owner holds the buffer, never closed
/// here.
public struct Dmabuf: Equatable, Sendable {
  /// One plane of it: its descriptor, where it begins, bytes a row.
  public struct Plane: Equatable, Sendable {
    public let descriptor: Int32
    public let offset: UInt32
    public let stride: UInt32

    public init(descriptor: Int32, offset: UInt32, stride: UInt32) {
      self.descriptor = descriptor
      self.offset = offset
      self.stride = stride
    }
  }

  public let size: PixelSize
  /// Its DRM format (a fourcc, `DRM_FORMAT_XRGB8888`: "XR24").
  public let format: UInt32
  /// Its DRM format modifier (the tiling); `Dmabuf.invalidModifier` when
  /// none was given (the driver's implicit layout).
  public let modifier: UInt64
  public let planes: [Plane]

  public init(size: PixelSize, format: UInt32, modifier: UInt64, planes: [Plane]) {
    self.size = size
    self.format = format
    self.modifier = modifier
    self.planes = planes
  }

  /// DRM_FORMAT_MOD_INVALID: no modifier given.
  public static let invalidModifier: UInt64 = 0x00FF_FFFF_FFFF_FFFF
  /// DRM_FORMAT_XRGB8888 and DRM_FORMAT_ARGB8888.
  public static let xrgb8888 = fourcc("XR24")
  public static let argb8888 = fourcc("AR24")

  /// A DRM fourcc from its four characters.
  public static func fourcc(_ name: String) -> UInt32 {
    name.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
  }

  /// The format's four characters ("XR24"), for messages.
  public var formatName: String {
    String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: format >> (8 * $0)) }, as: UTF8.self)
  }
}
