// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashDevices
import SplashSystem
import Testing

/// A fake /sys/class/drm in a temporary directory.
final class FakeDRMSysfs {
  let path: String
  init(connectors: [String: String]) throws {
    var template = Array("/tmp/splashd-drm-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    for name in ["card0", "card1", "renderD128", "version"] { try Files.makeDirectories(path + "/" + name) }
    for (connector, status) in connectors {
      try Files.makeDirectories(path + "/" + connector)
      try Files.write(status + "\n", to: path + "/" + connector + "/status")
    }
  }
  deinit { _ = system("rm -rf '\(path)'") }
}

@Suite struct DRMCardsTests {
  @Test func theFirstCardWithAConnectedConnectorIsChosen() throws {
    let sysfs = try FakeDRMSysfs(connectors: [
      "card0-HDMI-A-1": "disconnected", "card0-DP-1": "unknown", "card1-eDP-1": "connected",
      "card1-HDMI-A-2": "connected",
    ])
    let found = DRMCards.firstConnected(under: sysfs.path)
    #expect(found?.card == 1 && found?.connector == "HDMI-A-2")
  }

  @Test func everyCardWithAConnectedConnectorIsListedInOrder() throws {
    let sysfs = try FakeDRMSysfs(connectors: [
      "card1-HDMI-A-1": "connected", "card0-DP-1": "connected", "card0-eDP-1": "connected",
      "card2-HDMI-A-2": "disconnected",
    ])
    #expect(DRMCards.connectedCards(under: sysfs.path) == [0, 1])
  }

  @Test func noConnectedConnectorMeansNoCard() throws {
    let sysfs = try FakeDRMSysfs(connectors: ["card0-HDMI-A-1": "disconnected"])
    #expect(DRMCards.firstConnected(under: sysfs.path) == nil)
    #expect(DRMCards.firstConnected(under: sysfs.path + "/missing") == nil)
    #expect(DRMCards.connectedCards(under: sysfs.path).isEmpty)
  }

  @Test func cardNumbersComeFromDRIPaths() throws {
    #expect(DRMCards.cardNumber(ofDevice: "/dev/dri/card3") == 3)
    #expect(DRMCards.cardNumber(ofDevice: "/dev/fb0") == nil)
    #expect(DRMCards.cardNumber(ofDevice: "/dev/dri/renderD128") == nil)
    #expect(DRMCards.cardNumber(ofDevice: "/dev/dri/card") == nil)
    // A link (as under /dev/dri/by-path) counts as the card it points at.
    var template = Array("/tmp/splashd-link-XXXXXX".utf8CString)
    let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer { _ = system("rm -rf '\(dir)'") }
    symlink("/dev/dri/card7", dir + "/platform-gpu-card")
    // realpath fails for a link to a missing device; the link's own name is then no card.
    #expect(DRMCards.cardNumber(ofDevice: dir + "/platform-gpu-card") == nil)
  }

  @Test func aCardsRenderNodeIsItsGPUsOwn() throws {
    let sysfs = try FakeDRMSysfs(connectors: [:])
    for name in ["card0", "renderD129", "renderD128", "controlD64"] {
      try Files.makeDirectories(sysfs.path + "/card1/device/drm/" + name)
    }
    try Files.makeDirectories(sysfs.path + "/card0/device/drm/card0")
    #expect(DRMCards.renderNode(ofCard: 1, under: sysfs.path) == "/dev/dri/renderD128")
    // A display controller alone (bochs, qxl, simpledrm) has none.
    #expect(DRMCards.renderNode(ofCard: 0, under: sysfs.path) == nil)
    #expect(DRMCards.renderNode(ofCard: 7, under: sysfs.path) == nil)
  }
}
