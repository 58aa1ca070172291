// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// Plymouth's socket (`compat = plymouth`), so that `plymouth` calls in boot
/// scripts work unchanged: the abstract Unix socket
/// `\0/org/freedesktop/plymouthd` and Plymouth 22.02's protocol
/// (`PlymouthRequest`), each request answered with one byte, ACK or NAK.
/// Each request's `action` (the core's mapping) is executed by the
/// controller. As Plymouth does, only root's requests are taken; prompts
/// (passwords, questions, keystrokes) are refused at once, so no caller
/// ever hangs.
final class PlymouthSocket: ControlTransport {
  let name: String
  private let listener: FileDescriptor
  private let controller: Controller
  private let log: Log
  private var clients: [Client] = []

  /// The most clients served at once.
  static let maxClients = 32

  private final class Client {
    let descriptor: FileDescriptor
    /// Root may ask; anyone else is answered NAK.
    let trusted: Bool
    var input = PlymouthRequestBuffer()
    /// A `quit` waiting for the splash to end: ACK then.
    var awaitsQuit = false
    /// Replies held behind one that waits for a frame.
    var replies = OrderedReplies()
    init(_ descriptor: FileDescriptor) {
      self.descriptor = descriptor
      trusted = UnixSocket.peerUser(of: descriptor) == 0
    }
  }

  /// The socket, when `context`'s settings ask for it and the name is free;
  /// a name another program listens on (a plymouthd) is left to it, with
  /// one log line.
  static func open(_ context: TransportContext) -> ControlTransport? {
    guard context.settings.handoff.compat.contains(.plymouth) else { return nil }
    let name = context.settings.handoff.plymouthSocket
    do {
      return try PlymouthSocket(name: name, context: context)
    } catch {
      let reason = error.code == EADDRINUSE ? "another program (a plymouthd?) listens there" : error.phrase
      context.log.error(
        "\(context.settings.origin(of: \.handoff.compat)) plymouth: @\(printable(name)): \(reason); no Plymouth socket")
      return nil
    }
  }

  private init(name: String, context: TransportContext) throws(SystemError) {
    self.name = name
    listener = try UnixSocket.listen(abstract: name)
    controller = context.controller
    log = context.log
    controller.observe { [weak self] event in
      if event == .didDisappear { self?.splashEnded() }
    }
  }

  var descriptors: [FileDescriptor] { [listener] + clients.map(\.descriptor) }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    if descriptor == listener {
      while let connection = UnixSocket.accept(listener) {
        guard clients.count < Self.maxClients else {
          try? connection.close()
          continue
        }
        clients.append(Client(connection))
      }
    } else if let client = clients.first(where: { $0.descriptor == descriptor }) {
      serve(client)
    }
  }

  private func serve(_ client: Client) {
    while clients.contains(where: { $0 === client }) {
      switch client.descriptor.readAvailable() {
      case .wouldBlock: return
      case .closed, .failed:
        drop(client)
        return
      case .bytes(let bytes):
        let (requests, problem) = client.input.append(bytes)
        for request in requests where clients.contains(where: { $0 === client }) { answer(request, from: client) }
        if problem != nil {
          log.debug("plymouth: a malformed request; the connection is closed")
          drop(client)
        }
      }
    }
  }

  private func answer(_ request: PlymouthRequest, from client: Client) {
    guard client.trusted else {
      reply(client, PlymouthRequest.nak)
      return
    }
    switch request.action {
    case .acknowledge:
      if request.command == UInt8(ascii: "U") {
        // systemd itself sends one for every unit it starts: a debug line.
        log.debug("plymouth: status \"\(printable(String(request.text.prefix(256))))\"")
      }
      reply(client, PlymouthRequest.ack)
    case .refuse:
      log.debug("plymouth: refused the request '\(printable(String(UnicodeScalar(request.command))))'")
      reply(client, PlymouthRequest.nak)
    case .command(let command):
      switch controller.execute(command, because: request.cause) {
      case .ok, .png, .handover: reply(client, PlymouthRequest.ack)
      case .okOnceShown:
        client.replies.reserve()
        controller.whenShown { [weak self, weak client] in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          send(client, client.replies.fill([PlymouthRequest.ack]))
        }
      case .later:
        // A quit: ACK once the splash has let go of the display.
        client.awaitsQuit = true
      case .error(let problem):
        log.error("plymouth: \(problem)")
        reply(client, PlymouthRequest.nak)
      }
    }
  }

  /// The splash has let go of the display: the quits are done.
  private func splashEnded() {
    for client in clients where client.awaitsQuit {
      client.awaitsQuit = false
      reply(client, PlymouthRequest.ack)
    }
  }

  /// One byte, after the replies still waiting for a frame.
  private func reply(_ client: Client, _ byte: UInt8) { send(client, client.replies.add([byte])) }

  /// What may go to `client` now; a client that cannot take it is dropped.
  private func send(_ client: Client, _ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    guard client.descriptor.sendAvailable(bytes[...]) == bytes.count else {
      drop(client)
      return
    }
  }

  private func drop(_ client: Client) {
    guard let index = clients.firstIndex(where: { $0 === client }) else { return }
    try? client.descriptor.close()
    clients.remove(at: index)
  }

  /// Closes every connection; a `quit` still waiting is answered first:
  /// the splash has ended (it was stopped before its transition was done).
  func close() {
    splashEnded()
    for client in clients { try? client.descriptor.close() }
    clients = []
    try? listener.close()
  }
}
