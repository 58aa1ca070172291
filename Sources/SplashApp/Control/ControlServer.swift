// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// splashd's control socket (docs/control-protocol.md): parses each
/// client's lines, has the controller execute them, and replies. Every
/// descriptor is non-blocking and served from the run loop, so no client,
/// however slow, silent or malformed, can hold the splash up: a client
/// that hangs up (or shuts down its writing side) is dropped at once,
/// whatever it waited for; a line must be finished within `lineSeconds`;
/// a client's reads in one turn of the loop are bounded; and when the table
/// is full, a new client always gets in: the one that has kept a line
/// unfinished longest, else the one idle longest, makes room.
final class ControlServer: ControlTransport {
  let path: String
  private let listener: FileDescriptor
  /// A socket file nobody answered on was there, and was replaced.
  let replacedStale: Bool
  /// Stops the crash handler removing the socket file, once it is gone.
  private let keepOnCrash: (String) -> Void
  private let controller: Controller
  private let now: () -> Double
  private let log: Log?
  private var clients: [Client] = []
  /// Accepting paused while no descriptor can be had for a connection.
  private var acceptPause = AcceptPause()

  /// The most clients served at once.
  static let maxClients = 64
  /// The longest a client may take to finish a line it began.
  static let lineSeconds = 5.0
  /// The most bytes read from one client in one turn of the run loop.
  static let maxBytesPerTurn = 64 << 10

  /// The most reply bytes waiting to go to all clients together (snapshots).
  static let maxPendingBytes = 64 << 20
  /// The most reply lines a client may leave unread, in bytes.
  static let textAllowance = 64 << 10

  private final class Client {
    let descriptor: FileDescriptor
    /// Who it is, as the questions it asks know it.
    let asker: Asker
    var input = LineBuffer()
    var waits: Set<ControlEvent> = []
    /// Replies held behind one that waits for a frame.
    var replies = OrderedReplies()
    /// Reply bytes the socket has not taken yet.
    var output: [UInt8] = []
    var sent = 0
    var pending: Int { output.count - sent }
    /// The most bytes it may leave unread, raised while a snapshot goes out.
    var allowance = ControlServer.textAllowance
    /// When it connected or last finished a line.
    var lastHeard: Double
    /// A snapshot of its is being made, or its bytes have not all gone.
    var snapshotUnderWay = false
    /// When the line it has begun and not finished began; nil for none.
    var lineBegan: Double?
    init(_ descriptor: FileDescriptor, at time: Double) {
      self.descriptor = descriptor
      asker = Asker(connection: Asker.connection(), uid: UnixSocket.peerUser(of: descriptor) ?? uid_t.max)
      lastHeard = time
    }
  }

  /// The control socket `context`'s settings ask for, if any; one that
  /// cannot be made costs only the socket (a log line): the splash goes on.
  static func open(_ context: TransportContext) -> ControlTransport? {
    let handoff = context.settings.handoff
    guard let path = handoff.controlPath(runtimeDirectory: context.environment["RUNTIME_DIRECTORY"]) else { return nil }
    do {
      let server = try ControlServer(
        path: path, group: handoff.controlGroup, controller: context.controller, now: context.clock.now,
        log: context.log, keepOnCrash: context.keepOnCrash)
      if server.replacedStale {
        context.log.info("\(path): replaced a control socket nobody answered on (left by a splashd that ended)")
      }
      context.removeOnCrash(path)
      return server
    } catch {
      context.log.error("\(context.settings.origin(of: \.handoff.control)) \(path): no control socket: \(error.phrase)")
      return nil
    }
  }

  /// Listens at `path` (its directory is made if missing), mode 0600, or
  /// 0660 owned by `group`; `log` is told when accepting pauses.
  init(
    path: String, group: String?, controller: Controller, now: @escaping () -> Double, log: Log? = nil,
    keepOnCrash: @escaping (String) -> Void = { _ in }
  ) throws(SystemError) {
    self.path = path
    self.keepOnCrash = keepOnCrash
    self.controller = controller
    self.now = now
    self.log = log
    try Files.makeDirectories(Files.directory(of: path))
    (listener, replacedStale) = try UnixSocket.listen(at: path, groupName: group)
    controller.observe { [weak self] event in self?.publish(event) }
  }

