// SPDX-License-Identifier: Apache-2.0
/// What the splash can be asked to do, by any transport: the control
/// socket's lines (`ControlCommand.parse`, docs/control-protocol.md),
/// psplash's FIFO (`PsplashCommandBuffer`) and Plymouth's requests
/// (`PlymouthRequest.action`) all parse into these, and the controller
/// executes them. One case per meaning, whatever word a transport uses.
public enum ControlCommand: Equatable, Sendable {
  /// Open the reveal gate: the transition may start once the hold is over
  /// (`splashctl reveal`, psplash's `QUIT`).
  case reveal
  /// End the splash now, without its transition, and hand off
  /// (`splashctl quit`, SIGTERM).
  case stop
  /// End the splash now and give the screen back to the console: no
  /// transition, no frame kept on it, whatever `keep-last-frame` says
  /// (initramfs-tools' panic, so that its rescue shell shows). Answered once
  /// the display is let go of.
  case stepAside
  /// Plymouth's `quit`: reveal, or stop at once while drawing is paused
  /// (another program has the screen); with `retainingFrame`, the last frame
  /// stays on the screen even with no program to follow.
  case finish(retainingFrame: Bool)
  /// Let another program have the screen (Plymouth's `deactivate`): nothing
  /// is drawn until `resumeDrawing`.
  case pauseDrawing
  /// Take the screen back and draw the held splash again, whole
  /// (Plymouth's `reactivate`).
  case resumeDrawing
  /// Report the phase, rotation, display and times.
  case status
  /// Reply once `event` has happened (at once when it already has).
  case wait(ControlEvent)
  /// Turn the held splash to this angle.
  case rotate(Rotation)
  /// Show the progress bar at this percentage, −100…100 (a negative value
  /// fills from the right); each transport clamps as its protocol says.
  case progress(Double)
  /// Show this message line; nil clears it.
  case message(String?)
  /// Send what the display shows now, as a PNG file's bytes after the reply
  /// line (`ok png LENGTH`).
  case snapshot
  /// Ask the person at the screen: the prompt is shown on the splash, the
  /// console's keys answer it (one question at a time, in order); the reply
  /// is the answer, or none when the splash ends first.
  case ask(Question)
  /// Hand the display over to the splashd that asks (a unit of the real
  /// root adopting the initramfs's splash): the reply carries the display's
  /// descriptors and `AdoptionState`, then this splashd ends without
  /// touching the screen. Taken only from splashd's own user.
  case handover
  /// Switch the screen on or off, or say which it is (`splashctl screen`).
  case screen(ScreenPowerCommand)

  /// The longest accepted line, newline included.
  public static let maxLineBytes = 4096

  /// Parses one line (without its newline) by its verb's entry in
  /// `ControlCommandTable`; the error is the reply's text.
  public static func parse(_ line: String) -> Result<ControlCommand, ControlError> {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
    guard let verb = words.first else {
      return .failure(ControlError("empty command; known: \(ControlCommandTable.knownNames)"))
    }
    guard let spec = ControlCommandTable.spec(named: verb) else {
      return .failure(
        ControlError(
          "unknown command \"\(printable(String(verb.prefix(64))))\"; known: \(ControlCommandTable.knownNames)"))
    }
    return spec.parse(ControlArguments(line: line, verb: verb, words: Array(words.dropFirst())))
  }
}

/// A reply line as a client reads it: the text after `ok` (empty for a
/// bare `ok`), or splashd's reason after `error `.
public func parseControlReply(_ line: String) -> Result<String, ControlError> {
  if line == "ok" { return .success("") }
  if line.hasPrefix("ok ") { return .success(String(line.dropFirst(3))) }
  return .failure(ControlError(String(line.dropFirst("error ".count))))
}

/// Parses a plain decimal with an optional leading minus (`-20`, `12.5`).
public func parseSignedDecimal(_ text: String) -> Double? {
  if text.hasPrefix("-") { return parseDecimal(String(text.dropFirst())).map { -$0 } }
  return parseDecimal(text)
}

/// The lifecycle events a client can wait for.
public enum ControlEvent: String, CaseIterable, Equatable, Hashable, Sendable {
  case appeared
  case willDisappear = "will-disappear"
  case didDisappear = "did-disappear"
}

/// A command that cannot be carried out; `message` is the reply's text.
public struct ControlError: Error, Equatable, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
}

/// Splits a client's input into complete lines, keeping a partial one. A
/// bad line (too long, a NUL byte, not UTF-8) is one line of its own: the
/// good lines around it, even in the same read, are kept.
public struct LineBuffer: Sendable {
  private var pending: [UInt8] = []
  /// The rest of a line too long to take is being skipped, to its newline.
  private var skipping = false

  public init() {}

  /// Whether a line has begun and not ended (its newline not come yet).
  public var hasPartialLine: Bool { !pending.isEmpty || skipping }

  /// One line of a client's input.
  public enum Line: Equatable, Sendable {
    case text(String)
    /// A line longer than `ControlCommand.maxLineBytes` (said once, however long).
    case tooLong
    /// A line with a NUL byte or text that is not UTF-8.
    case notText
  }

  /// Adds `bytes` and returns the complete lines they finish, in order.
  public mutating func append(_ bytes: some Sequence<UInt8>) -> [Line] {
    var lines: [Line] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        if !skipping {
          if !pending.contains(0), let text = String(validating: pending, as: UTF8.self) {
            lines.append(.text(text))
          } else {
            lines.append(.notText)
          }
        }
        pending = []
        skipping = false
      } else if !skipping {
        pending.append(byte)
        if pending.count >= ControlCommand.maxLineBytes {
          lines.append(.tooLong)
          pending = []
          skipping = true
        }
      }
    }
    return lines
  }
}

/// What `screen` asks of the screen's power.
public enum ScreenPowerCommand: String, CaseIterable, Equatable, Sendable {
  /// On now (as input would wake it).
  case on
  /// Off now (the display powered down), until input, `on` or the
  /// schedule's next switch.
  case off
  /// Which it is, and why.
  case status
}
