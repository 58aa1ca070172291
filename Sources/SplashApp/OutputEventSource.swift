// SPDX-License-Identifier: Apache-2.0
import SplashRender
import SplashSystem

/// An output's own events in the run loop: a window's display connection.
/// An exposed window is redrawn; a closed one ends the splash.
final class OutputEventSource: EventSource {
  private let sink: OutputSink
  private let controller: Controller
  private let log: Log

  init(_ sink: OutputSink, controller: Controller, log: Log) {
    self.sink = sink
    self.controller = controller
    self.log = log
  }

  var descriptors: [FileDescriptor] { sink.output.eventDescriptors }

  /// Events may already be queued inside the display library, where the
  /// connection's descriptor does not show them.
  func prepareToWait() { react() }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) { react() }

  private func react() {
    let events = sink.output.handleEvents()
    if events.contains(.closed) { controller.stop(because: "the window was closed") }
    if events.contains(.redraw) {
      do { try sink.redraw() } catch { log.error("\(sink.output.name): cannot redraw: \(error)") }
    }
  }
}
