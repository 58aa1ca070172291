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

  /// Whether process `pid` takes `signal` rather than being ended by it:
  /// it has a handler of its own for it (its bit in the SigCgt mask of
  /// /proc/PID/status) or blocks it (SigBlk: to read it from a signalfd,
  /// as wvkbd does). One that does neither would be ended by SIGUSR1 or
  /// SIGUSR2, or ignores them. False when it is gone or cannot be read.
  public static func takes(_ signal: Int32, pid: pid_t) -> Bool {
    guard (1...64).contains(signal), let status = try? Files.readPrefix(of: "/proc/\(pid)/status", count: 8192)
    else { return false }
    let bit = UInt64(1) << UInt64(signal - 1)
    let lines = String(decoding: status, as: UTF8.self).split(separator: "\n")
    return ["SigCgt:", "SigBlk:"].contains { field in
      guard let line = lines.first(where: { $0.hasPrefix(field) }),
        let mask = UInt64(line.dropFirst(field.count).filter { !$0.isWhitespace }, radix: 16)
      else { return false }
      return mask & bit != 0
    }
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
