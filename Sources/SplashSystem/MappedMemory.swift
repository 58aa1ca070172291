// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Zero-filled anonymous memory, unmapped when released.
public final class MappedMemory {
  public let address: UnsafeMutableRawPointer
  public let length: Int
  private var populator: pthread_t?

  public init(length: Int) throws(SystemError) {
    guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      mapped != MAP_FAILED
    else { throw SystemError("mmap \(length) bytes", code: errno) }
    address = mapped
    self.length = length
  }

  /// Has a helper thread fault every page in while this one goes on, so
  /// that whoever writes the memory first finds it ready: on these machines
  /// first-touch faults cost about 4 ms per 8 MiB frame. Uses
  /// MADV_POPULATE_WRITE (Linux 5.14), which never changes the contents and
  /// so may race with writers; on older kernels it does nothing.
  public func populateInBackground() {
    guard populator == nil else { return }
    let region = Unmanaged.passRetained(Region(address: address, length: length))
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { context in
        let region = Unmanaged<Region>.fromOpaque(context!).takeRetainedValue()
        _ = madvise(region.address, region.length, MADV_POPULATE_WRITE)
        return nil
      }, region.toOpaque())
    if started == 0 {
      populator = thread
    } else {
      region.release()
    }
  }

  deinit {
    if let populator { pthread_join(populator, nil) }
    munmap(address, length)
  }
}

/// The part of a mapping the helper thread populates.
private final class Region {
  let address: UnsafeMutableRawPointer
  let length: Int
  init(address: UnsafeMutableRawPointer, length: Int) {
    self.address = address
    self.length = length
  }
}
