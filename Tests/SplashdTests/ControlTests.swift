import Foundation
import Testing

/// The splashctl next to splashd.
let splashctlPath = URL(fileURLWithPath: splashdPath).deletingLastPathComponent().appendingPathComponent("splashctl")
  .path

/// A raw client of the control socket, for input splashctl would never send.
final class RawClient {
  let fd: Int32

  init(_ path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in path.utf8.enumerated() { $0[i] = b } }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else { throw TestFailure("cannot connect to \(path)") }
  }

  deinit { close(fd) }

  func send(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }
  func send(_ text: String) { send(Array(text.utf8)) }
  func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

  /// Everything received until `lines` whole lines have come, the peer
  /// closes, or 5 s pass.
  func receive(lines: Int = 1) -> (text: String, closed: Bool) {
    var data: [UInt8] = []
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 8192)
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return (String(decoding: data, as: UTF8.self), true) }
      data += buffer[..<count]
      if data.filter({ $0 == 10 }).count >= lines { break }
    }
    return (String(decoding: data, as: UTF8.self), false)
  }
}

@Suite struct ControlTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }
  let held = ["--display", "offscreen", "--size", "32x32", "--duration", "0.05", "--until-reveal", "--timeout", "0"]

  init() throws { dir = try TemporaryDirectory() }

  /// Runs splashctl and returns its outcome.
  func splashctl(_ arguments: [String]) throws -> Outcome {
    try run(splashctlPath, ["--control", socketPath] + arguments, environment: ProcessInfo.processInfo.environment)
  }

  func waitForSocket() {
    for _ in 0..<200 {
      if FileManager.default.fileExists(atPath: socketPath) { return }
      usleep(10_000)
    }
  }

  @Test func revealOpensTheGateAndStatusTellsThePhase() throws {
    var before: Outcome?
    var mode: Int?
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath, "--", "/bin/sh", "-c", "echo handed off"], in: dir,
      whileRunning: { _ in
        waitForSocket()
        usleep(300_000)
        mode = (try? FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions]) as? Int
        before = try? splashctl(["status"])
        _ = try? splashctl(["reveal"])
      })
    #expect(mode == 0o600)
    #expect(before?.status == 0)
    #expect(
      before?.stdout.hasPrefix("phase=waiting rotation=0 display=offscreen uptime_s=") == true,
      "\(String(describing: before))")
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "handed off\n")
    #expect(outcome.stderrLines.contains("splashd: reveal: splashctl reveal"))
    #expect(!FileManager.default.fileExists(atPath: socketPath))  // removed on the way out
  }

  @Test func quitEndsTheSplashAndHandsOff() throws {
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath, "--", "/bin/sh", "-c", "exit 3"], in: dir,
      whileRunning: { _ in
        waitForSocket()
        _ = try? splashctl(["quit"])
      })
    #expect(outcome.status == 3)
    #expect(outcome.stderrLines.contains("splashd: ended early: splashctl quit"))
    #expect(!outcome.stderrLines.contains { $0.hasPrefix("splashd: did-disappear") })
  }

  @Test func eventsReachEveryWaitingClient() throws {
    var waiters: [Process] = []
    var late: Outcome?
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { _ in
        waitForSocket()
        for event in ["did-disappear", "did-disappear", "will-disappear", "did-disappear"] {
          let process = Process()
          process.executableURL = URL(fileURLWithPath: splashctlPath)
          process.arguments = ["--control", socketPath, "wait", event]
          try? process.run()
          waiters.append(process)
        }
        usleep(300_000)
        late = try? splashctl(["wait", "appeared"])  // already happened: answered at once
        _ = try? splashctl(["reveal"])
      })
    #expect(outcome.status == 0)
    #expect(late?.status == 0)
    for waiter in waiters {
      waiter.waitUntilExit()
      #expect(waiter.terminationStatus == 0)
    }
  }

  @Test func aWaiterIsToldWhenSplashdEndsWithoutTheEvent() throws {
    let waiter = Process()
    let errors = Pipe()
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { pid in
        waitForSocket()
        waiter.executableURL = URL(fileURLWithPath: splashctlPath)
        waiter.arguments = ["--control", socketPath, "wait", "did-disappear"]
        waiter.standardError = errors
        try? waiter.run()
        usleep(300_000)
        kill(pid, SIGTERM)
      })
    #expect(outcome.status == 0)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    waiter.waitUntilExit()
    #expect(waiter.terminationStatus == 1)
    #expect(message == "splashctl: splashd ended without did-disappear\n")
  }

  @Test func badClientsNeverDisturbTheSplash() throws {
    var replies: [String: (String, Bool)] = [:]
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { _ in
        waitForSocket()
        guard let silent = try? RawClient(socketPath), let binary = try? RawClient(socketPath),
          let huge = try? RawClient(socketPath), let unknown = try? RawClient(socketPath),
          let halfClosed = try? RawClient(socketPath)
        else { return }
        _ = silent  // connects and never writes
        binary.send([0x00, 0xFF, 0x13, 0x0A])
        replies["binary"] = binary.receive()
        huge.send(String(repeating: "r", count: 5000))
        replies["huge"] = huge.receive()
        replies["hugeAfter"] = huge.receive()
        unknown.send("dance\nstatus\n")
        replies["unknown"] = unknown.receive(lines: 2)
        halfClosed.send("status\n")
        halfClosed.shutdownWriting()
        replies["halfClosed"] = halfClosed.receive()
        _ = try? splashctl(["reveal"])
      })
    #expect(outcome.status == 0)
    #expect(outcome.stderrLines.contains("splashd: reveal: splashctl reveal"))
    #expect(replies["binary"]?.0 == "error not text\n")
    #expect(replies["huge"]?.0 == "error line longer than 4096 bytes\n")
    #expect(replies["hugeAfter"]?.1 == true)  // and the connection is closed
    #expect(
      replies["unknown"]?.0.hasPrefix(
        "error unknown command \"dance\"; known: reveal, quit, status, wait EVENT, rotate ANGLE\nok phase=") == true,
      "\(String(describing: replies["unknown"]))")
    #expect(replies["halfClosed"]?.0.hasPrefix("ok phase=") == true)  // starting or waiting, by timing
  }

  @Test func rotateTurnsAHeldSplashButNotMovingDoors() throws {
    var status: Outcome?
    var late: Outcome?
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "32x32", "--duration", "60", "--until-reveal", "--timeout", "0",
        "--control", socketPath, "--", "/bin/sh", "-c", "echo $SPLASHD_ROTATION",
      ],
      in: dir,
      whileRunning: { _ in
        waitForSocket()
        usleep(200_000)
        _ = try? splashctl(["rotate", "180"])
        status = try? splashctl(["status"])
        _ = try? splashctl(["reveal"])
        usleep(300_000)  // the 60 s transition is running now
        late = try? splashctl(["rotate", "90"])
        _ = try? splashctl(["quit"])
      })
    #expect(status?.stdout.hasPrefix("phase=waiting rotation=180 ") == true, "\(String(describing: status))")
    #expect(late?.status == 1)
    #expect(late?.stderr == "splashctl: rotate: the transition has started; the angle stays 180\n")
    #expect(outcome.stdout == "180\n")
    #expect(outcome.stderrLines.contains("splashd: turned to 180 degrees (splashctl rotate)"))
  }

  /// Turned to portrait while it holds, the splash takes the picture made
  /// for portrait.
  @Test func turningToPortraitTakesThePortraitPicture() throws {
    let wide = dir.solidPNG("wide.png", width: 40, height: 30, rgb: (9, 9, 9))
    let tall = dir.solidPNG("tall.png", width: 30, height: 40, rgb: (7, 7, 7))
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "64x32", "--image", wide, "--image-portrait", tall, "--until-reveal",
        "--timeout", "0", "--control", socketPath,
      ],
      in: dir,
      whileRunning: { _ in
        waitForSocket()
        usleep(200_000)
        _ = try? splashctl(["rotate", "90"])
        _ = try? splashctl(["rotate", "180"])
        _ = try? splashctl(["quit"])
      })
    #expect(outcome.stderrLines.contains("splashd: turned to 90 degrees (splashctl rotate); pictures: image-portrait"))
    #expect(outcome.stderrLines.contains("splashd: turned to 180 degrees (splashctl rotate); pictures: image"))
  }

  @Test func splashctlWithoutSplashdAndWithBadUsage() throws {
    let unreachable = try splashctl(["status"])
    #expect(unreachable.status == 1)
    #expect(unreachable.stderr == "splashctl: cannot reach splashd at \(socketPath): no such file or directory\n")
    let bad = try splashctl(["wait", "forever"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("splashctl: wait needs one event"))
    let none = try run(splashctlPath, [], environment: ProcessInfo.processInfo.environment)
    #expect(none.status == 2)
  }

  @Test func aStaleSocketFileIsReplacedAndABadGroupOnlyCostsTheSocket() throws {
    FileManager.default.createFile(atPath: socketPath, contents: Data("stale".utf8))
    var status: Outcome?
    let (_, outcome) = try spawnSplashd(
      held + ["--control", socketPath], in: dir,
      whileRunning: { _ in
        usleep(300_000)
        status = try? splashctl(["status"])
        _ = try? splashctl(["reveal"])
      })
    #expect(status?.status == 0)
    #expect(outcome.status == 0)
    let (_, noGroup) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "32x32", "--duration", "0", "--control", socketPath, "--control-group",
        "no-such-group-here",
      ],
      in: dir)
    #expect(noGroup.status == 0)
    #expect(
      noGroup.stderrLines.first?.hasPrefix("splashd: --control \(socketPath): no control socket: ") == true,
      "\(noGroup.stderrLines)")
  }
}
