import SplashCore
import SplashSystem

/// splashd's control socket: serves splashctl while the splash runs. Every
/// descriptor is non-blocking and served from the player's own waits, so no
/// client, however slow, silent or malformed, can hold the splash up.
final class ControlServer {
  let path: String
  private let listener: FileDescriptor
  private var clients: [Client] = []
  /// Events that have happened, for `wait` commands that come late.
  private var happened: Set<ControlEvent> = []
  /// `splashctl reveal` was received.
  private(set) var revealRequested = false
  /// `splashctl quit` was received.
  private(set) var quitRequested = false
  /// The text after `ok ` in a `status` reply.
  var status: () -> String = { "" }
  /// Turns the splash; returns why it could not, or nil when it did.
  var rotate: (Rotation) -> String? = { _ in "rotate: this splash cannot turn" }

  /// The most clients served at once; more are told so and closed.
  static let maxClients = 64

  private final class Client {
    let descriptor: FileDescriptor
    var input = LineBuffer()
    var waits: Set<ControlEvent> = []
    var inputClosed = false
    init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }
  }

  /// Listens at `path` (its directory is made if missing), mode 0600, or
  /// 0660 owned by `group`.
  init(path: String, group: String?) throws(SystemError) {
    self.path = path
    try Files.makeDirectories(Files.directory(of: path))
    listener = try UnixSocket.listen(at: path, groupName: group)
  }

  /// What to watch for readability.
  var descriptors: [FileDescriptor] { [listener] + clients.map(\.descriptor) }

  /// Accepts waiting clients and answers every complete command; never blocks.
  func service() {
    while let descriptor = UnixSocket.accept(listener) {
      if clients.count >= Self.maxClients {
        _ = descriptor.sendWithoutBlocking("error too many clients\n")
        try? descriptor.close()
      } else {
        clients.append(Client(descriptor))
      }
    }
    for client in clients where !client.inputClosed {
      read: while true {
        switch client.descriptor.readAvailable() {
        case .wouldBlock: break read
        case .closed:
          client.inputClosed = true
          break read
        case .bytes(let bytes):
          switch client.input.append(bytes) {
          case .success(let lines):
            for line in lines { handle(line, from: client) }
          case .failure(let problem):
            let reason = problem == .tooLong ? "line longer than \(ControlCommand.maxLineBytes) bytes" : "not text"
            reply(client, "error \(reason)")
            drop(client)
            break read
          }
        }
      }
    }
    // A client whose input has ended stays only for the events it waits for.
    for client in clients where client.inputClosed && client.waits.isEmpty { drop(client) }
  }

  /// Tells the clients waiting for `event` that it has happened.
  func publish(_ event: ControlEvent) {
    happened.insert(event)
    for client in clients where client.waits.contains(event) {
      client.waits.remove(event)
      reply(client, "ok \(event.rawValue)")
      if client.inputClosed && client.waits.isEmpty { drop(client) }
    }
  }

  /// Closes every connection and removes the socket file.
  func close() {
    for client in clients { try? client.descriptor.close() }
    clients = []
    try? listener.close()
    Files.remove(path)
  }

  private func handle(_ line: String, from client: Client) {
    switch ControlCommand.parse(line) {
    case .failure(let error): reply(client, "error \(error.message)")
    case .success(.reveal):
      revealRequested = true
      reply(client, "ok")
    case .success(.quit):
      quitRequested = true
      reply(client, "ok")
    case .success(.status): reply(client, "ok \(status())")
    case .success(.rotate(let rotation)):
      if let problem = rotate(rotation) { reply(client, "error \(problem)") } else { reply(client, "ok") }
    case .success(.wait(let event)):
      if happened.contains(event) { reply(client, "ok \(event.rawValue)") } else { client.waits.insert(event) }
    }
  }

  /// Sends one reply line; a client that cannot take it is dropped.
  private func reply(_ client: Client, _ text: String) {
    if !client.descriptor.sendWithoutBlocking(text + "\n") { drop(client) }
  }

  private func drop(_ client: Client) {
    guard let index = clients.firstIndex(where: { $0 === client }) else { return }
    try? client.descriptor.close()
    clients.remove(at: index)
  }
}
