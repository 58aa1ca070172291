// SPDX-License-Identifier: Apache-2.0
import CLinux

/// The process's malloc heap.
public enum Heap {
  /// Gives the memory freed on the heap back to the system (malloc_trim):
  /// after large buffers go, glibc otherwise keeps it for later allocations.
  public static func returnFreedMemory() { _ = malloc_trim(0) }
}
