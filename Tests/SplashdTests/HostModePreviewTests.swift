// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashSystem
import SplashTestSupport
import Testing

/// Host mode with real programs: the doors opening onto the program recorded (--record).
@Suite struct HostModePreviewTests: HostModeSuite {
  let dir: TemporaryDirectory

  init() throws { dir = try TemporaryDirectory() }

  /// `--record` in host mode writes the frames of the doors opening onto
  /// the real program: the closed doors first, foot's pixels in the gap
  /// mid-way, foot alone at the end; the program is ended with the
  /// recording.
  @Test func recordWritesTheDoorsOpeningOntoTheProgram() throws {
    let frames = dir.path + "/frames"
    let outcome = try splashd(
      ["--size", "320x240"] + Array(splash.drop { $0 != "--left" }) + [
        "--duration", "1", "--fps", "10", "--record", frames, "--", "foot", "--override=colors.background=2080c0",
      ], in: dir, timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let first = try #require(recordedFrame(frames, 0), "\(outcome.stderr)")
    #expect(gap(first).isEmpty, "the first frame is not the closed doors")
    let middle = try #require(recordedFrame(frames, 5), "\(outcome.stderr)")
    let open = gap(middle)
    #expect(open.count > 40 && open.allSatisfy { middle.at($0, 120) == Self.foot }, "gap \(open)")
    let last = try #require(recordedFrame(frames, recordedCount(frames) - 1), "\(outcome.stderr)")
    #expect((0..<16).allSatisfy { last.at($0 * 20, 200) == Self.foot }, "foot is not alone at the end")
  }
}
