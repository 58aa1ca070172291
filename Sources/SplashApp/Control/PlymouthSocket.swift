// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// Plymouth's socket (`compat = plymouth`), so that `plymouth` calls in boot
/// scripts work unchanged: the abstract Unix socket
/// `\0/org/freedesktop/plymouthd` and Plymouth 22.02's protocol
/// (`PlymouthRequest`), each request answered with one byte, ACK or NAK.
/// Each request's `action` (the core's mapping) is executed by the
/// controller. As Plymouth does, only root's requests are taken: another
/// user's connection is closed at once, so that it never takes a place
/// root needs; when the table is full, the root client silent longest makes
/// room. Prompts (passwords, questions, keystrokes) are asked on the splash
/// (`Questions`) and answered in Plymouth's reply (`PlymouthRequest.answer`),
/// or with no answer when the splash ends first, so no caller ever hangs.
final class PlymouthSocket: ControlTransport {
  let name: String
  private let listener: FileDescriptor
  private let controller: Controller
  private let log: Log
  private let now: () -> Double
  private let pidFile: PlymouthPIDFile?
  private let keepOnCrash: (String) -> Void
  private var clients: [Client] = []
  /// What is said of refused and ignored requests: a client may send many.
  private var requestLines = LogLimit()
  /// Accepting paused while no descriptor can be had for a connection.
  private var acceptPause = AcceptPause()

  /// The most clients served at once.
  static let maxClients = 32
  /// A client that has sent nothing for this long may be dropped to make room.
  static let idleSeconds = 3.0
  /// The most bytes read from one client in one turn of the run loop.
  static let maxBytesPerTurn = 16 << 10

  private final class Client {
    let descriptor: FileDescriptor
    /// Who it is, as the questions it asks know it (root: others are refused).
    let asker = Asker(connection: Asker.connection(), uid: 0)
    var input = PlymouthRequestBuffer()
    /// A `quit` waiting for the splash to end: ACK then.
    var awaitsQuit = false
    /// Replies held behind one that waits for a frame.
    var replies = OrderedReplies()
    /// When it connected or last sent something.
    var lastHeard: Double
    init(_ descriptor: FileDescriptor, at time: Double) {
      self.descriptor = descriptor
      lastHeard = time
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
    now = context.clock.now
    pidFile = context.settings.handoff.plymouthPIDFile.flatMap { path in
      PlymouthPIDFile.write(at: path, log: context.log, origin: context.settings.origin(of: \.handoff.plymouthPIDFile))
    }
    if let pidFile { context.removeOnCrash(pidFile.path) }
    keepOnCrash = context.keepOnCrash
    controller.observe { [weak self] event in
      if event == .didDisappear { self?.splashEnded() }
    }
  }

  var descriptors: [FileDescriptor] { (acceptPause.isPaused ? [] : [listener]) + clients.map(\.descriptor) }

  /// When accepting is tried again (`AcceptPause`).
  var wakeTime: Double? { acceptPause.until }

  func wake() {
    if let until = acceptPause.until, now() >= until { acceptPause.resume() }
  }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    if descriptor == listener {
      while true {
        let connection: FileDescriptor
        switch UnixSocket.accept(listener) {
        case .client(let accepted): connection = accepted
        case .none:
          acceptPause.caughtUp()
          return
        case .outOfDescriptors(let code):
          if acceptPause.pause(at: now()) {
            log.error(
              "plymouth: @\(printable(name)): \(String(cString: strerror(code))); new clients wait (retried each "
                + "second, and when a client goes)")
          }
          return
        }
        // Plymouth answers only root; another user's client never takes a place.
        guard UnixSocket.peerUser(of: connection) == 0 else {
          try? connection.close()
          continue
        }
        let time = now()
        if clients.count >= Self.maxClients {
          let silent = clients.filter {
            !$0.awaitsQuit && $0.replies.isEmpty && time - $0.lastHeard >= Self.idleSeconds
          }
          guard let oldest = silent.min(by: { $0.lastHeard < $1.lastHeard }) else {
            try? connection.close()
            continue
          }
          drop(oldest)
        }
        clients.append(Client(connection, at: time))
      }
    } else if let client = clients.first(where: { $0.descriptor == descriptor }) {
      serve(client)
    }
  }

