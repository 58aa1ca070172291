// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// Host mode's program's standard error: a pipe (`ForwardedPipe`) that
/// splashd drains as the run loop turns and forwards unchanged to its own
/// standard error (the journal under systemd, as before), keeping the
/// last lines in a bounded ring (`LineRing`: a few KiB, a few dozen
/// lines, whatever the program writes) for the diagnostic screen. One
/// pipe for every start of the program.
final class ProgramStderr: EventSource {
  let pipe: ForwardedPipe
  /// The last lines the program wrote.
  private(set) var ring = LineRing()
  /// Whether the pipe can still bring something.
  private var open = true

  /// A pipe forwarding to `destination` (splashd's standard error).
  init(forwardingTo destination: FileDescriptor) throws(SystemError) {
    pipe = try ForwardedPipe(forwardingTo: destination)
  }

  /// What the program gets as its standard error.
  var writeEnd: FileDescriptor { pipe.writeEnd }

  /// The last lines, oldest first.
  var lastLines: [String] { ring.lines }

  var descriptors: [FileDescriptor] { open ? [pipe.readEnd] : [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) { drain() }

  /// Takes in what the pipe holds now (before a report is made, too).
  func drain() {
    guard open else { return }
    open = pipe.drain { ring.append($0) }
  }
}
