// SPDX-License-Identifier: Apache-2.0
import SplashDevices
import SplashSystem

/// The DRM card an output request means, for the back ends that drive one
/// (`kms`, `kmsdrm`).
extension DRMCards {
  /// Whether `auto` tries a KMS back end: when `--device` names a card, or
  /// a card has a connected connector.
  public static func probe(_ request: OutputRequest) -> Probe {
    if let device = request.device {
      guard let card = cardNumber(ofDevice: device.path) else {
        return .skipped("\(device.origin) \(device.path) is not a DRM card")
      }
      return .tried("\(device.origin) \(device.path) is /dev/dri/card\(card)")
    }
    guard let found = firstConnected() else { return .skipped("no DRM card with a connected connector") }
    return .tried("/dev/dri/card\(found.card) has a connected connector (\(found.connector))")
  }

  /// The number N of the card (/dev/dri/cardN) `--device` names; nil without one.
  public static func requestedCard(_ request: OutputRequest) throws(RenderError) -> Int? {
    guard let device = request.device else { return nil }
    let named = "\(device.origin) \(device.path)"
    guard Files.exists(device.path) else { throw RenderError("no such device", named: named) }
    guard let number = cardNumber(ofDevice: device.path) else {
      throw RenderError("not a DRM card (/dev/dri/cardN)", named: named)
    }
    return number
  }

  /// The cards to drive: the one `--device` names, else every card with a
  /// connected connector, in order.
  public static func cards(for request: OutputRequest) throws(RenderError) -> [String] {
    if let number = try requestedCard(request) { return ["/dev/dri/card\(number)"] }
    let numbers = connectedCards()
    guard !numbers.isEmpty else { throw RenderError("no DRM card with a connected connector", named: "") }
    return numbers.map { "/dev/dri/card\($0)" }
  }
}
