// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SplashSystem
import SplashTestSupport
import Testing

/// Recurses until the stack runs out: each frame keeps a buffer alive
/// across the call, so no optimiser can turn it into a loop.
@inline(never) private func overflow(_ depth: Int) -> Int {
  var frame = (depth, depth, depth, depth, depth, depth, depth, depth)
  return withUnsafeMutableBytes(of: &frame) { bytes in
    bytes[0] = UInt8(truncatingIfNeeded: depth)
    return overflow(depth + 1) + Int(bytes[0])
  }
}

/// Whether this test run is under AddressSanitizer, whose own SIGSEGV
/// handler and larger frames change what an overflow does.
private let underAddressSanitizer = dlsym(dlopen(nil, RTLD_LAZY), "__asan_init") != nil

/// Each test forks a child that crashes. Not under ThreadSanitizer, whose
/// runtime does not support a child of a threaded process that goes on
/// running: such a child has blocked there for good (a stack overflow's
/// once in CI), which these tests' bound turns into a failure.
@Suite(.enabled(if: !runsUnderThreadSanitizer)) struct CrashHandOffTests {
  /// A crash that is a stack overflow (the thread's stack is what is gone)
  /// still hands off to the program: the handler runs on the alternate
  /// stack splashd keeps for it. Without one, the kernel finds no room for
  /// the handler's frame and the process dies of SIGSEGV. In a forked
  /// child (the hand-off is process-wide), which only prepares the
  /// hand-off and recurses; its program exits 42.
  @Test(.enabled(if: !underAddressSanitizer)) func aStackOverflowStillHandsOffToTheProgram() throws {
    // A child that hangs ends by SIGALRM, which the test reports.
    let status = try statusOfAForkedChild {
      CrashHandOff.keepAStackForTheHandler()
      CrashHandOff.runProgram(path: "/bin/sh", arguments: ["sh", "-c", "exit 42"], environment: [:])
      _exit(Int32(truncatingIfNeeded: overflow(0)))
    }
    let signal = status & 0x7f
    #expect(signal == 0, "the child was ended by signal \(signal), not handed off")
    #expect(signal == 0 && (status >> 8) & 0xff == 42, "the child exited \((status >> 8) & 0xff), not the program's 42")
  }

  /// A crash first writes what it was told to the files open for it (a
  /// backlight's brightness, turned down), at their start, and no longer
  /// once told to stop; then the signal ends the process as it would have.
  /// In a forked child: a file with "0" to which "937" is to be written,
  /// one to which "5" no longer is, then SIGSEGV.
  @Test func aCrashWritesTheFilesItWasToldTo() throws {
    let dir = try TemporaryDirectory()
    let (written, withdrawn) = (dir.path + "/brightness", dir.path + "/other")
    for path in [written, withdrawn] { try Files.write("0", to: path) }
    let status = try statusOfAForkedChild {
      let first = open(written, O_WRONLY | O_CLOEXEC)
      let second = open(withdrawn, O_WRONLY | O_CLOEXEC)
      guard first >= 0, second >= 0 else { _exit(3) }
      // Where the file is does not matter: the handler writes at its start.
      _ = lseek(first, 1, SEEK_SET)
      CrashHandOff.write("937", to: first)
      CrashHandOff.write("5", to: second)
      CrashHandOff.stopWriting(to: second)
      kill(getpid(), SIGSEGV)
    }
    #expect(status & 0x7f == SIGSEGV, "the child ended with \(status), not by its SIGSEGV")
    #expect(try Files.readText(written) == "937")
    #expect(try Files.readText(withdrawn) == "0")
  }

  /// A crash tells systemd what it was told to (`sendOnCrash`: its
  /// watchdog off, for the program that takes splashd's place), through
  /// the notify socket, before the signal ends the process. In a forked
  /// child, whose notify socket is this test's.
  @Test func aCrashTellsSystemdWhatItWasToldTo() throws {
    let systemd = try NotifyListener()
    let status = try statusOfAForkedChild {
      guard let notifier = SystemdNotifier(socketPath: systemd.name), notifier.sendOnCrash("WATCHDOG_USEC=0") else {
        _exit(3)
      }
      notifier.send("READY=1")
      kill(getpid(), SIGSEGV)
    }
    #expect(status & 0x7f == SIGSEGV, "the child ended with \(status), not by its SIGSEGV")
    let received = systemd.received().flatMap(\.lines)
    #expect(received == ["READY=1", "WATCHDOG_USEC=0"])
  }
}