  private func serve(_ client: Client) {
    var read = 0
    while read < Self.maxBytesPerTurn, clients.contains(where: { $0 === client }) {
      switch client.descriptor.readAvailable() {
      case .wouldBlock: return
      case .closed, .failed:
        drop(client)
        return
      case .bytes(let bytes):
        read += bytes.count
        client.lastHeard = now()
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
    switch request.action {
    case .acknowledge:
      // systemd itself sends one for every unit it starts: a debug line.
      if request.command == UInt8(ascii: "U"), let unsaid = requestLines.admit(at: now()) {
        log.debug("plymouth: status \"\(printable(String(request.text.prefix(256))))\"" + unsaid)
      }
      reply(client, PlymouthRequest.ack)
    case .refuse:
      if let unsaid = requestLines.admit(at: now()) {
        log.debug("plymouth: refused the request '\(printable(String(UnicodeScalar(request.command))))'" + unsaid)
      }
      reply(client, PlymouthRequest.nak)
    case .answerNone:
      reply(client, PlymouthRequest.noAnswer)
    case .command(let command):
      switch controller.execute(command, because: request.cause, from: client.asker) {
      case .ok, .png, .handover: reply(client, PlymouthRequest.ack)
      case .okOnceShown:
        let ticket = client.replies.reserve()
        controller.whenShown { [weak self, weak client] in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          send(client, client.replies.fill(ticket, with: [PlymouthRequest.ack]))
        }
      case .later:
        // A quit: ACK once the splash has let go of the display.
        client.awaitsQuit = true
      case .answer(let pending):
        let ticket = client.replies.reserve()
        pending.whenDone { [weak self, weak client] answer in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          let reply = (try? answer.get()).map(PlymouthRequest.answer) ?? [PlymouthRequest.noAnswer]
          send(client, client.replies.fill(ticket, with: reply))
        }
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

  /// Closes `client`'s connection; the questions it asked go with it.
  private func drop(_ client: Client) {
    guard let index = clients.firstIndex(where: { $0 === client }) else { return }
    try? client.descriptor.close()
    clients.remove(at: index)
    // A descriptor given back: a client waiting may be taken.
    acceptPause.resume()
    controller.questions?.withdraw(askedOn: client.asker.connection)
  }

  /// Closes every connection; a `quit` still waiting is answered first:
  /// the splash has ended (it was stopped before its transition was done).
  func close() {
    splashEnded()
    for client in clients { try? client.descriptor.close() }
    clients = []
    try? listener.close()
    if let pidFile {
      pidFile.remove()
      keepOnCrash(pidFile.path)
    }
  }
}

/// The file in which plymouthd names its process (`/run/plymouth/pid`),
/// written while splashd answers on Plymouth's socket: systemd's units read
/// it as "a splash that asks for passwords holds the screen" (the console's
/// password agent stands aside, `splashd-ask-password.path` sends the
/// requests to the splash). Written only into a folder nobody but this
/// user and root may write; removed when the splash ends, while it still
/// names this process.
struct PlymouthPIDFile {
  let path: String

  /// The file written with this process's ID; nil (with one log line) when
  /// it cannot be.
  static func write(at path: String, log: Log, origin: String) -> PlymouthPIDFile? {
    let folder = Files.directory(of: path)
    try? Files.makeDirectories(folder)
    if let problem = Files.distrust(folder: folder) {
      log.error("\(origin) \(path): the folder \(folder) is \(problem); no PID file")
      return nil
    }
    do {
      try Files.writeAtomically(Array("\(getpid())\n".utf8), to: path)
    } catch {
      log.error("\(origin) \(path): \(error.phrase); no PID file")
      return nil
    }
    return PlymouthPIDFile(path: path)
  }

  /// Removes the file while it names this process (an adopter's is left).
  func remove() {
    guard let bytes = try? Files.readRegularFile(path, limit: 64),
      String(decoding: bytes, as: UTF8.self) == "\(getpid())\n"
    else { return }
    Files.remove(path)
  }
}
