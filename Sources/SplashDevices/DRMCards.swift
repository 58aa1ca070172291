// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// DRM cards as sysfs lists them (/sys/class/drm/cardN and its connectors
/// cardN-NAME, each with a `status` file): enough to know whether KMS has a
/// screen to drive, without opening a device.
public enum DRMCards {
  /// Where the kernel lists DRM devices.
  public static let sysfsDirectory = "/sys/class/drm"

  /// The lowest-numbered card with a connected connector, and that
  /// connector's name ("Virtual-1", "HDMI-A-1").
  public static func firstConnected(under root: String = sysfsDirectory) -> (card: Int, connector: String)? {
    connectedConnectors(under: root).first
  }

  /// The numbers of the cards with a connected connector, in order.
  public static func connectedCards(under root: String = sysfsDirectory) -> [Int] {
    var cards: [Int] = []
    for found in connectedConnectors(under: root) where !cards.contains(found.card) { cards.append(found.card) }
    return cards
  }

  /// Every connected connector of every card, by card number then name.
  private static func connectedConnectors(under root: String) -> [(card: Int, connector: String)] {
    let names = (try? Files.entries(of: root)) ?? []
    var found: [(card: Int, connector: String)] = []
    for name in names where name.hasPrefix("card") {
      let parts = name.dropFirst(4).split(separator: "-", maxSplits: 1)
      guard parts.count == 2, let card = Int(parts[0]),
        let status = try? Files.readText(root + "/" + name + "/status"),
        trimmingBlanks(status) == "connected"
      else { continue }
      found.append((card, String(parts[1])))
    }
    return found.sorted { ($0.card, $0.connector) < ($1.card, $1.connector) }
  }

  /// The render node of card `number`'s GPU (/dev/dri/renderD128), from
  /// its device's own DRM folder (cardN/device/drm/renderDM); nil for a
  /// card without one (a display controller alone: QEMU's bochs and qxl,
  /// simpledrm).
  public static func renderNode(ofCard number: Int, under root: String = sysfsDirectory) -> String? {
    let entries = (try? Files.entries(of: "\(root)/card\(number)/device/drm")) ?? []
    return entries.filter { $0.hasPrefix("renderD") && Int($0.dropFirst(7)) != nil }.min().map { "/dev/dri/" + $0 }
  }

  /// The card number N of `path` when it is /dev/dri/cardN or a link to
  /// one (/dev/dri/by-path/…-card); nil for anything else.
  public static func cardNumber(ofDevice path: String) -> Int? {
    let resolved = Files.realPath(path) ?? path
    let prefix = "/dev/dri/card"
    guard resolved.hasPrefix(prefix), let number = Int(resolved.dropFirst(prefix.count)), number >= 0 else {
      return nil
    }
    return number
  }
}
