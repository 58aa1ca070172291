// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem
import Synchronization

/// Who asked a question: the connection it came on (the question dies with
/// it, and its answer goes there alone) and the asker's user.
struct Asker: Equatable {
  /// The connection, unique for the process's life (`Asker.connection()`).
  let connection: Int
  /// The asker's user, from its connection's credentials.
  let uid: uid_t

  /// A number for a new connection (atomic: splashds run in one process's
  /// threads, in the tests, take theirs at once).
  static func connection() -> Int { lastConnection.add(1, ordering: .relaxed).newValue }
  private static let lastConnection = Atomic<Int>(0)

  /// Whether it is root: the system's own questions (cryptsetup's,
  /// systemd's password agents'), asked as they are. Another user's are
  /// shown as that user's, after root's.
  var isRoot: Bool { uid == 0 }

  /// How a question of a user who is not root is shown: "kiosk (uid 1000)
  /// asks: PROMPT", so that nobody takes it for the system's.
  func shown(_ question: Question) -> Question {
    guard !isRoot else { return question }
    let who = ProgramUser.name(of: uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    return Question(question.kind, prompt: "\(who) asks: \(question.prompt)")
  }
}

/// The questions asked of the person at the screen (`ControlCommand.ask`:
/// Plymouth's ask-for-password, ask-question and watch-keystroke,
/// splashctl's ask-password and ask-question), one at a time: root's (the
/// system's: a disk's passphrase) first, in the order asked, then other
/// users', each shown with its asker's name. While one is asked, its line
/// (the prompt, then a bullet for each character of a password) is shown in
/// the message's place on every screen, and the console's terminal is read
/// key by key (`prompt-tty`: opened for the questions, given back after
/// them), so the console's keymap applies. Each answer goes to its asker
/// alone; a question dies with its asker's connection; an asker has at
/// most `maxPerAsker` waiting, all together at most `maxWaiting`; when the
/// splash ends, every question still asked gets no answer.
final class Questions: EventSource {
  private struct Asked {
    let asker: Asker
    var editor: AnswerEditor
    let answer: PendingAnswer
  }
  private var asked: [Asked] = []
  private var terminal: KeyboardTerminal?
  /// The terminal's path; nil: the console's active virtual terminal.
  private let terminalPath: String?
  private let stage: Stage
  private let log: Log
  /// Told true before the terminal is opened for the first question, false
  /// once it is given back: host mode's compositor then withholds the
  /// keyboards from its program and gives the console back its keyboard.
  var onAsking: ((Bool) -> Void)?
  private var reportedAsking = false

  /// The most questions one connection may have waiting.
  static let maxPerAsker = 4
  /// The most questions waiting, all together.
  static let maxWaiting = 64

  init(terminal: String?, stage: Stage, log: Log) {
    terminalPath = terminal
    self.stage = stage
    self.log = log
  }

  /// Whether a question waits for its answer.
  var isAsking: Bool { !asked.isEmpty }
  /// How many questions wait for their answers (the first is shown).
  var waiting: Int { asked.count }

  /// Asks `question` for `asker`: after root's questions and, for root,
  /// before every other user's (a user's question shown now waits again,
  /// what was typed for it dropped). Refused at once (the answer is why)
  /// when the asker, or everybody, has as many waiting as may.
  func ask(_ question: Question, by asker: Asker) -> PendingAnswer {
    let answer = PendingAnswer()
    if asked.count >= Self.maxWaiting {
      answer.finish(.failure(ControlError("\(Self.maxWaiting) questions wait already; ask once they are answered")))
      return answer
    }
    if asked.filter({ $0.asker.connection == asker.connection }).count >= Self.maxPerAsker {
      answer.finish(
        .failure(ControlError("this connection has \(Self.maxPerAsker) questions waiting; ask once they are answered")))
      return answer
    }
    let new = Asked(asker: asker, editor: AnswerEditor(asker.shown(question)), answer: answer)
    let place = asker.isRoot ? asked.firstIndex { !$0.asker.isRoot } ?? asked.count : asked.count
    if place == 0, let shown = asked.first {
      // A user's question gives way to root's: nothing typed for it is kept.
      asked[0].editor = AnswerEditor(shown.editor.question)
    }
    asked.insert(new, at: place)
    if place == 0 { begin() }
    return answer
  }

  /// The connection `connection` is gone: its questions go with it (the
  /// one shown gives way to the next).
  func withdraw(askedOn connection: Int) {
    let wasShown = asked.first?.asker.connection == connection
    let gone = asked.filter { $0.asker.connection == connection }
    guard !gone.isEmpty else { return }
    asked.removeAll { $0.asker.connection == connection }
    for question in gone { question.answer.finish(.failure(ControlError("the asker is gone"))) }
    log.info("ask: \(gone.count) question\(gone.count == 1 ? "" : "s") withdrawn: the asker's connection closed")
    if wasShown { begin() }
  }

  var descriptors: [FileDescriptor] { terminal.map { [$0.descriptor] } ?? [] }

  func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    guard let terminal, !asked.isEmpty else { return }
    switch terminal.descriptor.readAvailable() {
    case .wouldBlock: return
    case .bytes(let bytes):
      if let answer = asked[0].editor.take(bytes) {
        answerFirst(answer)
      } else {
        show(asked[0].editor.line)
      }
    case .closed:
      endAll(because: "\(printable(terminal.path)): the terminal was hung up")
    case .failed(let error):
      endAll(because: "\(printable(terminal.path)): \(error.phrase)")
    }
  }

  /// Every question still asked gets no answer, and why (the splash
  /// ended, the terminal could not be read: logged once); the terminal is
  /// given back.
  func endAll(because reason: String = Questions.splashEnded) {
    if reason != Self.splashEnded, !asked.isEmpty {
      log.error("ask: \(reason); the question goes unanswered")
    }
    let unanswered = asked
    asked = []
    for question in unanswered { question.answer.finish(.failure(ControlError(reason))) }
    finishAsking()
  }

  /// Why a question still asked when the splash ends has no answer.
  static let splashEnded = "the splash ended first"

  /// Shows the first question, opening the terminal for it.
  private func begin() {
    guard let first = asked.first else {
      finishAsking()
      return
    }
    if terminal == nil {
      if !reportedAsking {
        reportedAsking = true
        onAsking?(true)
      }
      let path = terminalPath ?? KeyboardTerminal.activeConsole
      do {
        terminal = try KeyboardTerminal(path)
      } catch {
        endAll(because: "\(printable(path)): \(error.phrase)")
        return
      }
    }
    // The boot's log says when the screen waits for a person (the prompt
    // is shown; never what is typed).
    log.info("ask: \"\(printable(first.editor.question.prompt))\", answered on \(printable(terminal?.path ?? ""))")
    show(first.editor.line)
  }

  private func answerFirst(_ text: String) {
    let first = asked.removeFirst()
    first.answer.finish(.success(text))
    begin()
  }

  private func finishAsking() {
    terminal?.close()
    terminal = nil
    show(nil)
    if reportedAsking {
      reportedAsking = false
      onAsking?(false)
    }
  }

  private func show(_ line: String?) {
    var next = stage.status
    next.prompt = line
    _ = stage.show(next)
  }
}
