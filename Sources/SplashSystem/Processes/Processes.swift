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
  /// /proc/PID/status), or blocks it to read it from a signalfd, as wvkbd
  /// does (SigBlk, with SIGTERM not blocked: a mask that blocks SIGTERM
  /// too is a moment's, such as a shell's while it waits for a command,
  /// after which the signal would end it). One that does neither would be
  /// ended by SIGUSR1 or SIGUSR2, or ignores them. SigBlk is the main
  /// thread's mask: a process whose other threads take the signal
  /// unblocked is not told apart. False when it is gone or cannot be read.
  public static func takes(_ signal: Int32, pid: pid_t) -> Bool {
    guard (1...64).contains(signal), let status = try? Files.readPrefix(of: "/proc/\(pid)/status", count: 8192)
    else { return false }
    let lines = String(decoding: status, as: UTF8.self).split(separator: "\n")
    func mask(_ field: String) -> UInt64 {
      guard let line = lines.first(where: { $0.hasPrefix(field) }) else { return 0 }
      return UInt64(line.dropFirst(field.count).filter { !$0.isWhitespace }, radix: 16) ?? 0
    }
    func has(_ mask: UInt64, _ signal: Int32) -> Bool { mask & (UInt64(1) << UInt64(signal - 1)) != 0 }
    let blocked = mask("SigBlk:")
    return has(mask("SigCgt:"), signal) || (has(blocked, signal) && !has(blocked, SIGTERM))
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
