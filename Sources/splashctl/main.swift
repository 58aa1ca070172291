// SPDX-License-Identifier: Apache-2.0
// splashctl: talks to a running splashd over its control socket.
import Glibc
import SplashCore
import SplashSystem

func fail(_ status: Int32, _ message: String) -> Never {
  try? FileDescriptor.standardError.writeAll("splashctl: \(message)\n")
  exit(status)
}

// A splashd that hangs up is reported (EPIPE), not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)
var arguments = Array(ThisProcess.arguments.dropFirst())
var path = Environment.value("SPLASHD_CONTROL") ?? SplashctlUsage.defaultControl
if arguments.first == "--help" || arguments.first == "-h" {
  try? FileDescriptor.standardOutput.writeAll(SplashctlUsage.text)
  exit(0)
}
if arguments.first == "--version" || arguments.first == "-V" {
  try? FileDescriptor.standardOutput.writeAll("splashctl \(Build.version(splashdVersion))\n")
  exit(0)
}
if arguments.first == "--control" {
  guard arguments.count >= 2 else { fail(2, "--control needs a path (see splashctl --help)") }
  path = arguments[1]
  arguments.removeFirst(2)
} else if let first = arguments.first, first.hasPrefix("--control=") {
  path = String(first.dropFirst("--control=".count))
  arguments.removeFirst()
}
guard !arguments.isEmpty else { fail(2, "no command given (see splashctl --help)") }
// The snapshot's file is splashctl's to write, with its user's rights and
// in its directory: splashd only sends the bytes. The command is known by
// what its word parses to, its placeholder taken from the table.
var snapshotFile: String?
if let verb = arguments.first, let spec = ControlCommandTable.spec(named: verb), let placeholder = spec.argument,
  ControlCommand.parse(verb) == .success(.snapshot)
{
  guard arguments.count == 2, !arguments[1].isEmpty else {
    fail(2, "\(verb) needs one \(placeholder), or - for standard output (see splashctl --help)")
  }
  snapshotFile = arguments[1]
  arguments.removeLast()
}
let line = arguments.joined(separator: " ")
let command: ControlCommand
switch ControlCommand.parse(line) {
case .success(let parsed): command = parsed
case .failure(let error): fail(2, "\(error.message) (see splashctl --help)")
}

var connection: ControlConnection
do {
  connection = try ControlConnection(path: path)
} catch {
  fail(1, "cannot reach splashd at \(path): \(error.phrase)")
}
do {
  try connection.send(line)
} catch {
  fail(1, "cannot send to splashd at \(path): \(error.phrase)")
}

// One reply line, however long splashd takes (wait can take the whole splash).
guard let reply = connection.replyLine() else {
  if case .wait(let event) = command { fail(1, "splashd ended without \(event.rawValue)") }
  if case .ask = command { fail(1, "splashd ended without an answer") }
  fail(1, "splashd closed the connection without a reply")
}
let text: String
switch parseControlReply(reply) {
case .success(let said): text = said
case .failure(let refusal): fail(1, refusal.message)
}
switch command {
case .status, .ask, .screen: try? FileDescriptor.standardOutput.writeAll(text + "\n")
default: break
}
if let snapshotFile {
  let words = reply.split(separator: " ")
  guard words.count == 3, words[1] == "png", let length = Int(words[2]), length >= 0 else {
    fail(1, "splashd's reply to snapshot is not \"ok png LENGTH\": \(printable(reply))")
  }
  var came = 0
  guard let png = connection.bytes(length, partial: &came) else {
    fail(1, "splashd ended the snapshot after \(came) of \(length) bytes")
  }
  do {
    if snapshotFile == "-" {
      try png.withUnsafeBytes { raw in
        Result { () throws(SystemError) in try FileDescriptor.standardOutput.writeAll(raw) }
      }.get()
    } else {
      try Files.write(png, to: snapshotFile)
    }
  } catch {
    fail(
      1,
      "cannot write the snapshot to \(snapshotFile == "-" ? "standard output" : printable(snapshotFile)): \(error.phrase)"
    )
  }
}
exit(0)
