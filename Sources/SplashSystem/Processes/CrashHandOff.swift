// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// What a crash of splashd does before it ends: the console's keyboard
/// put back, files removed, and the program run in its place, so that a
/// broken splash never keeps the machine from its program.
public enum CrashHandOff {
  /// From now on, a fatal signal (a crash: SIGSEGV, SIGBUS, SIGILL, SIGFPE,
  /// SIGABRT, SIGTRAP) replaces the process with the program at `path`,
  /// with `environment` as its whole environment (as `user` when given),
  /// instead of ending it, so that a broken splash never keeps the machine
  /// from its program. Everything is prepared now, since only execve may be
  /// called from the signal handler.
  public static func runProgram(
    path: String, arguments: [String], environment: [String: String], as user: ProgramUser? = nil
  ) {
    crashPath = strdup(path)
    crashArguments = ThisProcess.cStrings(arguments)
    preparedEnvironment = environment
    crashEnvironment = prepare(environment)
    crashUser = user.map { found in
      let groups = UnsafeMutablePointer<gid_t>.allocate(capacity: max(1, found.groups.count))
      groups.initialize(from: found.groups, count: found.groups.count)
      return CrashUser(uid: found.uid, gid: found.gid, groupCount: Int32(found.groups.count), groups: groups)
    }
    installCrashHandler()
  }

  /// Sets `name` to `value` in the environment a crash runs the program
  /// with (a new angle: SPLASHD_ROTATION), when one would be run.
  public static func setVariable(_ name: String, _ value: String) {
    guard crashPath != nil else { return }
    preparedEnvironment[name] = value
    // The table before stays allocated: a crash may be reading it now.
    crashEnvironment = prepare(preparedEnvironment)
  }

  /// `environment` as execve takes it, in memory of its own.
  private static func prepare(_ environment: [String: String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
    let strings = Environment.cStrings(environment)
    let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count)
    table.initialize(from: strings, count: strings.count)
    return table
  }

  /// Undoes `runProgram`: a crash ends the process again (for a
  /// splashd whose program already runs as its child).
  public static func stopRunningProgram() {
    crashPath = nil
    crashArguments = nil
    crashEnvironment = nil
    crashUser = nil
  }

  /// From now on, a crash removes the file at `path` first (a socket that
  /// would be left behind), until `keep` says otherwise.
  public static func remove(_ path: String) {
    for slot in 0..<crashFileSlots where crashFiles[slot] == nil {
      crashFiles[slot] = strdup(path)
      installCrashHandler()
      return
    }
  }

  /// Stops removing `path` on a crash (it was removed, or given up).
  public static func keep(_ path: String) {
    for slot in 0..<crashFileSlots {
      if let file = crashFiles[slot], String(cString: file) == path {
        crashFiles[slot] = nil
        free(file)
      }
    }
  }

  /// From now on, a crash first puts the keyboard mode `mode` back on the
  /// terminal open at `descriptor` (a console whose keyboard was turned
  /// off), until `stopRestoringKeyboard`.
  public static func restoreKeyboard(descriptor: Int32, mode: UInt) {
    crashKeyboard = CrashKeyboard(descriptor: descriptor, mode: mode)
    installCrashHandler()
  }

  /// Undoes `restoreKeyboard` (the mode was put back).
  public static func stopRestoringKeyboard() { crashKeyboard = nil }

  /// From now on, a crash first writes `text` (at most 32 bytes) at the
  /// start of the file open at `descriptor` (a backlight's brightness,
  /// turned down: the level it had; or a connected socket, sent as it is),
  /// until `stopWriting(to:)`; at most 8
  /// such files (false when it is not written). From the main thread.
  @discardableResult
  public static func write(_ text: String, to descriptor: Int32) -> Bool {
    guard text.withCString({ splashd_crash_write_add(descriptor, $0, strlen($0)) }) == 0 else { return false }
    installCrashHandler()
    return true
  }

