// SPDX-License-Identifier: Apache-2.0
import SplashConfigFile
import SplashCore
import SplashRender
import SplashSettings

/// What splashd reads from outside, each as a libFuzzer target: any bytes
/// must give an answer or a clear error, never a crash, a hang or a leak;
/// where a printer and a parser meet, what is printed must read back.
enum FuzzTargets {
  static let all: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    "picture-header": pictureHeader,
    "control-lines": controlLines,
    "settings": settings,
    "config-file": configFile,
    "shell-words": shellWords,
    "gif-structure": gifStructure,
    "plymouth-requests": plymouthRequests,
    "psplash-commands": psplashCommands,
    "kernel-uevents": kernelUevents,
    "cache-header": cacheHeader,
    "handover-state": handoverState,
    "typed-answers": typedAnswers,
    "plymouth-command-line": plymouthCommandLine,
  ]

  /// The bytes as the arguments splashd gets when it runs as `plymouth`
  /// (words split at NUL, as the kernel hands argv over): whatever they
  /// are, the control lines they become never hold a control character
  /// (a line break would start a second command), and at most two are sent.
  static func plymouthCommandLine(_ data: UnsafeRawBufferPointer) {
    let words = Array(data).split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    guard case .success(let translation) = PlymouthCommandLine.parse(words) else { return }
    precondition(translation.lines.count <= 2, "\(translation.lines)")
    for line in translation.lines {
      precondition(!line.unicodeScalars.contains { $0.value < 0x20 }, "\(line.debugDescription)")
    }
  }

  /// The bytes as the reply of a splashd that hands its display over: a
  /// state that parses prints as a line that reads back as the same line.
  static func handoverState(_ data: UnsafeRawBufferPointer) {
    let text = String(decoding: data, as: UTF8.self)
    guard let state = AdoptionState.parse(text) else { return }
    let again = AdoptionState.parse(state.text)
    precondition(again?.text == state.text && again?.cards == state.cards, "\(state.text)")
  }

  /// The bytes as a prepared-picture cache file (its length their count):
  /// a file that parses lays its pictures inside itself, apart, and prints
  /// back as the same header.
  static func cacheHeader(_ data: UnsafeRawBufferPointer) {
    guard case .success(let file) = PreparedCacheFile.parse(data.bindMemory(to: UInt8.self), fileLength: data.count)
    else { return }
    var end = file.payloadStart
    for picture in file.pictures {
      precondition(picture.offset >= end && picture.offset + picture.length <= data.count)
      end = picture.offset + picture.length
    }
    let again = PreparedCacheFile(key: file.key, sources: file.sources, pictures: file.pictures)
    guard again.fileLength <= 1 << 20 else { return }
    let printed = again.header + [UInt8](repeating: 0, count: again.fileLength - again.payloadStart)
    let parsed = printed.withUnsafeBufferPointer { PreparedCacheFile.parse($0, fileLength: printed.count) }
    precondition((try? parsed.get()) == again)
  }

  /// The bytes as a whole picture file (named .tga when the first byte is odd, for TGA's header).
  static func pictureHeader(_ data: UnsafeRawBufferPointer) {
    let bytes = Array(data)
    let name = (bytes.first ?? 0) & 1 == 1 ? "fuzz.tga" : "fuzz.bin"
    _ = readPictureHeader(name: name) { offset, count in
      guard offset >= 0, offset < bytes.count, count > 0 else { return [] }
      return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
  }

  /// The bytes as what a control client sends, in pieces of the sizes the
  /// first bytes say; every complete line is parsed as a command.
  static func controlLines(_ data: UnsafeRawBufferPointer) {
    var buffer = LineBuffer()
    forEachPiece(of: data) { chunk in
      for case .text(let line) in buffer.append(chunk) {
        precondition(line.utf8.count < ControlCommand.maxLineBytes && !line.contains("\n"))
        _ = ControlCommand.parse(line)
      }
      return true
    }
  }

  /// Calls `body` with the pieces a client's bytes arrive in, as `data`
  /// says: each piece is the size its first byte gives (at least 1), read
  /// after that byte; until the data ends or `body` returns false.
  private static func forEachPiece(of data: UnsafeRawBufferPointer, _ body: ([UInt8]) -> Bool) {
    var rest = Array(data)
    while !rest.isEmpty {
      let piece = max(1, Int(rest[0]))
      let chunk = Array(rest.dropFirst().prefix(piece))
      rest = Array(rest.dropFirst(1 + chunk.count))
      if !body(chunk) { return }
    }
  }

  /// The first byte picks a setting, the rest is its value, given on the
  /// command line and in a file; a value that is taken prints as text that
  /// reads back to the same text.
  static func settings(_ data: UnsafeRawBufferPointer) {
    guard let first = data.first else { return }
    let spec = SettingsTable.all[Int(first) % SettingsTable.all.count]
    let value = String(decoding: data.dropFirst(), as: UTF8.self)
    for source in [SettingSource.commandLine, .configFile(path: "/etc/x.conf", line: 3, directory: "/etc")] {
      var settings = Settings()
      guard (try? settings.apply(key: spec.key, value: value, from: source)) != nil else { continue }
      _ = try? settings.validate()
      guard let printed = spec.text(in: settings) else { continue }
      var again = Settings()
      do {
        try again.apply(key: spec.key, value: printed, from: .commandLine)
      } catch {
        fatalError("\(spec.key): \"\(printed)\", printed from \"\(value)\", does not read back: \(error)")
      }
      guard spec.text(in: again) == printed else {
        fatalError("\(spec.key): \"\(printed)\" reads back as \"\(spec.text(in: again) ?? "nil")\"")
      }
    }
  }

  /// The bytes as a config file; one that reads prints (--check) as a
  /// file that reads back to the same text.
  static func configFile(_ data: UnsafeRawBufferPointer) {
    var settings = Settings()
    guard (try? ConfigFile.apply(contents: Array(data), path: "fuzz.conf", directory: "/etc", to: &settings)) != nil
    else { return }
    _ = try? settings.validate()
    let printed = SettingsTable.configText(settings)
    var again = Settings()
    do {
      try ConfigFile.apply(contents: Array(printed.utf8), path: "printed.conf", directory: "/etc", to: &again)
    } catch {
      fatalError("the printed settings do not read back: \(error)\n\(printed)")
    }
    guard SettingsTable.configText(again) == printed else { fatalError("the printed settings read back otherwise") }
  }

  /// The bytes as what a Plymouth client sends, in pieces of the sizes the
  /// first bytes say; every request taken must hold what its framing said.
  static func plymouthRequests(_ data: UnsafeRawBufferPointer) {
    var buffer = PlymouthRequestBuffer()
    forEachPiece(of: data) { chunk in
      let (requests, problem) = buffer.append(chunk)
      for request in requests {
        precondition((request.argument?.count ?? 0) < 256)
        // Every request maps to one action; a command within its protocol's bounds.
        if case .command(let command) = request.action { check(command) }
        _ = request.cause
      }
      return problem == nil
    }
  }

  /// The bytes as what psplash's writers put in the FIFO, in pieces of the
  /// sizes the first bytes say, the FIFO read empty after the pieces whose
  /// first byte is odd: every command cut from them maps to a command within
  /// psplash's bounds, or is ignored.
  static func psplashCommands(_ data: UnsafeRawBufferPointer) {
    var buffer = PsplashCommandBuffer()
    forEachPiece(of: data) { chunk in
      var inputs = buffer.append(chunk)
      if let first = chunk.first, first & 1 == 1 { inputs += buffer.writesEnded() }
      for input in inputs {
        if case .command(let command) = input { check(command) }
      }
      return true
    }
  }

  /// A command a transport parsed: its progress a number, its message one
  /// line within the limit.
  private static func check(_ command: ControlCommand) {
    switch command {
    case .progress(let percent): precondition(percent.isFinite && abs(percent) <= 1_000_000)
    case .message(let text?): precondition(text.utf8.count <= BootStatus.maxMessageBytes, "\(text.utf8.count)")
    case .ask(let question): precondition(question.prompt.utf8.count <= Question.maxPromptBytes)
    default: break
    }
  }

  /// The bytes as keys typed at the console's terminal, in pieces of the
  /// sizes the first bytes say, for each kind of question: the line shown
  /// never holds a control character (nor, for a password, what was typed),
  /// and an answer stays within its limit and holds no control character.
  static func typedAnswers(_ data: UnsafeRawBufferPointer) {
    for kind in [Question.Kind.password, .question, .keystroke(keys: "yn\r")] {
      var editor = AnswerEditor(Question(kind, prompt: "Passphrase:"))
      forEachPiece(of: data) { chunk in
        if let answer = editor.take(chunk) {
          precondition(answer.utf8.count <= AnswerEditor.maxAnswerBytes)
          if case .keystroke = kind {
            precondition(["y", "n", "\n"].contains(answer))
          } else {
            precondition(!answer.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
          }
          return false
        }
        let line = editor.line
        precondition(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        if kind == .password { precondition(line.dropFirst("Passphrase: ".count).allSatisfy { $0 == "•" }) }
        return true
      }
    }
  }

  /// The bytes as a netlink message: a uevent taken must say what its
  /// header says, and a display event must name a node under /dev.
  static func kernelUevents(_ data: UnsafeRawBufferPointer) {
    guard let event = KernelUevent(Array(data)) else { return }
    precondition(event.fields["ACTION"] == event.action && event.devicePath.hasPrefix("/"))
    if let display = event.display { precondition(display.node.hasPrefix("/dev/") && !display.node.contains("..")) }
  }

  /// The bytes as an animated GIF, sized and counted from its blocks
  /// before anything decodes it.
  static func gifStructure(_ data: UnsafeRawBufferPointer) {
    guard let structure = GIFStructure(Array(data)) else { return }
    precondition(structure.frameCount >= 0 && structure.width >= 0 && structure.height >= 0)
  }

  /// The bytes as an `exec =` line; words that split quote back to the same words.
  static func shellWords(_ data: UnsafeRawBufferPointer) {
    guard case .success(let words) = splitShellWords(String(decoding: data, as: UTF8.self)) else { return }
    guard case .success(let again) = splitShellWords(shellQuoted(words)), again == words else {
      fatalError("\(words) quoted as \(shellQuoted(words)) splits otherwise")
    }
  }
}
