// SPDX-License-Identifier: Apache-2.0

/// What a display can show as it is (direct scan-out): its card's device
/// number and the pixel layouts its primary plane takes. Host mode tells
/// the program's window so (linux-dmabuf's scan-out tranche), so that the
/// program's GPU renders buffers the display can show without a copy.
public struct ScanoutLayouts: Equatable, Sendable {
  /// A pixel layout: a DRM format (a fourcc) and a format modifier (the
  /// tiling; `Dmabuf.invalidModifier`: the driver's implicit one).
  public struct Layout: Hashable, Sendable {
    /// A DRM fourcc (`DRM_FORMAT_XRGB8888`).
    public let format: UInt32
    /// A DRM format modifier.
    public let modifier: UInt64

    public init(format: UInt32, modifier: UInt64) {
      self.format = format
      self.modifier = modifier
    }
  }

  /// The card's device number (`st_rdev` of /dev/dri/cardN).
  public let device: UInt64
  /// The layouts its primary plane takes.
  public let layouts: [Layout]

  public init(device: UInt64, layouts: [Layout]) {
    self.device = device
    self.layouts = layouts
  }

  /// What a plane of card `device` takes: the layouts it lists (its
  /// IN_FORMATS), or, where it lists none, each of its `formats` in the
  /// driver's implicit layout.
  public init(device: UInt64, listed: [Layout], formats: [UInt32]) {
    self.device = device
    layouts = listed.isEmpty ? formats.map { Layout(format: $0, modifier: Dmabuf.invalidModifier) } : listed
  }
}
