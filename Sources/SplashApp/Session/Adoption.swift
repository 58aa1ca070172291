// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashRender
import SplashSystem

/// The splash a splashd of the initramfs shows, taken over by the root's
/// (`--boot root`): asked for with `handover` on its control socket, the
/// display's descriptors and state come back in one message, and it ends
/// without touching the screen. docs/initramfs.md.
struct AdoptedSplash {
  let state: AdoptionState
  /// The cards' descriptors, in the order of `state.cards`.
  let descriptors: [FileDescriptor]
  /// The splashd that handed it over, as the log names it.
  let previous: String

  /// How long the running splashd may take to answer, and then to end.
  static let answerTimeout = 2.0
  static let endTimeout = 2.0

  /// Takes over the splash shown by the splashd that answers at `path`;
  /// nil when none answers there (a start like any other) or it keeps its
  /// display (said, with why).
  static func request(at path: String, clock: EventClock, log: Log) -> AdoptedSplash? {
    guard Files.exists(path) else { return nil }
    let connection: FileDescriptor
    do {
      connection = try UnixSocket.connect(to: path, timeout: answerTimeout)
    } catch {
      // A socket file nobody answers on: the control socket replaces it.
      return nil
    }
    defer { try? connection.close() }
    let pid = UnixSocket.peerProcess(of: connection)
    let previous = pid.map { "the splashd of pid \($0)" } ?? "the running splashd"
    func refused(_ reason: String) -> AdoptedSplash? {
      log.info("adopt: \(previous) at \(path) \(reason); this splash starts on its own")
      return nil
    }
    // Only a splashd of this one's own user may hand it a display (and its
    // boot status), as the server side takes `handover` only from it.
    guard let peer = UnixSocket.peerUser(of: connection), peer == geteuid() else {
      let who = UnixSocket.peerUser(of: connection).map { "uid \($0)" } ?? "an unknown user"
      return refused("runs as \(who), not as this splashd's user")
    }
    guard connection.sendWithoutBlocking("handover\n") else { return refused("did not take the request") }
    // The reply line, cut as the control socket cuts lines (one of at most
    // maxLineBytes, text only), with the descriptors that came with it.
    var input = LineBuffer()
    var line = ""
    var descriptors: [FileDescriptor] = []
    var hungUp = false
    let deadline = clock.now() + answerTimeout
    reading: while clock.now() < deadline {
      // Nothing within the socket's timeout is an error (EAGAIN); a hang-up is no bytes.
      guard let part = try? connection.receiveWithDescriptors(upTo: ControlCommand.maxLineBytes) else { break }
      guard !part.bytes.isEmpty else {
        hungUp = true
        break
      }
      descriptors += part.descriptors
      switch input.append(part.bytes).first {
      case .text(let first):
        line = first
        break reading
      case .tooLong:
        for descriptor in descriptors { try? descriptor.close() }
        return refused("answered a line of over \(ControlCommand.maxLineBytes) bytes")
      case .notText:
        for descriptor in descriptors { try? descriptor.close() }
        return refused("answered bytes that are not text")
      case nil: continue
      }
    }
    guard line.hasPrefix("ok "), let state = AdoptionState.parse(String(line.dropFirst(3))),
      state.cards.count == descriptors.count
    else {
      for descriptor in descriptors { try? descriptor.close() }
      let answer =
        !line.isEmpty
        ? "answered \"\(printable(line))\""
        : hungUp ? "hung up without answering" : "did not answer in \(formatNumber(answerTimeout)) s"
      return refused(answer)
    }
    // Its control socket, FIFO and Plymouth socket are gone once it has ended.
    if let pid, !awaitEnd(ofProcess: pid, until: clock.now() + endTimeout, clock: clock) {
      log.info("adopt: \(previous) handed over its display but has not ended in \(formatNumber(endTimeout)) s")
    }
    return AdoptedSplash(state: state, descriptors: descriptors, previous: previous)
  }

  /// The output shown on: the cards handed over, taken by the back end the
  /// previous splashd showed on, or that back end opened again; nil when
  /// neither works (said: the start goes on as any other).
  func output(among backEnds: [BackEnd], request: OutputRequest, log: Log) -> Output? {
    guard let backEnd = backEnds.first(where: { $0.name == state.display }) else {
      for descriptor in descriptors { try? descriptor.close() }
      log.info("adopt: \(previous) showed on \(state.display), which this splashd does not have")
      return nil
    }
    let request = Outputs.noting(request, for: backEnd, log: log)
    if !state.cards.isEmpty {
      guard let adopt = backEnd.adopt else {
        for descriptor in descriptors { try? descriptor.close() }
        log.info("adopt: \(previous) handed over cards for \(state.display), which cannot take them")
        return nil
      }
      do {
        return try adopt(Array(zip(state.cards, descriptors)), request)
      } catch {
        log.info("adopt: the cards \(previous) handed over: \(error)")
        return nil
      }
    }
    do {
      return try backEnd.open(request)
    } catch {
      log.info("adopt: display \(state.display): \(error)")
      return nil
    }
  }
}
