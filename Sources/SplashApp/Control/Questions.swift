// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSystem

/// The questions asked of the person at the screen (`ControlCommand.ask`:
/// Plymouth's ask-for-password, ask-question and watch-keystroke,
/// splashctl's ask-password and ask-question), one at a time in the order
/// asked. While one is asked, its line (the prompt, then a bullet for each
/// character of a password) is shown in the message's place on every
/// screen, and the console's terminal is read key by key (`prompt-tty`:
/// opened for the questions, given back after them), so the console's
/// keymap applies. Each answer goes to its asker; when the splash ends,
/// every question still asked gets no answer.
final class Questions: EventSource {
  private var asked: [(editor: AnswerEditor, answer: PendingAnswer)] = []
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

  init(terminal: String?, stage: Stage, log: Log) {
    terminalPath = terminal
    self.stage = stage
    self.log = log
  }

  /// Whether a question waits for its answer.
  var isAsking: Bool { !asked.isEmpty }
  /// How many questions wait for their answers (the first is shown).
  var waiting: Int { asked.count }

  /// Asks `question` after those asked before it.
  func ask(_ question: Question) -> PendingAnswer {
    let answer = PendingAnswer()
    asked.append((AnswerEditor(question), answer))
    if asked.count == 1 { begin() }
    return answer
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
    for (_, answer) in unanswered { answer.finish(.failure(ControlError(reason))) }
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
    let (_, answer) = asked.removeFirst()
    answer.finish(.success(text))
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
