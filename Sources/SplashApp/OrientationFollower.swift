import SplashCore
import SplashDevices
import SplashSystem

/// Follows an orientation device while the splash holds: an accelerometer
/// (each new orientation by the rule, the previous one kept on diagonals
/// and when lying flat) or a rotation switch (the map's angle for the
/// switches now on; none on keeps the angle). Each new angle is handed to
/// `turn`. Stops following, with a log line, when the device fails
/// (unplugged, say).
final class OrientationFollower {
  private let device: FollowedDevice
  private var orientation: Orientation?
  private var rotation: Rotation
  private var failed = false
  /// Turns the splash to an angle, for a cause ("the accelerometer");
  /// set once there is a splash to turn.
  var turn: ((Rotation, String) -> Void)?

  /// Follows `device`, starting from the angle in use.
  init(_ device: FollowedDevice, rotation: Rotation) {
    self.device = device
    self.rotation = rotation
    if case .accelerometer(_, let orientation) = device { self.orientation = orientation }
  }

  /// The device to wake for.
  var descriptors: [FileDescriptor] {
    guard !failed else { return [] }
    switch device {
    case .accelerometer(let accelerometer, _): return [accelerometer.device.descriptor]
    case .switches(let input, _): return [input.descriptor]
    }
  }

  /// Reads what the device sent; turns the splash when the angle changed.
  func service() {
    guard !failed else { return }
    var next: Rotation?
    do {
      switch device {
      case .accelerometer(let accelerometer, _):
        guard try accelerometer.update(),
          let decided = OrientationRule.decide(accelerometer.reading, previous: orientation), decided != orientation
        else { return }
        orientation = decided
        next = decided.rotation
      case .switches(let input, let map):
        guard try !input.readEvents().isEmpty else { return }
        next = input.rotation(from: map)
      }
    } catch {
      Log.error("rotation: \(error.message); no longer following it")
      failed = true
      return
    }
    guard let next, next != rotation else { return }
    rotation = next
    if case .accelerometer = device { turn?(next, "the accelerometer") } else { turn?(next, "the rotation switch") }
  }
}
