// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The machine's processes, as /proc shows them.
public enum Processes {
  /// The parent of process `pid` (the field after the state in
  /// /proc/PID/stat, whose name may hold spaces and parentheses); nil when
  /// it is gone or cannot be read.
  public static func parent(of pid: pid_t) -> pid_t? {
    guard let fields = statFields(of: pid), fields.count >= 2 else { return nil }
    return pid_t(String(decoding: fields[1], as: UTF8.self))
  }

  /// Whether process `pid` is running: there, and not a zombie (ended,
  /// waiting for its parent to reap it).
  public static func isRunning(_ pid: pid_t) -> Bool {
    guard let state = statFields(of: pid)?.first else { return false }
    return state.first != UInt8(ascii: "Z")
  }

  /// /proc/PID/stat's fields after the name (which may hold spaces and
  /// parentheses): the state first; nil when it is gone or cannot be read.
  private static func statFields(of pid: pid_t) -> [ArraySlice<UInt8>]? {
    guard let stat = try? Files.readPrefix(of: "/proc/\(pid)/stat", count: 4096),
      let nameEnd = stat.lastIndex(of: UInt8(ascii: ")"))
    else { return nil }
    return stat[(nameEnd + 1)...].split(separator: UInt8(ascii: " "))
  }
}
