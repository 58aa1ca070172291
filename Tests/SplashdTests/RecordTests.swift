// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

@Suite struct RecordTests {
  let dir: TemporaryDirectory
  init() throws { dir = try TemporaryDirectory() }

  func files(in path: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
    }
    return result
  }

  @Test func recordWritesEveryFrameAndTheCSV() throws {
    let out = dir.path + "/frames"
    let outcome = try splashd(
      ["--record", out, "--size", "160x90", "--fps", "30", "--hold", "0.2", "--duration", "0.5"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let csv = try String(contentsOfFile: out + "/frames.csv", encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(csv.first == "frame,time_s,phase,progress")
    // 0 … 0.7 s at 30 fps: frames 0 … 20 (t = 20/30 = 0.6667) and the end frame at 0.7.
    #expect(csv.count == 1 + 22)
    #expect(csv[1] == "0,0.000000,hold,0.000000")
    #expect(csv[7].hasPrefix("6,0.200000,transition,0.000000"))
    #expect(csv.last == "21,0.700000,transition,1.000000")
    let pngs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
    #expect(pngs.count == 22)
    #expect(pngs.first == "frame-00000.png" && pngs.last == "frame-00021.png")
  }

  @Test func recordingTwiceIsByteIdentical() throws {
    let image = dir.file(
      "p.png", makePNG(width: 90, height: 50) { x, y in (UInt8(x * 2), UInt8(y * 5), UInt8((x + y) & 0xFF)) })
    let args = [
      "--image", image, "--size", "120x80", "--rotate", "90", "--transition", "crossfade", "--duration", "0.3",
    ]
    #expect(try splashd(args + ["--record", dir.path + "/a"], in: dir).status == 0)
    #expect(try splashd(args + ["--record", dir.path + "/b"], in: dir).status == 0)
    let a = try files(in: dir.path + "/a")
    let b = try files(in: dir.path + "/b")
    #expect(a.count == 20)  // 19 frames (0 … 0.3 s at 60 fps) and frames.csv
    #expect(a == b)
    // The frames really change over the transition.
    #expect(a["frame-00000.png"] != a["frame-00018.png"])
  }

  /// The first write that fails ends a recording at once, naming the file
  /// (here frame 3 is a link to /dev/full: no space left on the device).
  @Test func aWriteThatFailsStopsTheRecording() throws {
    let out = dir.path + "/full"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: out + "/frame-00003.png", withDestinationPath: "/dev/full")
    let outcome = try splashd(["--record", out, "--size", "32x32", "--duration", "0.5"], in: dir)
    #expect(outcome.status == 1)
    #expect(outcome.stderrLines == ["splashd: --record \(out)/frame-00003.png: no space left on device"])
    for frame in 0..<3 {
      let size = try FileManager.default.attributesOfItem(atPath: out + "/frame-0000\(frame).png")[.size] as? Int
      #expect((size ?? 0) > 0, "frame \(frame)")
    }
    #expect(!FileManager.default.fileExists(atPath: out + "/frame-00004.png"))
    #expect(!FileManager.default.fileExists(atPath: out + "/frames.csv"))
  }

  @Test func offscreenPlaybackLogsTheLifecycle() throws {
    let outcome = try splashd(
      ["--display", "offscreen", "--size", "64x64", "--hold", "0.3", "--duration", "0.2"], in: dir)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stderrLines
    let appeared = lines.firstIndex { $0.hasPrefix("splashd: appeared: first frame shown at monotonic ") }
    let will = lines.firstIndex { $0.hasPrefix("splashd: will-disappear") }
    let did = lines.firstIndex { $0.hasPrefix("splashd: did-disappear") }
    #expect(appeared != nil && will != nil && did != nil)
    if let appeared, let will, let did { #expect(appeared < will && will < did) }
  }
}
