// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashSystem
import SplashTestSupport
import Testing

/// The control socket's file: there only when it answers, only one
/// splashd's, its owner's alone.
@Suite struct ControlSocketFileTests {
  /// Connects to `path`; true when something listens there.
  func answers(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    return withUnixAddress(path) { connect(fd, $0, $1) } == 0
  }

  /// The names of the files in `dir` that start with `control`.
  func sockets(in dir: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("control") }
  }

  /// A script that waits for the file and then connects is never refused:
  /// a watcher connects the moment the file shows, 3000 times over. (The
  /// socket used to be bound at its path and listened on after a chmod: the
  /// CI's `hostileControlClientsCannotHoldTheSplash` once connected between
  /// the two and was refused.)
  @Test func theFileAnswersFromTheMomentItAppears() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path + "/control"
    let refused = Counter()
    for _ in 0..<3000 {
      let seen = DispatchSemaphore(value: 0)
      let watcher = Thread {
        while !FileManager.default.fileExists(atPath: path) {}
        if !answers(path) { refused.add(1) }
        seen.signal()
      }
      watcher.start()
      let (listener, replaced) = try UnixSocket.listen(at: path, groupName: nil)
      #expect(!replaced)
      seen.wait()
      try listener.close()
      unlink(path)
    }
    #expect(refused.count == 0, "refused \(refused.count) of 3000 times")
    #expect(try sockets(in: dir).isEmpty)  // no side name left
  }

  /// A second listener at a path one answers on is refused and leaves the
  /// first's file as it was (mode 0600, nothing beside it).
  @Test func aLiveSocketIsNotTakenOver() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path + "/control"
    let (first, _) = try UnixSocket.listen(at: path, groupName: nil)
    defer { try? first.close() }
    #expect(throws: SystemError("bind \(path)", code: EADDRINUSE)) {
      try UnixSocket.listen(at: path, groupName: nil)
    }
    #expect(answers(path))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try sockets(in: dir) == ["control"])
  }
}

extension ControlSocketFileTests {
  /// Two splashds that start at once at the same path: one listens there and
  /// answers, the other is told EADDRINUSE, 500 times over (each makes its
  /// socket ready under a name of its own: with one shared side name, both
  /// often ended refused with ENOENT and no socket at all).
  @Test func twoStartingAtOnceLeaveOneThatAnswers() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path + "/control"
    var outcomes: [String] = []
    for _ in 0..<500 {
      let results = ResultBox()
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        results.add(Result { () throws(SystemError) in try UnixSocket.listen(at: path, groupName: nil).listener })
      }
      let listeners = results.all.compactMap { try? $0.get() }
      let refusals = results.all.compactMap { result -> Int32? in
        if case .failure(let error) = result { error.code } else { nil }
      }
      let outcome = "\(listeners.count) listening, refused \(refusals), answers \(answers(path))"
      if outcome != "1 listening, refused [\(EADDRINUSE)], answers true" { outcomes.append(outcome) }
      for listener in listeners { try? listener.close() }
      unlink(path)
    }
    #expect(outcomes.isEmpty, "\(outcomes.count) of 500: \(outcomes.prefix(5))")
    #expect(try sockets(in: dir).isEmpty)
  }
}

/// The outcomes of listen calls made on several threads.
final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<FileDescriptor, SystemError>] = []
  var all: [Result<FileDescriptor, SystemError>] { lock.withLock { results } }
  func add(_ result: Result<FileDescriptor, SystemError>) { lock.withLock { results.append(result) } }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var count: Int { lock.withLock { value } }
  func add(_ amount: Int) { lock.withLock { value += amount } }
}
