// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What must last as long as the process and is never let go of: a DRM
/// card whose open file holds the frame left on the screen, an output
/// handed over whose files live on in the adopter. Held here, where a leak
/// checker sees it held, rather than with a retain nobody balances.
public enum KeptForLife {
  /// Guarded by `lock`.
  nonisolated(unsafe) private static var kept: [AnyObject] = []
  nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
  }()

  /// Keeps `object` until the process ends.
  public static func keep(_ object: AnyObject) {
    pthread_mutex_lock(lock)
    kept.append(object)
    pthread_mutex_unlock(lock)
  }
}