  var descriptors: [FileDescriptor] { (acceptPause.isPaused ? [] : [listener]) + clients.map(\.descriptor) }

  var writeDescriptors: [FileDescriptor] { clients.filter { $0.pending > 0 }.map(\.descriptor) }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    if descriptor == listener {
      acceptClients()
    } else if let client = clients.first(where: { $0.descriptor == descriptor }) {
      if events.contains(.writable) { flush(client) }
      if !events.subtracting(.writable).isEmpty { serve(client) }
    }
  }

  /// Takes the clients waiting; when no descriptor can be had for one,
  /// accepting pauses (`AcceptPause`).
  private func acceptClients() {
    while true {
      let descriptor: FileDescriptor
      switch UnixSocket.accept(listener) {
      case .client(let accepted): descriptor = accepted
      case .none:
        acceptPause.caughtUp()
        return
      case .outOfDescriptors(let code):
        if acceptPause.pause(at: now()) {
          log?.error(
            "\(path): \(String(cString: strerror(code))); new clients wait (retried each second, "
              + "and when a client goes)")
        }
        return
      }
      let time = now()
      if clients.count >= Self.maxClients, let leaving = clientToMakeRoom() {
        reply(leaving, "error dropped: \(Self.maxClients) clients at once are the most, and this one was idle longest")
        drop(leaving)
      }
      clients.append(Client(descriptor, at: time))
    }
  }

  /// Who makes room for a new client: the one that has kept a line
  /// unfinished longest; else the one idle longest that waits for nothing
  /// and has nothing left to be sent; else the one idle longest.
  private func clientToMakeRoom() -> Client? {
    let trickling = clients.filter { $0.lineBegan != nil }
    if let slowest = trickling.min(by: { $0.lineBegan! < $1.lineBegan! }) { return slowest }
    let idle = clients.filter { $0.waits.isEmpty && $0.pending == 0 && $0.replies.isEmpty }
    return (idle.isEmpty ? clients : idle).min { $0.lastHeard < $1.lastHeard }
  }

  /// When the first unfinished line runs out of time, or accepting is
  /// tried again.
  var wakeTime: Double? {
    (clients.compactMap(\.lineBegan).map { $0 + Self.lineSeconds } + [acceptPause.until].compactMap { $0 }).min()
  }

  /// Drops the clients whose line has taken too long; tries accepting
  /// again once its pause is over.
  func wake() {
    let time = now()
    if let until = acceptPause.until, time >= until { acceptPause.resume() }
    for client in clients {
      guard let began = client.lineBegan, time - began >= Self.lineSeconds else { continue }
      reply(client, "error the line was not finished within \(formatNumber(Self.lineSeconds)) s")
      drop(client)
    }
  }

  /// Reads what `client` sent and answers each complete line, a bad one
  /// (too long, not text) with an error; drops it at the end of its input or
  /// on an error.
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
        let time = now()
        let lines = client.input.append(bytes)
        if !lines.isEmpty { client.lastHeard = time }
        client.lineBegan = client.input.hasPartialLine ? (lines.isEmpty ? client.lineBegan ?? time : time) : nil
        for line in lines where clients.contains(where: { $0 === client }) {
          switch line {
          case .text(let text): answer(text, from: client)
          case .tooLong: reply(client, "error line longer than \(ControlCommand.maxLineBytes) bytes")
          case .notText: reply(client, "error not text")
          }
        }
      }
    }
  }

  private func answer(_ line: String, from client: Client) {
    switch ControlCommand.parse(line) {
    case .failure(let error): reply(client, "error \(error.message)")
    case .success(.handover):
      handOver(to: client)
    case .success(.snapshot) where client.snapshotUnderWay:
      // One snapshot at a time for each client: its last is still being made or sent.
      reply(client, "error snapshot: the last one is still being made or sent")
    case .success(let command):
      let verb = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first.map(String.init) ?? ""
      switch controller.execute(command, because: "splashctl \(verb)", from: client.asker) {
      case .ok(let text): reply(client, text.map { "ok \($0)" } ?? "ok")
      case .okOnceShown:
        let ticket = client.replies.reserve()
        controller.whenShown { [weak self, weak client] in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          send(client, client.replies.fill(ticket, with: Array("ok\n".utf8)))
        }
      case .error(let problem): reply(client, "error \(problem)")
      case .later(let event): client.waits.insert(event)
      case .answer(let pending):
        let ticket = client.replies.reserve()
        pending.whenDone { [weak self, weak client] answer in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          let line: String
          switch answer {
          case .success(let text): line = "ok " + text
          case .failure(let problem): line = "error \(verb): no answer: \(problem.message)"
          }
          send(client, client.replies.fill(ticket, with: Array((line + "\n").utf8)))
        }
      case .png(let pending):
        client.snapshotUnderWay = true
        let ticket = client.replies.reserve()
        pending.whenDone { [weak self, weak client] result in
          guard let self, let client, clients.contains(where: { $0 === client }) else { return }
          switch result {
          case .success(let bytes):
            guard clients.reduce(0, { $0 + $1.pending }) + bytes.count <= Self.maxPendingBytes else {
              client.snapshotUnderWay = false
              send(
                client,
                client.replies.fill(
                  ticket, with: Array("error snapshot: other snapshots are still being sent; try again\n".utf8)))
              return
            }
            send(
              client, client.replies.fill(ticket, with: Array("ok png \(bytes.count)\n".utf8) + bytes),
              allowance: Self.maxPendingBytes)
          case .failure(let problem):
            client.snapshotUnderWay = false
            send(client, client.replies.fill(ticket, with: Array("error \(problem.message)\n".utf8)))
          }
        }
      case .handover: reply(client, "error handover: not on this socket")
      }
    }
  }

  /// `handover`, from a splashd of the real root: only splashd's own user
  /// may take the display. The state and the descriptors go in one
  /// message; once it went, the splash ends.
  private func handOver(to client: Client) {
    guard UnixSocket.peerUser(of: client.descriptor) == geteuid() else {
      reply(client, "error handover: only splashd's own user may take the display")
      return
    }
    let adopter = UnixSocket.peerProcess(of: client.descriptor).map { "splashd (pid \($0))" } ?? "splashd"
    switch controller.execute(.handover, because: adopter) {
    case .handover(let line, let descriptors):
      guard client.pending == 0, client.replies.isEmpty,
        client.descriptor.sendWithDescriptors(Array((line + "\n").utf8), descriptors)
      else {
        reply(client, "error handover: the reply could not be sent; the splash stays")
        return
      }
      controller.handedOver(to: adopter)
    case .error(let problem): reply(client, "error \(problem)")
    case .ok, .okOnceShown, .later, .png, .answer: reply(client, "error handover: not now")
    }
  }

  /// Tells the clients waiting for `event` that it has happened.
  private func publish(_ event: ControlEvent) {
    for client in clients where client.waits.contains(event) {
      client.waits.remove(event)
      reply(client, "ok \(event.rawValue)")
    }
  }

  /// Closes every connection and removes the socket file.
  func close() {
    for client in clients { try? client.descriptor.close() }
    clients = []
    try? listener.close()
    Files.remove(path)
    keepOnCrash(path)
  }

  /// Sends one reply line, after those still waiting for a frame.
  private func reply(_ client: Client, _ text: String) { send(client, client.replies.add(Array((text + "\n").utf8))) }

  /// Sends `bytes` after what is still waiting to go; what the socket does
  /// not take now goes when it has room. A connection that failed, or that
  /// leaves more than `allowance` bytes unread (a client that sends but
  /// never reads), is dropped.
  private func send(_ client: Client, _ bytes: [UInt8], allowance: Int = textAllowance) {
    guard !bytes.isEmpty else { return }
    if client.sent > 0 {
      client.output.removeFirst(client.sent)
      client.sent = 0
    }
    client.output += bytes
    client.allowance = max(client.allowance, allowance)
    flush(client)
    if client.pending > client.allowance { drop(client) }
  }

  private func flush(_ client: Client) {
    guard client.pending > 0 else { return }
    guard let sent = client.descriptor.sendAvailable(client.output[client.sent...]) else {
      drop(client)
      return
    }
    client.sent += sent
    if client.pending == 0 {
      client.output = []
      client.sent = 0
      client.allowance = Self.textAllowance
      // All that was asked has gone: another snapshot may be asked for.
      if client.replies.isEmpty { client.snapshotUnderWay = false }
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
}
