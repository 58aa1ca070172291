// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// Where display devices' comings and goings are read: the kernel's
/// uevents, or (in tests) a stand-in.
protocol DisplayDeviceEvents: AnyObject {
  var descriptor: FileDescriptor { get }
  /// The display events waiting, and whether some may have been lost.
  func read() -> (events: [DisplayDeviceEvent], lost: Bool)
}

/// The kernel's uevents (netlink), as display events.
final class KernelDisplayEvents: DisplayDeviceEvents {
  private let socket: KernelEventSocket

  init() throws(SystemError) { socket = try KernelEventSocket() }

  var descriptor: FileDescriptor { socket.descriptor }

  func read() -> (events: [DisplayDeviceEvent], lost: Bool) {
    let (messages, lost) = socket.receive()
    return (messages.compactMap { KernelUevent($0)?.display }, lost)
  }
}

/// What the display follower asks of the session.
protocol DisplayMover: AnyObject {
  /// A display device appeared, went away or changed (nil: events were
  /// lost, anything may have); returns whether to look again shortly (a
  /// card that is there but not usable yet).
  func displayChanged(_ event: DisplayDeviceEvent?, at time: Double) -> Bool
}

/// Follows display devices while the splash runs, so that it moves to a
/// better one (a KMS card replacing the firmware's framebuffer) or away from
/// one that went: each event goes to the session; a card that cannot be used
/// yet (its connectors not probed) is looked at again every 100 ms for 3 s.
final class DisplayFollower: EventSource {
  private let events: DisplayDeviceEvents
  private weak var mover: DisplayMover?
  private let clock: EventClock
  /// The event to look at again, and until when.
  private var retry: (event: DisplayDeviceEvent, next: Double, until: Double)?
  static let retryInterval = 0.1
  static let retryFor = 3.0

  init(_ events: DisplayDeviceEvents, mover: DisplayMover, clock: EventClock) {
    self.events = events
    self.mover = mover
    self.clock = clock
  }

  var descriptors: [FileDescriptor] { [events.descriptor] }

  var wakeTime: Double? { retry?.next }

  func handle(_ descriptor: FileDescriptor, events _: PollEvents) {
    let (events, lost) = self.events.read()
    let now = clock.now()
    for event in events { consider(event, at: now) }
    if lost { _ = mover?.displayChanged(nil, at: now) }
  }

  func wake() {
    guard let retry else { return }
    self.retry = nil
    let now = clock.now()
    if mover?.displayChanged(retry.event, at: now) == true, now + Self.retryInterval <= retry.until {
      self.retry = (retry.event, now + Self.retryInterval, retry.until)
    }
  }

  private func consider(_ event: DisplayDeviceEvent, at now: Double) {
    if mover?.displayChanged(event, at: now) == true {
      retry = (event, now + Self.retryInterval, now + Self.retryFor)
    } else if retry?.event.node == event.node {
      retry = nil
    }
  }
}
