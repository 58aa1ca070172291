// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings
import SplashSystem

/// splashd run as `plymouth` (a link of that name, which the initramfs hook
/// makes where Plymouth is not installed, so that the splashd already there
/// is the client too): Plymouth's client command line
/// (`PlymouthCommandLine`) over splashd's control socket,
/// `$SPLASHD_CONTROL` or /run/splashd/control (where the initramfs's
/// splashd listens). As Plymouth's client, it says nothing when no splash
/// answers, and exits 1.
public enum PlymouthClient {
  /// The longest a reply is waited for, but an answer's (and `--wait`'s).
  static let replyTimeout = 10.0

  /// Whether splashd was started under Plymouth's client's name.
  public static func isCalled(_ name: String?) -> Bool { name?.split(separator: "/").last == "plymouth" }

  /// Runs `arguments` (after the program's name); the exit status.
  public static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
    func fail(_ message: String?) -> Int32 {
      if let message { try? FileDescriptor.standardError.writeAll("plymouth (splashd): \(message)\n") }
      return 1
    }
    let translation: PlymouthCommandLine.Translation
    switch PlymouthCommandLine.parse(arguments) {
    case .success(let parsed): translation = parsed
    case .failure(let error): return fail(error.message)
    }
    guard !translation.lines.isEmpty else { return 0 }
    let path = environment["SPLASHD_CONTROL"].flatMap { $0.isEmpty ? nil : $0 } ?? HandoffSettings.defaultControl
    // Only a question waits for a person; anything else (quit waits for
    // the transition) at most `replyTimeout`: a scripts/panic that ends the
    // splash can never hold up the rescue shell.
    let timeout = translation.printsAnswer || translation.lines == ["wait did-disappear"] ? nil : Self.replyTimeout
    guard var connection = try? ControlConnection(path: path, timeout: timeout) else { return fail(nil) }
    var answer = ""
    for line in translation.lines {
      guard (try? connection.send(line)) != nil, let reply = connection.replyLine() else { return fail(nil) }
      switch parseControlReply(reply) {
      case .success(let text): answer = text
      case .failure(let refusal): return fail(refusal.message)
      }
    }
    if translation.printsAnswer { try? FileDescriptor.standardOutput.writeAll(answer) }
    return 0
  }
}
