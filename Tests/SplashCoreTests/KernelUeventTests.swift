// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct KernelUeventTests {
  func message(_ header: String, _ fields: [String]) -> [UInt8] {
    ([header] + fields).flatMap { Array($0.utf8) + [0] }
  }

  @Test func aCardThatAppearsIsADisplayEvent() throws {
    let path = "/devices/pci0000:00/0000:00:02.0/virtio0/drm/card0"
    let event = try #require(
      KernelUevent(
        message(
          "add@" + path,
          [
            "ACTION=add", "DEVPATH=" + path, "SUBSYSTEM=drm", "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=1012",
            "MAJOR=226", "MINOR=0",
          ])))
    #expect(event.action == "add" && event.devicePath == path && event.fields["SEQNUM"] == "1012")
    #expect(event.display == DisplayDeviceEvent(change: .added, kind: .card, node: "/dev/dri/card0"))
  }

  @Test func framebuffersAndHotplugCountConnectorsAndRenderNodesDoNot() throws {
    let fb = try #require(
      KernelUevent(
        message(
          "remove@/devices/platform/vesa-framebuffer.0/graphics/fb0",
          [
            "ACTION=remove", "DEVPATH=/devices/platform/vesa-framebuffer.0/graphics/fb0", "SUBSYSTEM=graphics",
            "DEVNAME=fb0",
          ])))
    #expect(fb.display == DisplayDeviceEvent(change: .removed, kind: .framebuffer, node: "/dev/fb0"))
    let hotplug = try #require(
      KernelUevent(
        message(
          "change@/devices/x/drm/card1",
          [
            "ACTION=change", "DEVPATH=/devices/x/drm/card1", "SUBSYSTEM=drm", "HOTPLUG=1", "DEVNAME=dri/card1",
            "DEVTYPE=drm_minor",
          ])))
    #expect(hotplug.display == DisplayDeviceEvent(change: .changed, kind: .card, node: "/dev/dri/card1"))
    let render = try #require(
      KernelUevent(
        message(
          "add@/devices/x/drm/renderD128",
          [
            "ACTION=add", "DEVPATH=/devices/x/drm/renderD128", "SUBSYSTEM=drm", "DEVNAME=dri/renderD128",
            "DEVTYPE=drm_minor",
          ])))
    #expect(render.display == nil)
    let connector = try #require(
      KernelUevent(
        message(
          "add@/devices/x/drm/card0/card0-Virtual-1",
          ["ACTION=add", "DEVPATH=/devices/x/drm/card0/card0-Virtual-1", "SUBSYSTEM=drm"])))
    #expect(connector.display == nil)
  }

  @Test func whatIsNotAKernelUeventIsRefused() {
    // udev's own messages start with "libudev" and a binary header.
    #expect(KernelUevent(Array("libudev".utf8) + [0, 0xFE, 0xED, 0xCA, 0xFE, 0]) == nil)
    #expect(KernelUevent(message("add@/devices/x", ["ACTION=add", "DEVPATH=/devices/x"]).dropLast() + []) == nil)
    #expect(KernelUevent(message("add@/devices/x", ["ACTION=remove", "DEVPATH=/devices/x"])) == nil)
    #expect(KernelUevent(message("add@/devices/x", ["ACTION=add", "DEVPATH=/devices/x", "=x"])) == nil)
    #expect(KernelUevent(message("add@devices", ["ACTION=add", "DEVPATH=devices"])) == nil)
    #expect(KernelUevent([UInt8](repeating: 65, count: 4096) + [0]) == nil)
    #expect(KernelUevent([]) == nil)
    // A device name that climbs out of /dev is no display device.
    let sneaky = KernelUevent(
      message(
        "add@/devices/x/drm/card0",
        [
          "ACTION=add", "DEVPATH=/devices/x/drm/card0", "SUBSYSTEM=drm", "DEVNAME=dri/../../tmp/card0",
          "DEVTYPE=drm_minor",
        ]
      ))
    #expect(sneaky != nil && sneaky?.display == nil)
  }
}
