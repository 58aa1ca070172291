// SPDX-License-Identifier: Apache-2.0
// splashd-docs: writes the manual pages and bash completions, made from the
// settings table and splashctl's commands, into a folder (make docs).
import Glibc
import SplashApp
import SplashCore
import SplashManual
import SplashSystem

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let folder = arguments.first else {
  try? FileDescriptor.standardError.writeAll("usage: splashd-docs FOLDER\n")
  exit(2)
}
let backEnds = Outputs.help(Outputs.registry)
let files: [(String, String)] = [
  ("man/splashd.8", Manual.splashd(backEnds: backEnds)),
  ("man/splashd.conf.5", Manual.config()),
  ("man/splashctl.1", Manual.splashctl()),
  ("completions/splashd", Completion.splashd(backEnds: backEnds.map(\.name))),
  ("completions/splashctl", Completion.splashctl()),
]
do {
  for (name, text) in files {
    let path = folder + "/" + name
    try Files.makeDirectories(Files.directory(of: path))
    try Files.write(text, to: path)
  }
} catch {
  try? FileDescriptor.standardError.writeAll("splashd-docs: \(error)\n")
  exit(1)
}
