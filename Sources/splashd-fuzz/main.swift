// SPDX-License-Identifier: Apache-2.0
// splashd-fuzz: libFuzzer targets for what splashd reads from outside.
// `make fuzz` builds it with coverage and AddressSanitizer and runs every
// target; SPLASHD_FUZZ_TARGET names the one a run fuzzes. Built otherwise
// (as `swift build` does), it only says how it is meant to be run.
import Glibc

/// Writes `text` and a newline to standard error.
func complain(_ text: String) {
  let line = text + "\n"
  _ = line.withCString { write(2, $0, strlen($0)) }
}

#if FUZZING
  import CFuzzer

  guard let name = getenv("SPLASHD_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTargets.all[name] else {
    complain("splashd-fuzz: SPLASHD_FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted())")
    exit(2)
  }
  nonisolated(unsafe) var selected = target
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
      selected(UnsafeRawBufferPointer(start: data, count: size))
      return 0
    })
#else
  complain("splashd-fuzz: built without libFuzzer; `make fuzz` builds and runs it")
  exit(2)
#endif
