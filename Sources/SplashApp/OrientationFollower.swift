import SplashCore
import SplashDevices
import SplashSystem

/// Follows an evdev accelerometer while the splash holds: each new
/// orientation (by the rule, with the previous one kept on diagonals and
/// when lying flat) is handed to `turn`. Stops following, with a log line,
/// when the device fails (unplugged, say).
final class OrientationFollower {
  let accelerometer: EvdevAccelerometer
  private var orientation: Orientation?
  private var failed = false
  /// Turns the splash; set once there is a splash to turn.
  var turn: ((Rotation) -> Void)?

  init(_ accelerometer: EvdevAccelerometer, orientation: Orientation?) {
    self.accelerometer = accelerometer
    self.orientation = orientation
  }

  /// The device to wake for.
  var descriptors: [FileDescriptor] { failed ? [] : [accelerometer.device.descriptor] }

  /// Reads what the device sent; turns the splash when the orientation changed.
  func service() {
    guard !failed else { return }
    do {
      guard try accelerometer.update() else { return }
    } catch {
      Log.error("rotation: \(error.message); no longer following it")
      failed = true
      return
    }
    let decided = OrientationRule.decide(accelerometer.reading, previous: orientation)
    guard let decided, decided != orientation else { return }
    orientation = decided
    turn?(decided.rotation)
  }
}
