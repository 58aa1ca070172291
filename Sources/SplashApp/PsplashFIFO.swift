// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// psplash's FIFO (`--compat psplash`), so that `psplash-write` works
/// unchanged: `$PSPLASH_FIFO_DIR/psplash_fifo` (/run by default), commands
/// ended by a NUL (what psplash-write sends) or a newline, several to a
/// write or one split across writes. `PROGRESS n` moves the bar (psplash's
/// atoi: the leading number, 0 for none; −100…100, negative from the
/// right), `MSG text` shows the rest after the first space, `QUIT`
/// reveals; anything else (and `MSG`, `PROGRESS` with nothing after them)
/// is ignored with a debug line. splashd holds the
/// FIFO open for the whole splash, so every later writer finds a reader.
final class PsplashFIFO: ControlTransport {
  let path: String
  private let pipe: NamedPipe
  private let controller: Controller
  private let log: Log
  private let keepOnCrash: (String) -> Void
  private var pending: [UInt8] = []
  /// The rest of a command too long to take is being skipped.
  private var skipping = false

  /// The longest command taken, its terminator included.
  static let maxCommandBytes = 4096

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
        "\(context.settings.origin(of: "compat")) psplash: \(printable(path)): \(error.phrase); no psplash FIFO")
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
  }

  var descriptors: [FileDescriptor] { [pipe.reader] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    while case .bytes(let bytes) = pipe.reader.readAvailable() { take(bytes) }
  }

  /// Cuts `bytes` into commands at NULs and newlines.
  private func take(_ bytes: [UInt8]) {
    for byte in bytes {
      if byte == 0 || byte == UInt8(ascii: "\n") {
        if !skipping && !pending.isEmpty { execute(pending) }
        pending = []
        skipping = false
      } else if !skipping {
        pending.append(byte)
        if pending.count >= Self.maxCommandBytes {
          log.error("psplash: a command longer than \(Self.maxCommandBytes) bytes was dropped")
          pending = []
          skipping = true
        }
      }
    }
  }

  /// One command, split as psplash splits it: the verb up to the first
  /// space (leading spaces skipped), the argument all that follows that
  /// space. `MSG` or `PROGRESS` without an argument changes nothing.
  private func execute(_ bytes: [UInt8]) {
    let command = String(decoding: bytes, as: UTF8.self)
    let trimmed = command.drop { $0 == " " }
    let verb = String(trimmed.prefix { $0 != " " })
    let argument = String(trimmed.dropFirst(verb.count).dropFirst())
    switch verb {
    case "PROGRESS" where !argument.isEmpty: controller.setProgress(Double(Self.leadingInteger(argument)))
    case "MSG" where !argument.isEmpty:
      if let problem = controller.setMessage(argument) { log.error("psplash: \(problem)") }
    case "QUIT": controller.reveal(because: "psplash QUIT")
    default: log.debug("psplash: ignored \"\(printable(String(command.prefix(64))))\"")
    }
  }

  /// The number at the start of `text`, as C's atoi reads it: blanks, a
  /// sign, digits; 0 when there is none (and clamped, not overflowed).
  static func leadingInteger(_ text: String) -> Int {
    var characters = Substring(text).drop { $0 == " " || $0 == "\t" }
    var sign = 1
    if let first = characters.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      characters = characters.dropFirst()
    }
    var value = 0
    for character in characters {
      guard let digit = character.wholeNumberValue, character.isASCII else { break }
      value = min(value * 10 + digit, 1_000_000)
    }
    return sign * value
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
