// SPDX-License-Identifier: Apache-2.0

/// Which processes are a program's: itself and those it started, and
/// theirs (host mode: a client of the compositor is the program's when its
/// process is).
public enum ProcessAncestry {
  /// Whether process `pid` is `ancestor` or descends from it, following
  /// `parent` (a process's parent; nil when it is gone or unknown) at most
  /// `limit` generations up. Process 1 and 0 descend from nothing.
  public static func descends(
    _ pid: Int32, from ancestor: Int32, limit: Int = 64, parent: (Int32) -> Int32?
  ) -> Bool {
    var current = pid
    for _ in 0...limit {
      if current == ancestor { return true }
      guard current > 1, let next = parent(current) else { return false }
      current = next
    }
    return false
  }
}
