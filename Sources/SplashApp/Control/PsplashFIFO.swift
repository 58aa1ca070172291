// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// psplash's FIFO (`--compat psplash`), so that `psplash-write` works
/// unchanged: `$PSPLASH_FIFO_DIR/psplash_fifo` (/run by default), its
/// commands cut and parsed by `PsplashCommandBuffer` and executed by the
/// controller; what psplash ignores is ignored with a debug line. splashd
/// holds the FIFO open for the whole splash, so every later writer finds a
/// reader.
final class PsplashFIFO: ControlTransport {
  let path: String
  private let pipe: NamedPipe
  private let controller: Controller
  private let log: Log
  private let keepOnCrash: (String) -> Void
  private let now: () -> Double
  private var input = PsplashCommandBuffer()
  /// What is said of commands ignored or dropped: a writer may send millions.
  private var ignoredLines = LogLimit()

  /// The most bytes read in one turn of the run loop: a writer that keeps
  /// the FIFO full cannot hold the splash in its read loop.
  static let maxBytesPerTurn = 64 << 10

  /// The FIFO, when `context`'s settings ask for it and it can be had; a
  /// FIFO another program reads, or a file there that is not a FIFO, is
  /// left to it with one log line.
  static func open(_ context: TransportContext) -> ControlTransport? {
    guard context.settings.handoff.compat.contains(.psplash) else { return nil }
    let path = Self.path(environment: context.environment)
    do {
      let transport = try PsplashFIFO(path: path, context: context)
      if transport.pipe.made { context.removeOnCrash(path) }
      return transport
    } catch {
      context.log.error(
        "\(context.settings.origin(of: \.handoff.compat)) psplash: \(printable(path)): \(error.phrase); no psplash FIFO"
      )
      return nil
    }
  }

  /// Where psplash's writers look: `$PSPLASH_FIFO_DIR/psplash_fifo`, /run by default.
  static func path(environment: [String: String]) -> String {
    (environment["PSPLASH_FIFO_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run") + "/psplash_fifo"
  }

  private init(path: String, context: TransportContext) throws(SystemError) {
    self.path = path
    pipe = try NamedPipe(at: path, groupName: context.settings.handoff.controlGroup)
    controller = context.controller
    log = context.log
    keepOnCrash = context.keepOnCrash
    now = context.clock.now
  }

  var descriptors: [FileDescriptor] { [pipe.reader] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    var read = 0
    while read < Self.maxBytesPerTurn {
      guard case .bytes(let bytes) = pipe.reader.readAvailable() else {
        // Read empty: an unended command is whole (PsplashCommandBuffer).
        for command in input.writesEnded() { execute(command) }
        return
      }
      read += bytes.count
      for command in input.append(bytes) { execute(command) }
    }
  }

  private func execute(_ input: PsplashCommandBuffer.Input) {
    switch input {
    case .command(let command):
      let verb = command == .reveal ? "QUIT" : "command"
      if case .error(let problem) = controller.execute(command, because: "psplash \(verb)") {
        log.error("psplash: \(problem)")
      }
    case .ignored(let text):
      if let unsaid = ignoredLines.admit(at: now()) { log.debug("psplash: ignored \"\(printable(text))\"" + unsaid) }
    case .tooLong:
      if let unsaid = ignoredLines.admit(at: now()) {
        log.error("psplash: a command longer than \(PsplashCommandBuffer.maxCommandBytes) bytes was dropped" + unsaid)
      }
    }
  }

  /// Closes the FIFO, and removes it when splashd made it.
  func close() {
    pipe.close()
    if pipe.made {
      Files.remove(path)
      keepOnCrash(path)
    }
  }
}
