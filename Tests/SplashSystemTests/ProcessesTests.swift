// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem
import SplashTestSupport
import Testing

/// What /proc tells of another process.
@Suite struct ProcessesTests {
  /// Starts `arguments` (the first a path) with exactly `blocked` in its
  /// signal mask and SIGUSR1, SIGUSR2 and SIGHUP at their default actions,
  /// whatever the thread that starts it has.
  func spawn(_ arguments: [String], blocking blocked: [Int32] = []) throws -> pid_t {
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in blocked { sigaddset(&mask, signal) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGUSR1, SIGUSR2, SIGHUP] { sigaddset(&defaults, signal) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], nil, &attributes, &argv, environ)
    guard result == 0 else { throw TestFailure("posix_spawn \(arguments[0]): \(result)") }
    return pid
  }

  /// A process takes a signal when it has a handler of its own for it
  /// (its SigCgt mask) or blocks it (SigBlk, for a signalfd): a shell that
  /// traps SIGUSR1 takes it, not SIGUSR2, which it ignores, nor SIGHUP,
  /// which it leaves as it is (nor while it blocks everything as it waits
  /// for its `sleep`); a process started with SIGUSR2 blocked takes it,
  /// not SIGUSR1, and one that blocks SIGTERM too does not; a process
  /// that is gone takes none.
  @Test func aHandlerOrABlockIsWhatTakesASignal() throws {
    let dir = try TemporaryDirectory()
    let trapped = dir.path + "/trapped"
    let shell = try spawn(
      ["/bin/sh", "-c", "trap 'exit 0' USR1; trap '' USR2; : > \(trapped); while :; do sleep 0.1; done"])
    #expect(waitUntil { access(trapped, F_OK) == 0 }, "the shell never set its traps")
    // Read many times: the shell blocks every signal for moments as it waits.
    for _ in 0..<200 {
      #expect(Processes.takes(SIGUSR1, pid: shell))
      #expect(!Processes.takes(SIGUSR2, pid: shell))
      #expect(!Processes.takes(SIGHUP, pid: shell))
      usleep(1000)
    }
    kill(shell, SIGUSR1)
    #expect(try statusOfChild(shell) == 0, "the shell did not exit by its trap")
    #expect(!Processes.takes(SIGUSR1, pid: shell))
    let sleeper = try spawn(["/bin/sleep", "30"], blocking: [SIGUSR2])
    #expect(waitUntil { Processes.takes(SIGUSR2, pid: sleeper) })
    #expect(!Processes.takes(SIGUSR1, pid: sleeper))
    kill(sleeper, SIGKILL)
    #expect(try statusOfChild(sleeper) & 0x7f == SIGKILL)
    let blocksAll = try spawn(["/bin/sleep", "30"], blocking: [SIGUSR2, SIGTERM])
    let status = {
      String(decoding: (try? Files.readPrefix(of: "/proc/\(blocksAll)/status", count: 8192)) ?? [], as: UTF8.self)
    }
    #expect(waitUntil { status().contains("SigBlk:\t0000000000004800") })
    #expect(!Processes.takes(SIGUSR2, pid: blocksAll))
    kill(blocksAll, SIGKILL)
    #expect(try statusOfChild(blocksAll) & 0x7f == SIGKILL)
  }
}
