// SPDX-License-Identifier: Apache-2.0
import SplashSystem

/// `--until-file`: reveals the splash once the file exists, woken by
/// inotify (`PathWatch`), never by polling.
final class FileGate: EventSource {
  private let watch: PathWatch
  private let controller: Controller
  private var done = false

  /// Watches `path` from now on; reveals at once when it exists already.
  init(path: String, controller: Controller) throws(SystemError) {
    watch = try PathWatch(path: path)
    self.controller = controller
    check()
  }

  var descriptors: [FileDescriptor] { done ? [] : [watch.descriptor] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    watch.drain()
    check()
  }

  private func check() {
    guard !done, watch.exists() else { return }
    done = true
    _ = controller.execute(.reveal, because: "\(watch.path) exists")
  }
}
