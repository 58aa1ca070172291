// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

/// `--record DIR`: every frame of the recording schedule presented on the
/// stage (offscreen) and read back as PNG, with frames.csv.
struct Recorder {
  let settings: Settings
  /// Checked before each frame: a stop signal ends the recording.
  let clock: SessionClock
  let log: Log
  /// Called before each frame (host mode: the program draws its next one).
  var beforeEachFrame: () -> Void = {}

  func record(on stage: Stage, into directory: String) throws(Failure) {
    do {
      try Files.makeDirectories(directory)
    } catch {
      throw Failure.badInput("--record \(directory): cannot create the directory: \(error.phrase)")
    }
    let timeline = settings.splash.timeline
    var csv = "frame,time_s,phase,progress\n"
    let times = timeline.recordingTimes(fps: settings.splash.fps)
    for (index, time) in times.enumerated() {
      do {
        try clock.checkForStop()
      } catch let interrupted as PlaybackInterrupted {
        throw Failure.runtime("--record \(directory): interrupted by \(interrupted.reason) after \(index) frames")
      } catch {
        throw Failure.runtime("--record \(directory): \(error)")
      }
      beforeEachFrame()
      let progress = timeline.progress(at: time)
      let name = "frame-" + zeroPadded(index, width: 5) + ".png"
      // The first write that fails (a full disk, say) ends the recording.
      do {
        _ = try stage.present(
          FrameRequest(time: time, phase: timeline.phase(at: time), progress: progress, presentationTime: time))
        try Files.write(try pngData(of: stage.snapshot().get()), to: directory + "/" + name)
      } catch let error as SystemError {
        throw Failure.runtime("--record \(directory)/\(name): \(error.phrase)")
      } catch let error as ControlError {
        throw Failure.runtime("--record \(directory)/\(name): \(error.message)")
      } catch {
        throw Failure.runtime("--record \(directory)/\(name): \(error)")
      }
      csv +=
        "\(index),\(formatFixed(time, decimals: 6)),\(timeline.phase(at: time).rawValue),"
        + "\(formatFixed(progress, decimals: 6))\n"
    }
    do {
      try Files.write(csv, to: directory + "/frames.csv")
    } catch {
      throw Failure.runtime("--record \(directory)/frames.csv: \(error.phrase)")
    }
    log.info("recorded \(times.count) frames to \(directory)/ (frame-00000.png … and frames.csv)")
  }
}

/// `value` in decimal, left-padded with zeros to `width` digits.
func zeroPadded(_ value: Int, width: Int) -> String {
  let digits = String(value)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
