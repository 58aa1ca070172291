// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// The executable's own code and read-only data, as the kernel maps them
/// from its file.
public enum ExecutableCode {
  /// The read-only segments' bounds (page-aligned), from the auxiliary vector.
  public static var readOnlySegments: [(start: UInt, length: Int)] {
    var starts = [UInt](repeating: 0, count: 8)
    var lengths = [UInt](repeating: 0, count: 8)
    let count = Int(splashd_program_read_only_segments(&starts, &lengths, Int32(starts.count)))
    return (0..<min(count, starts.count)).map { (starts[$0], Int(lengths[$0])) }
  }

  /// Lets go of this process's mappings of the pages of its read-only
  /// segments (MADV_DONTNEED; never its writable data): they stay in the
  /// page cache, what runs later is mapped again from there as it runs (a
  /// minor fault, 64 KiB at a time), and the rest becomes memory the kernel
  /// can reclaim. For a long-lived process done with most of its code.
  public static func letGoOfMappedPages() {
    for segment in readOnlySegments {
      _ = madvise(UnsafeMutableRawPointer(bitPattern: segment.start), segment.length, MADV_DONTNEED)
    }
  }
}
