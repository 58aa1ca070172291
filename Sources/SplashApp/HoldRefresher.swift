// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSystem

/// Keeps the held splash up to date between the player's frames: redraws
/// it at once when its status changed (so a client's `ok` means the new
/// frame is shown), and, from the run loop, steps its animation at the
/// animation's own pace (only the animation's rectangle, on an output that
/// keeps its frame). Idle before the first frame and once the transition
/// has started, whose frames draw the status layers themselves.
final class HoldRefresher: EventSource {
  private let sink: OutputSink
  private let controller: Controller
  private let log: Log
  /// The time (seconds after the first frame) of the last frame drawn here.
  private var drawnAt = 0.0

  init(_ sink: OutputSink, controller: Controller, log: Log) {
    self.sink = sink
    self.controller = controller
    self.log = log
  }

  var descriptors: [FileDescriptor] { [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {}

  var wakeTime: Double? {
    guard controller.phase.isHolding, !controller.drawingPaused, let start = controller.appearedAt,
      let next = sink.scene.status?.animation?.timeline.nextChange(after: drawnAt)
    else { return nil }
    return start + next
  }

  /// The animation's next frame.
  func wake() { redraw(area: sink.scene.status?.animation?.rect) }

  /// The status changed inside `area` (logical pixels; nil for anywhere):
  /// the held frame is drawn again there now.
  func statusChanged(area: PixelRect?) { redraw(area: area) }

  private func redraw(area: PixelRect?) {
    guard controller.phase.isHolding, !controller.drawingPaused, let start = controller.appearedAt else { return }
    let time = controller.now() - start
    drawnAt = time
    do {
      try sink.redrawHeld(at: time, area: area)
    } catch {
      log.error("\(sink.output.name): cannot redraw: \(error)")
    }
  }
}
