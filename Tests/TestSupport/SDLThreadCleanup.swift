// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Glibc

/// SDL 2.26 keeps each thread's last error in thread-local storage that it
/// frees only for the threads it made itself (SDL_TLSCleanup). splashd calls
/// SDL from its one main thread, but the test runner's worker threads come
/// and go, and one that saw an SDL error would leave that storage behind,
/// which LeakSanitizer reports. A test that calls SDL registers its thread
/// here; when the thread ends, SDL's storage for it is freed.
public enum SDLThreadCleanup {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(
      pthread_key_create(&key) { _ in SDL_TLSCleanup() } == 0)
    return key
  }()

  /// Frees SDL's storage for the calling thread when it ends (once per thread is enough; more is harmless).
  public static func register() {
    _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
  }
}
