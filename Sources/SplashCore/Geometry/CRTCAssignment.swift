// SPDX-License-Identifier: Apache-2.0

/// Which display controller (CRTC) drives which connected connector, when
/// every screen of a DRM card is lit at once. A CRTC drives one connector;
/// each connector can use the CRTCs its encoders allow.
public enum CRTCAssignment {
  /// A connected connector as the card describes it.
  public struct Connector: Equatable, Sendable {
    public var id: UInt32
    /// The CRTC driving it now (from its current encoder), if any.
    public var current: UInt32?
    /// The CRTCs its encoders can use, in the card's order.
    public var possible: [UInt32]

    public init(id: UInt32, current: UInt32?, possible: [UInt32]) {
      self.id = id
      self.current = current
      self.possible = possible
    }
  }

  /// The CRTC of each connector that gets one: every connector keeps the
  /// CRTC driving it now (no needless modeset of another head), then the
  /// rest take, in order, the first CRTC they can use that is still free.
  /// A connector with none left is not in the answer.
  public static func assign(_ connectors: [Connector]) -> [UInt32: UInt32] {
    var assigned: [UInt32: UInt32] = [:]
    var taken = Set<UInt32>()
    for connector in connectors {
      guard let current = connector.current, connector.possible.contains(current), !taken.contains(current) else {
        continue
      }
      assigned[connector.id] = current
      taken.insert(current)
    }
    for connector in connectors where assigned[connector.id] == nil {
      guard let free = connector.possible.first(where: { !taken.contains($0) }) else { continue }
      assigned[connector.id] = free
      taken.insert(free)
    }
    return assigned
  }
}
