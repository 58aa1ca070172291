// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The figures measured in QEMU boots (printed as `name: value`, their
/// runs checked): each back end's start, and splashd against psplash in one boot.
@Suite(.serialized) struct BootFigureTests {
  /// The figures of the display back ends, in one boot, interleaved: from
  /// exec (the process's start time) to the first frame on the screen
  /// (its `appeared` time, once the frame is shown), the peak RSS and the
  /// shared libraries mapped while the splash holds; medians of 5 for kms
  /// and fbdev, 3 for kmsdrm (SDL loads Mesa over the rig's 9p root, tens
  /// of seconds each under TCG). Printed, not asserted, beyond each run
  /// having shown its splash.
  @Test func theBackEndsFiguresInOneBoot() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let leaves = doorLeaves(in: dir)
    let (outcome, console) = try runScenario(
      "back-end-figures", in: dir, environment: ["LEAVES": leaves], size: "800x480")
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    let rows = ((try? String(contentsOfFile: dir.path + "/figures", encoding: .utf8)) ?? "").split(separator: "\n")
      .map { $0.split(separator: " ").map(String.init) }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    for backEnd in ["kms", "fbdev", "kmsdrm"] {
      let runs = rows.filter { $0.count == 6 && $0[0] == backEnd }
      let firstFrames = runs.compactMap { row -> Double? in
        guard let start = Double(row[1]), let ticks = Double(row[2]), let shown = Double(row[3]) else { return nil }
        return (shown - start / ticks) * 1000
      }
      #expect(firstFrames.count == (backEnd == "kmsdrm" ? 3 : 5), "\(backEnd): \(runs)")
      guard !firstFrames.isEmpty else { continue }
      print(
        "boot_\(backEnd)_exec_to_first_frame_ms: \(Int(median(firstFrames).rounded())) (median of \(firstFrames.count))"
      )
      print("boot_\(backEnd)_peak_rss_mib: \(formatted(median(runs.compactMap { Double($0[4]) }) / 1024))")
      print("boot_\(backEnd)_mapped_libraries: \(Int(median(runs.compactMap { Double($0[5]) })))")
    }
  }

  /// splashd against psplash, Yocto's splash (built from its source with
  /// the same picture: tools/test/qemu/build-psplash.sh), in one boot, with the
  /// programs, their libraries and the picture in a tmpfs: from exec to
  /// the first pixel and to the complete picture on the buffer the CRTC
  /// scans out (tools/test/qemu/scanout-watch.c, sampled every millisecond), on
  /// fbdev and on KMS (psplash `--drm`, splashd's native `kms`), splashd
  /// cold (no cache) and warm (its cache filled by `--prepare`);
  /// interleaved, medians of 5 (of 15 for host mode's first pixel against
  /// the plain splash's), printed with their ratios and peak RSS.
  /// The release binary is measured when it is built (make test builds it
  /// first). Asserted: every run showed its picture, and the warm ones
  /// drew from the cache. psplash's source is not part of this project:
  /// where it is not on the machine (`SPLASHD_PSPLASH_SOURCE`, or the
  /// team's ../shared/tools/peers) splashd's figures are printed alone and
  /// the comparison says it was not made.
  @Test func splashdAgainstPsplashInOneBoot() throws {
    try requireRig()
    let dir = try TemporaryDirectory()
    let binary = installedBuildDirectory + "/splashd"
    // A photograph-like 1280x800 picture, deflated by splashd's own PNG
    // writer (the first frame of a recording, before the doors open).
    let raw = dir.file(
      "raw.png",
      makePNG(width: 1280, height: 800) { x, y in
        let noise = (x &* 7919 &+ y &* 104_729) % 17
        return (UInt8((x * 255 / 1280 + noise) % 256), UInt8((y * 255 / 800 + noise) % 256), UInt8(64 + noise * 3))
      })
    let recorded = try run(
      binary,
      [
        "--config", dir.testConfig, "--record", dir.path + "/rec", "--size", "1280x800", "--image", raw,
        "--hold", "1", "--duration", "0", "--fps", "1", "--cache", "none",
      ])
    #expect(recorded.status == 0, "\(recorded.stderr)")
    try FileManager.default.moveItem(atPath: dir.path + "/rec/frame-00000.png", toPath: dir.path + "/photo.png")
    let watcher = try run(
      "/usr/bin/gcc",
      [
        "-O2", "-Wall", "-I/usr/include/libdrm", "-o", dir.path + "/scanout-watch",
        packageRoot + "/tools/test/qemu/scanout-watch.c", "-ldrm",
      ])
    #expect(watcher.status == 0, "\(watcher.stderr)")
    let sources = [
      ProcessInfo.processInfo.environment["SPLASHD_PSPLASH_SOURCE"],
      packageRoot + "/../shared/tools/peers/psplash-266b480.tar.gz",
    ].compactMap { $0 }
    var peer = false
    if let source = sources.first(where: { FileManager.default.fileExists(atPath: $0) }) {
      let built = try run(
        packageRoot + "/tools/test/qemu/build-psplash.sh", [source, dir.path + "/photo.png", dir.path + "/peer"],
        timeout: 600)
      #expect(built.status == 0, "\(built.stderr)")
      peer = built.status == 0
    } else {
      print("psplash_comparison: not made: psplash's source is not on this machine (looked for \(sources))")
    }
    let hostLibrary = installedBuildDirectory + "/libsplashd-wayland-host.so"
    #expect(FileManager.default.fileExists(atPath: hostLibrary), "make builds \(hostLibrary)")
    let (outcome, console) = try runScenario(
      "splashd-against-psplash", in: dir,
      environment: ["SPLASHD": binary, "PSPLASH": peer ? dir.path + "/peer/psplash" : "", "HOSTLIB": hostLibrary],
      size: "1280x800")
    #expect(outcome.status == 0, "\(outcome.stdout) \(console.suffix(2000))")
    func read(_ name: String) -> String {
      (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
    }
    // One cache file for each display, made without drawing.
    #expect(
      read("prepared").split(separator: "\n").filter { $0.hasPrefix("prepared: /run/t/cache/") }.count == 2,
      "\(read("prepared")) \(read("prepare.log"))")
    var runs: [String: [[String: Double]]] = [:]
    for line in read("sw.log").split(separator: "\n") where line.hasPrefix("SW label=") {
      var fields: [String: Double] = [:]
      var label = ""
      for pair in line.split(separator: " ").dropFirst() {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        if parts[0] == "label" { label = parts[1] } else { fields[parts[0]] = Double(parts[1]) }
      }
      runs[label, default: []].append(fields)
    }
    func median(_ labels: String..., field: String) -> Double? {
      let values = labels.flatMap { runs[$0] ?? [] }.compactMap { $0[field] }.filter { $0 >= 0 }.sorted()
      return values.isEmpty ? nil : values[values.count / 2]
    }
    func median(_ label: String, _ field: String) -> Double? { median(label, field: field) }
    /// splashd's own part, the median over `labels`' runs: from its first
    /// instruction to the frame presented (its `appeared` line).
    func ownMedian(_ labels: String...) -> Double? {
      let own = labels.flatMap { label in
        read(label + ".log").split(separator: "\n").compactMap { line -> Double? in
          guard let range = line.range(of: " ms after start") else { return nil }
          return Double(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
      }.sorted()
      return own.isEmpty ? nil : own[own.count / 2]
    }
    let labels =
      (peer ? ["psplash-fbdev", "psplash-kms"] : []) + [
        "splashd-fbdev-cold", "splashd-fbdev-warm", "splashd-kms-cold", "splashd-kms-warm", "splashd-kms-host",
        "splashd-kms-again",
      ]
    for label in labels {
      // Every run showed a picture on the scan-out: its first pixel was seen.
      let shown = (runs[label] ?? []).filter { ($0["scan_first_ms"] ?? -1) > 0 }
      // Host mode and the plain warm splash on kms: 10 more rounds each.
      let rounds = label == "splashd-kms-host" ? 15 : label == "splashd-kms-again" ? 10 : 5
      #expect(shown.count == rounds, "\(label): \(runs[label] ?? []) \(read(label + ".log").suffix(1500))")
    }
    for display in ["fbdev", "kms"] {
      let warm = read("splashd-\(display)-warm.log")
      #expect(
        warm.components(separatedBy: "cache: prepared pictures from /run/t/cache/").count - 1 == 5,
        "\(warm.suffix(2000))")
      #expect(!read("splashd-\(display)-cold.log").contains("cache: prepared"))
    }
    print(
      "psplash_comparison: \(installedBuildDirectory.hasSuffix("/release") ? "release" : "debug") splashd, 1280x800 photo, tmpfs, TCG"
    )
    for display in ["fbdev", "kms"] {
      let peerComplete = median("psplash-\(display)", "last_ms")
      if let first = median("psplash-\(display)", "scan_first_ms"), let complete = peerComplete {
        print("boot_psplash_\(display)_first_pixel_ms: \(Int(first.rounded()))")
        print("boot_psplash_\(display)_complete_ms: \(Int(complete.rounded()))")
      }
      for cache in ["cold", "warm"] {
        let label = "splashd-\(display)-\(cache)"
        guard let first = median(label, "scan_first_ms"), let complete = median(label, "last_ms") else { continue }
        let name = "boot_splashd_\(display)_\(cache)"
        print("\(name)_first_pixel_ms: \(Int(first.rounded()))")
        print("\(name)_complete_ms: \(Int(complete.rounded()))")
        if let peerComplete {
          print("\(name)_vs_psplash_complete: \(formatted(complete / peerComplete))")
        }
        if let peak = median(label, "vmhwm_kb") { print("\(name)_peak_rss_mib: \(formatted(peak / 1024))") }
        if let own = ownMedian(label) { print("\(name)_main_to_frame_ms: \(Int(own.rounded()))") }
      }
    }
    // Host mode's first pixel against the plain splash's, both warm on kms,
    // interleaved in this boot; the compositor loaded behind it (every run
    // said so).
    #expect(
      read("splashd-kms-host.log").components(separatedBy: "host mode: the program's window is").count - 1 == 15,
      "\(read("splashd-kms-host.log").suffix(2000))")
    if let host = median("splashd-kms-host", "scan_first_ms"),
      let plain = median("splashd-kms-warm", "splashd-kms-again", field: "scan_first_ms")
    {
      print("boot_splashd_kms_host_mode_first_pixel_ms: \(Int(host.rounded()))")
      print("boot_splashd_kms_host_mode_vs_plain_first_pixel: \(formatted(host / plain))")
    }
    // The same by splashd's own clock, which the scan-out watcher's
    // turn on the CPU does not move.
    if let host = ownMedian("splashd-kms-host"), let plain = ownMedian("splashd-kms-warm", "splashd-kms-again") {
      print("boot_splashd_kms_host_mode_main_to_frame_ms: \(Int(host.rounded()))")
      print("boot_splashd_kms_host_mode_vs_plain_main_to_frame: \(formatted(host / plain))")
    }
    if let peak = median("splashd-kms-host", "vmhwm_kb") {
      print("boot_splashd_kms_host_mode_peak_rss_mib: \(formatted(peak / 1024))")
    }
    // The target for fbdev: 12 MiB and the prepared picture (4 bytes a pixel).
    print("boot_splashd_peak_rss_target_mib: \(formatted(12 + Double(1280 * 800 * 4) / 1_048_576))")
  }

}
