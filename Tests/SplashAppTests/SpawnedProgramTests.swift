// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// The program of `ready = notify`, in process: only its own processes may
/// say it is ready (its NOTIFY_SOCKET's name is abstract, guessable from
/// `ps`: anybody could send to it), and what it says is logged within bounds.
@Suite struct SpawnedProgramTests {
  /// A shell program that runs until it is ended.
  static let program = ["sh", "-c", "sleep 60"]

  /// The NOTIFY_SOCKET the session's spawned program was given.
  func notifySocket(of splash: Harness) -> String? {
    guard let pid = splash.session?.spawned?.child.pid,
      let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    else { return nil }
    let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    return variables.first { $0.hasPrefix("NOTIFY_SOCKET=") }.map { String($0.dropFirst(14)) }
  }

  /// Starts python sending `lines` (one datagram each) to `socket`, from a
  /// process that is not the program's and stays running a moment; returns
  /// once they were sent.
  func send(_ lines: [String], to socket: String) throws -> StartedProcess {
    let script = """
      import socket, sys, time
      name = sys.argv[1]
      s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
      for line in sys.argv[2:]:
          s.sendto(line.encode(), "\\0" + name[1:])
      print("sent", flush=True)
      time.sleep(5)
      """
    let sender = try StartedProcess("/usr/bin/python3", ["-c", script, socket] + lines)
    // Read with Files: Foundation's reader leaked a buffer on a file being written (LeakSanitizer).
    _ = waitUntil(10) { (try? Files.readText(sender.stdoutPath))?.hasPrefix("sent") == true }
    return sender
  }

  @Test func anotherProcessCannotSayTheProgramIsReady() throws {
    let splash = try Harness()
    var intruder: StartedProcess?
    splash.clock.at(0.5) {
      guard let socket = notifySocket(of: splash) else {
        Issue.record("no NOTIFY_SOCKET")
        return
      }
      intruder = try? send(["READY=1"], to: socket)
    }
    splash.clock.at(1) {
      if let pid = splash.session?.spawned?.child.pid { kill(pid, SIGKILL) }
    }
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--ready", "notify", "--timeout", "3",
      "--",
    ]
    #expect(splash.run(arguments + Self.program) == .exit(128 + SIGKILL))
    intruder?.child.send(SIGKILL)
    // Revealed by the program's end, not by the intruder's READY=1.
    #expect(splash.revealReason?.hasSuffix("/sh ended") == true, "\(splash.lines)")
    #expect(splash.lines.contains { $0.contains("a notification from pid \(intruder?.pid ?? 0), not the program's") })
  }

  @Test func aProgramsStatusFloodIsLoggedWithinBounds() throws {
    let splash = try Harness()
    let flood = (0..<500).map { "STATUS=step \($0)" }
    let script = """
      import os, socket
      name = os.environ["NOTIFY_SOCKET"]
      s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
      for n in range(500):
          s.sendto(("STATUS=step %d" % n).encode(), "\\0" + name[1:])
      s.sendto(b"READY=1", "\\0" + name[1:])
      """
    let arguments = [
      "--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--ready", "notify", "--timeout", "0",
      "--", "/usr/bin/python3", "-c", script,
    ]
    #expect(splash.run(arguments) == .exit(0))
    #expect(flood.count == 500)
    let said = splash.lines.filter { $0.contains("program status: step") }
    #expect(!said.isEmpty && said.count <= LogLimit().burst + 1, "\(said.count) status lines")
    #expect(splash.revealReason?.hasSuffix("is ready (READY=1)") == true, "\(splash.lines)")
  }
}
