import Foundation
import Testing

/// A screendump in binary PPM (P6) form, as QEMU writes it.
struct Screendump {
  var width: Int
  var height: Int
  var bytes: [UInt8]
  var start: Int

  init?(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    bytes = [UInt8](data)
    // "P6\n<width> <height>\n<maxval>\n" then RGB triplets.
    var fields: [Int] = []
    var index = 2
    while fields.count < 3 && index < bytes.count {
      while index < bytes.count && (bytes[index] == 10 || bytes[index] == 32) { index += 1 }
      var number = 0
      while index < bytes.count && bytes[index] >= 48 && bytes[index] <= 57 {
        number = number * 10 + Int(bytes[index] - 48)
        index += 1
      }
      fields.append(number)
    }
    guard bytes.starts(with: [80, 54]), fields.count == 3 else { return nil }
    width = fields[0]
    height = fields[1]
    start = index + 1
  }

  func at(_ x: Int, _ y: Int) -> UInt32 {
    let i = start + (y * width + x) * 3
    return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
  }
}

/// The kiosk path on a real Linux kernel under QEMU (tools/qemu/rig.py):
/// bochs-drm's /dev/fb0, screens read back with QMP screendump.
extension DisplayTests {
  @Suite(.serialized) struct BootPathTests {
    /// A virtual screen of one page, and one the kernel was asked to make
    /// two pages tall: splashd paints the shown page either way.
    @Test(arguments: ["", "drm_kms_helper.drm_fbdev_overalloc=200"])
    func theFramebufferShowsTheSplashAndKeepsItsLastFrameForTheProgram(kernelParameters: String) throws {
      guard
        !((try? FileManager.default.contentsOfDirectory(atPath: "/boot")) ?? []).filter({ $0.hasPrefix("vmlinuz-") })
          .isEmpty,
        FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-system-x86_64")
      else {
        throw TestFailure(
          "the QEMU rig needs qemu-system-x86, linux-image-amd64, busybox-static (make test installs them)")
      }
      let dir = try TemporaryDirectory()
      _ = dir.solidPNG("red.png", width: 160, height: 240, rgb: (255, 0, 0))
      _ = dir.solidPNG("green.png", width: 160, height: 240, rgb: (0, 255, 0))
      // In the guest, /run/rig is this directory; the host's / is the guest's /.
      let script = dir.file(
        "run.sh",
        """
        #!/bin/sh
        echo "kernel: $(cat /proc/cmdline) fb0: $(cat /sys/class/graphics/fb0/virtual_size)"
        \(splashdPath) --config /dev/null --display fbdev --left /run/rig/red.png --right /run/rig/green.png \\
          --background '#0000FF' --until-file /run/rig/go --timeout 120 --duration 0.3 \\
          -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; exit 4' \\
          2>/run/rig/splashd.log &
        pid=$!
        i=0; while ! grep -q appeared /run/rig/splashd.log 2>/dev/null && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
        echo RIG-SCREENDUMP held
        while [ ! -e /run/rig/held.done ]; do sleep 0.1; done
        touch /run/rig/go
        wait $pid
        """)
      chmod(script, 0o755)
      let rig = packageRoot + "/tools/qemu/rig.py"
      let outcome = try run(
        "/usr/bin/env",
        [
          "python3", rig, "--work", dir.path, "--size", "800x480", "--timeout", "240", "--append", kernelParameters,
          "--", "/run/rig/run.sh",
        ],
        environment: ProcessInfo.processInfo.environment, timeout: 300)
      let console = (try? String(contentsOfFile: dir.path + "/console.log", encoding: .utf8)) ?? ""
      let log = (try? String(contentsOfFile: dir.path + "/splashd.log", encoding: .utf8)) ?? ""
      #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
      // The program splashd handed off to (same PID) ended the run with its status.
      #expect((try? String(contentsOfFile: dir.path + "/status", encoding: .utf8)) == "4\n", "\(log)")
      #expect(log.contains("splashd: fbdev: /dev/fb0 800x480, 32 bpp SDL_PIXELFORMAT_RGB888"), "\(log)")
      #expect(console.contains(kernelParameters.isEmpty ? "fb0: 800,480" : "fb0: 800,960"), "\(console.suffix(600))")
      #expect(log.contains("splashd: handing off to /bin/sh"), "\(log)")

      let held = try #require(Screendump(path: dir.path + "/held.ppm"), "no screendump of the held splash: \(log)")
      #expect(held.width == 800 && held.height == 480)
      // The doors, closed: each leaf fills its half; the seam at the centre line.
      for y in [0, 240, 479] {
        let row = [0, 399, 400, 799].map { String(held.at($0, y), radix: 16) }
        #expect(held.at(0, y) == 0xFF0000 && held.at(399, y) == 0xFF0000, "row \(y): \(row); \(log)")
        #expect(held.at(400, y) == 0x00FF00 && held.at(799, y) == 0x00FF00, "row \(y): \(row)")
      }
      // After the transition and the hand-off, the last frame stays: the background.
      let after = try #require(Screendump(path: dir.path + "/after.ppm"), "no screendump after the hand-off: \(log)")
      for y in stride(from: 0, to: 480, by: 60) {
        for x in stride(from: 0, to: 800, by: 100) { #expect(after.at(x, y) == 0x0000FF, "(\(x), \(y))") }
      }
    }
  }
}