  /// Stops writing to `descriptor` on a crash (it is about to be closed).
  public static func stopWriting(to descriptor: Int32) { splashd_crash_write_remove(descriptor) }

  /// Gives the calling thread (the main thread, at start) a stack of its
  /// own for the crash handler, so that a crash that is a stack overflow
  /// (a client's deep surface tree once was one) still hands off: without
  /// it, the kernel finds no room for the handler's frame and ends the
  /// process at once. False when it could not be had (a crash is then
  /// handled as before, an overflow not at all).
  @discardableResult
  public static func keepAStackForTheHandler() -> Bool { splashd_alternate_signal_stack() == 0 }

  /// The handler for the fatal signals: it puts a console's keyboard mode
  /// back, writes and removes the files it was told to, then execs the program if
  /// there is one, else lets the signal end the process as it would have.
  private static func installCrashHandler() {
    // The globals the handler reads are initialised here, never there.
    _ = (crashKeyboard, crashPath, crashArguments, crashEnvironment, crashUser, crashFiles)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      // Only async-signal-safe calls here: ioctl(2), lseek(2), write(2), unlink(2), setrlimit(2), execve(2),
      // raise(3).
      if let keyboard = crashKeyboard { _ = splashd_ioctl_value(keyboard.descriptor, UInt(KDSKBMODE), keyboard.mode) }
      splashd_crash_writes_run()
      for slot in 0..<crashFileSlots { if let file = crashFiles[slot] { unlink(file) } }
      if let path = crashPath, let arguments = crashArguments, let environment = crashEnvironment {
        let message: StaticString = "splashd: crashed; handing off to the program\n"
        _ = Glibc.write(2, message.utf8Start, message.utf8CodeUnitCount)
        restoreSignalMask()
        splashd_descriptor_limit_for_programs(1)
        if let user = crashUser {
          // As its user, or not at all.
          if splashd_become(user.uid, user.gid, user.groupCount, user.groups) != 0 { _exit(127) }
        }
        execve(path, arguments, environment)
        _exit(127)
      }
      // SA_RESETHAND has put the default action back.
      raise(signal)
    }
    sigemptyset(&action.sa_mask)
    // On the alternate stack (keepAStackForTheHandler), where there is one:
    // an overflow leaves no room on the thread's own.
    action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_ONSTACK))
    for signal in crashSignals where signal != SIGBUS { sigaction(signal, &action, nil) }
    // A read of a mapped file that was cut short is not a crash (MappedFile),
    // nor one of a Wayland client's pool that wl_shm guards: SIGBUS goes
    // through the guards first, which keep their order.
    splashd_mapping_guard_goes_first(&action)
  }

  private static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
}

/// What the crash handler execs; set before the handler is installed.
nonisolated(unsafe) private var crashPath: UnsafeMutablePointer<CChar>?
/// The files the crash handler removes: a fixed table, read without
/// allocating or retaining anything in the handler.
private let crashFileSlots = 8
nonisolated(unsafe) private let crashFiles: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
  let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: crashFileSlots)
  table.initialize(repeating: nil, count: crashFileSlots)
  return table
}()
nonisolated(unsafe) private var crashArguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// The program's whole environment, for the handler, and as it was given.
nonisolated(unsafe) private var crashEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
nonisolated(unsafe) private var preparedEnvironment: [String: String] = [:]
/// The user the crash hand-off becomes, prepared for the handler (no
/// allocation there).
nonisolated(unsafe) private var crashUser: CrashUser?

/// A program's user as the crash handler needs it: ids and groups, ready
/// for the system calls.
private struct CrashUser {
  let uid: uid_t
  let gid: gid_t
  let groupCount: Int32
  let groups: UnsafeMutablePointer<gid_t>
}
/// The console keyboard the crash handler turns back on.
nonisolated(unsafe) private var crashKeyboard: CrashKeyboard?

/// A terminal's descriptor and the keyboard mode to put back on it.
private struct CrashKeyboard {
  let descriptor: Int32
  let mode: UInt
}
