// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// When splashd last handed the screen to its program, kept across starts
/// (under systemd, in /run/splashd): a program that fails at once and is
/// started again by `Restart=` would otherwise get the whole splash, doors
/// and all, at every restart. A start within `restart-window` seconds of the
/// last hand-off to the same program hands off at once.
struct HandOffRecord {
  /// Where it is kept.
  let path: String

  /// Where splashd keeps it under systemd.
  static let systemPath = "/run/splashd/last-hand-off"

  /// The seconds (on CLOCK_MONOTONIC, the same in every process) since
  /// `program` was last handed the screen; nil when it never was, or the
  /// record is not one splashd wrote (not a regular file of this user's
  /// in a folder nobody else may write, or not the form it writes).
  func secondsSinceLastHandOff(to program: String, now: Double) -> Double? {
    guard Files.distrust(folder: Files.directory(of: path)) == nil,
      let bytes = try? Files.readRegularFile(path, limit: 4096)
    else { return nil }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_uid == geteuid() else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let space = text.firstIndex(of: " "), let time = Double(text[..<space]), time.isFinite,
      String(text[text.index(after: space)...]) == program + "\n", time <= now
    else { return nil }
    return now - time
  }

  /// Notes that `program` is handed the screen now; a record that cannot be
  /// written costs the next start its check, nothing else.
  func handingOff(to program: String, now: Double) {
    try? Files.makeDirectories(Files.directory(of: path))
    try? Files.writeAtomically(Array("\(formatFixed(now, decimals: 3)) \(program)\n".utf8), to: path)
  }
}
