// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem
import SplashTestSupport
import Testing

/// What /proc tells of another process.
@Suite struct ProcessesTests {
  /// A process takes a signal when it has a handler of its own for it
  /// (its SigCgt mask) or blocks it (SigBlk, for a signalfd): a shell that
  /// traps SIGUSR1 takes it, not SIGUSR2, which it ignores, nor SIGHUP,
  /// which it leaves as it is; a process started with SIGUSR2 blocked
  /// takes it; a process that is gone takes none.
  @Test func aHandlerOrABlockIsWhatTakesASignal() throws {
    let dir = try TemporaryDirectory()
    let trapped = dir.path + "/trapped"
    let shell = try StartedProcess(
      "/bin/sh", ["-c", "trap 'exit 0' USR1; trap '' USR2; : > \(trapped); while :; do sleep 0.1; done"])
    #expect(waitUntil { access(trapped, F_OK) == 0 }, "the shell never set its traps")
    #expect(Processes.takes(SIGUSR1, pid: shell.pid))
    #expect(!Processes.takes(SIGUSR2, pid: shell.pid))
    #expect(!Processes.takes(SIGHUP, pid: shell.pid))
    shell.child.send(SIGUSR1)
    #expect(try shell.finish(timeout: 10).status == 0)
    #expect(!Processes.takes(SIGUSR1, pid: shell.pid))
    // A child spawned with SIGUSR2 in its mask, which it keeps.
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGUSR2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setsigmask(&attributes, &blocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("30"), nil]
    defer { for argument in argv { free(argument) } }
    #expect(posix_spawn(&pid, "/bin/sleep", nil, &attributes, &argv, environ) == 0)
    #expect(waitUntil { Processes.takes(SIGUSR2, pid: pid) })
    #expect(!Processes.takes(SIGUSR1, pid: pid))
    kill(pid, SIGKILL)
    #expect(try statusOfChild(pid) & 0x7f == SIGKILL)
  }
}
