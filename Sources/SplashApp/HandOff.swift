import SplashCore
import SplashSystem

/// The program splashd hands the machine to once the splash is done: the
/// process becomes that program (same PID, streams and cgroup).
struct HandOff {
  let arguments: [String]
  /// Where the program was found; nil when it was not.
  let path: String?

  /// Locates `program` (PATH lookup like a shell) and, once found, makes a
  /// crash of splashd hand off to it too. Nil for an empty program.
  init?(program: [String]) {
    guard let name = program.first else { return nil }
    arguments = program
    path = Program.locate(name, searchPath: Environment.value("PATH"))
    if let path { Program.replaceProcessOnCrash(path: path, arguments: program) }
  }

  /// Replaces splashd with the program. Returns only when that cannot be
  /// done, with exit status 127 after saying why.
  func run() -> Int32 {
    guard let path else {
      Log.error("cannot run \(arguments[0]): not found (looked in PATH)")
      return ExitStatus.cannotRun
    }
    Log.info("handing off to \(path)")
    let error = Program.replaceProcess(path: path, arguments: arguments)
    Log.error("cannot run \(path): \(error.phrase)")
    return ExitStatus.cannotRun
  }
}
