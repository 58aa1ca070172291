// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What poll(2) reported for a descriptor.
public struct PollEvents: OptionSet, Sendable {
  public let rawValue: Int16
  public init(rawValue: Int16) { self.rawValue = rawValue }

  /// Data (or end of file) to read.
  public static let readable = PollEvents(rawValue: Int16(POLLIN))
  /// The other end hung up.
  public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
  /// An error is pending.
  public static let error = PollEvents(rawValue: Int16(POLLERR))
  /// The descriptor is not open.
  public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
  /// There is room to write.
  public static let writable = PollEvents(rawValue: Int16(POLLOUT))
}

/// Something the run loop watches: descriptors to read, and optionally a
/// time to be woken at. A source must consume what makes a descriptor
/// ready (read it, or stop listing it), or the loop would find it ready
/// again at once.
public protocol EventSource: AnyObject {
  /// The descriptors to watch for reading, now.
  var descriptors: [FileDescriptor] { get }
  /// The descriptors to watch for room to write, now (output waiting to go).
  var writeDescriptors: [FileDescriptor] { get }
  /// When the source wants to be woken even if nothing is readable; nil for never.
  var wakeTime: Double? { get }
  /// Called before every wait, for work that is pending without its
  /// descriptor showing it (a display connection's queued events).
  func prepareToWait()
  /// Called for a descriptor that poll found ready, hung up or in error.
  func handle(_ descriptor: FileDescriptor, events: PollEvents)
  /// Called once the clock has reached `wakeTime`.
  func wake()
}

extension EventSource {
  public var writeDescriptors: [FileDescriptor] { [] }
  public var wakeTime: Double? { nil }
  public func prepareToWait() {}
  public func wake() {}
}

/// Owns poll(2) for the whole splash: every descriptor anything waits on
/// (signals, control clients, sensors, gate watches, a window's display
/// connection) is an event source here, and waiting means dispatching their
/// events until a deadline or a condition. The clock only tells time.
public final class RunLoop {
  public let clock: EventClock
  private var sources: [EventSource] = []

  public init(clock: EventClock) { self.clock = clock }

  /// Watches `source` from the next wait on.
  public func add(_ source: EventSource) {
    if !sources.contains(where: { $0 === source }) { sources.append(source) }
  }

  /// Stops watching `source`.
  public func remove(_ source: EventSource) { sources.removeAll { $0 === source } }

  /// Dispatches events until `done()` is true or the clock reads
  /// `deadline`; returns whether `done()` ended it. `done` is checked
  /// before every wait, so a condition already met returns at once.
  @discardableResult
  public func run(until deadline: Double, stopWhen done: () -> Bool) -> Bool {
    while true {
      for source in sources { source.prepareToWait() }
      if done() { return true }
      let now = clock.now()
      if now >= deadline { return false }
      dispatch(until: deadline)
    }
  }

  /// Dispatches what is ready now, without waiting.
  public func dispatchPending() {
    for source in sources { source.prepareToWait() }
    dispatch(until: -.infinity)
  }

  /// One wait: until a descriptor is ready, a source's wake time or `deadline`.
  private func dispatch(until deadline: Double) {
    let watching = sources
    var owners: [(EventSource, FileDescriptor)] = []
    var polled: [pollfd] = []
    var wake = deadline
    for source in watching {
      let writing = source.writeDescriptors
      for descriptor in source.descriptors {
        owners.append((source, descriptor))
        let events = writing.contains(descriptor) ? POLLIN | POLLOUT : POLLIN
        polled.append(pollfd(fd: descriptor.rawValue, events: Int16(events), revents: 0))
      }
      for descriptor in writing where !source.descriptors.contains(descriptor) {
        owners.append((source, descriptor))
        polled.append(pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0))
      }
      if let time = source.wakeTime { wake = min(wake, time) }
    }
    if clock.poll(&polled, until: wake) {
      for (index, entry) in polled.enumerated() where entry.revents != 0 {
        let (source, descriptor) = owners[index]
        // A source removed by an earlier handler in this round is not called.
        guard sources.contains(where: { $0 === source }) else { continue }
        source.handle(descriptor, events: PollEvents(rawValue: entry.revents))
      }
    }
    let now = clock.now()
    for source in watching where (source.wakeTime ?? .infinity) <= now {
      if sources.contains(where: { $0 === source }) { source.wake() }
    }
  }
}
