// SPDX-License-Identifier: Apache-2.0

/// What a display can show as it is (direct scan-out): its card's device
/// number and the pixel layouts its primary plane takes. Host mode tells
/// the program's window so (linux-dmabuf's scan-out tranche), so that the
/// program's GPU renders buffers the display can show without a copy.
public struct ScanoutLayouts: Equatable, Sendable {
  /// A pixel layout: a DRM format (a fourcc) and a format modifier (the
  /// tiling; `Dmabuf.invalidModifier`: the driver's implicit one).
  public struct Layout: Hashable, Sendable {
    public let format: UInt32
    public let modifier: UInt64

    public init(format: UInt32, modifier: UInt64) {
      self.format = format
      self.modifier = modifier
    }
  }

  /// The card's device number (`st_rdev` of /dev/dri/cardN).
  public let device: UInt64
  public let layouts: [Layout]

  public init(device: UInt64, layouts: [Layout]) {
    self.device = device
    self.layouts = layouts
  }
}
