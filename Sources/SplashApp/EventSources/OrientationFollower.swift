// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashSystem

/// Follows an orientation device (an accelerometer, a rotation switch)
/// while the splash holds: each new angle it means turns the splash
/// through the controller, as `splashctl rotate` does. Stops following,
/// with a log line, when the device fails (unplugged, say).
final class OrientationFollower: EventSource {
  private let device: AngleSource
  private let controller: Controller
  private let log: Log
  private var failed = false

  init(_ device: AngleSource, controller: Controller, log: Log) {
    self.device = device
    self.controller = controller
    self.log = log
  }

  var descriptors: [FileDescriptor] { failed ? [] : [device.descriptor] }

  /// Reads what the device sent; turns the splash when the angle changed.
  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    let next: Rotation?
    do throws(DeviceError) {
      next = try device.read()
      // A device that hung up and sent nothing has gone.
      if next == nil && !events.isDisjoint(with: [.hangUp, .error]) { throw DeviceError("\(device.path): it hung up") }
    } catch {
      log.error("rotation: \(error.message); no longer following it")
      failed = true
      return
    }
    guard let next, controller.turns, next != controller.rotation else { return }
    if case .error(let problem) = controller.execute(.rotate(next), because: device.cause) { log.error(problem) }
  }
}
