// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// `--compat plymouth` against Debian's own `plymouth` client program
/// (unpacked by tools/test/plymouth-client.sh, not installed). splashd runs in a
/// network namespace of its own (`unshare --net`: the abstract socket's name
/// is Plymouth's real one, private to the test) and the clients join it
/// (`nsenter --net`).
@Suite struct PlymouthClientTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }
  static let clientRoot = packageRoot + "/.build/plymouth-client"

  init() throws { dir = try TemporaryDirectory() }

  /// Debian's client, unpacked once into `clientRoot`.
  func fetchTheClient() throws {
    let fetched = try run(
      packageRoot + "/tools/test/plymouth-client.sh", [Self.clientRoot],
      environment: ProcessInfo.processInfo.environment,
      timeout: 300)
    try #require(fetched.status == 0, "tools/test/plymouth-client.sh: \(fetched.stderr)")
  }

  /// Waits for the control socket, then for the splash's first frame.
  func waitForTheSplash() -> Bool {
    waitUntil { FileManager.default.fileExists(atPath: socketPath) }
    return (try? run(splashctlPath, ["--control", socketPath, "wait", "appeared"], environment: [:]))?.status == 0
  }

  /// Runs `plymouth ARGUMENTS` in splashd's network namespace.
  func plymouth(_ arguments: [String], in pid: Int32, as user: String? = nil) throws -> Outcome {
    try startPlymouth(arguments, in: pid).finish()
  }

  /// Starts `plymouth ARGUMENTS` in splashd's network namespace.
  func startPlymouth(_ arguments: [String], in pid: Int32) throws -> StartedProcess {
    let client = [
      "/usr/bin/env", "LD_LIBRARY_PATH=\(Self.clientRoot)/usr/lib/x86_64-linux-gnu",
      Self.clientRoot + "/usr/bin/plymouth",
    ]
    return try StartedProcess(
      "/usr/bin/nsenter", ["--net=/proc/\(pid)/ns/net", "--"] + client + arguments, environment: [:])
  }

  /// The light pixels of a snapshot of the splash (the message's white
  /// text, or a question's line in its place, over a dark picture); nil
  /// when there is no snapshot.
  func lightPixels() -> Int? {
    let file = dir.path + "/prompt.png"
    guard (try? run(splashctlPath, ["--control", socketPath, "snapshot", file], environment: [:]))?.status == 0 else {
      return nil
    }
    _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [file, dir.path + "/prompt.ppm"], environment: [:])
    guard let shot = Screendump(path: dir.path + "/prompt.ppm") else { return nil }
    func isLight(_ pixel: UInt32) -> Bool { pixel >> 16 > 0x80 && (pixel >> 8) & 0xFF > 0x80 && pixel & 0xFF > 0x80 }
    return (0..<shot.height).reduce(0) { sum, y in sum + (0..<shot.width).filter { isLight(shot.at($0, y)) }.count }
  }

  /// `plymouth ask-for-password`, as cryptsetup's askpass runs it: the
  /// prompt shows on the splash with a bullet for each character typed at
  /// the terminal (a pseudo-terminal standing in for the console's VT), the
  /// terminal echoes nothing and gets its settings back after, the splash
  /// holds past its timeout while the question waits, and the client prints
  /// the answer as it does with plymouthd.
  @Test func aPasswordIsAskedOnTheSplashAndTypedAtTheConsole() throws {
    try fetchTheClient()
    let console = try PseudoTerminal()
    var light: [Int?] = []
    let dark = dir.solidPNG("dark.png", width: 40, height: 20, rgb: (0, 0, 0x40))
    var asking: Outcome?
    var heldPastTimeout = false
    var answer: Outcome?
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "400x200", "--image", dark, "--until-reveal", "--timeout", "1",
        "--control", socketPath, "--compat", "plymouth", "--prompt-tty", console.terminal, "--", "/bin/echo",
        "kiosk started",
      ], in: dir, launcher: ["/usr/bin/unshare", "--net"],
      whileRunning: { splash in
        guard waitForTheSplash(),
          let client = try? startPlymouth(["ask-for-password", "--prompt=Disk"], in: splash.pid)
        else { return }
        waitUntil(10) {
          asking = try? run(splashctlPath, ["--control", socketPath, "status"], environment: [:])
          return asking?.stdout.contains(" asking=1") == true
        }
        light.append(lightPixels())
        console.type("s3")
        waitUntil(10) { (lightPixels() ?? 0) > (light[0] ?? .max) }
        light.append(lightPixels())
        // Past the timeout, still held for the answer.
        waitUntil(10) {
          let status = (try? run(splashctlPath, ["--control", socketPath, "status"], environment: [:]))?.stdout ?? ""
          let uptime = status.split(separator: " ").first { $0.hasPrefix("uptime_s=") }.flatMap {
            Double($0.dropFirst("uptime_s=".count))
          }
          heldPastTimeout = status.hasPrefix("phase=waiting ") && (uptime ?? 0) > 2
          return heldPastTimeout
        }
        console.type("cret\r")
        answer = try? client.finish(timeout: 10)
      })
    #expect(asking?.stdout.contains(" asking=1") == true, "\(String(describing: asking)) \(outcome.stderr)")
    let (prompt, typed) = (light.first ?? nil, light.last ?? nil)
    #expect((prompt ?? 0) > 0 && (typed ?? 0) > (prompt ?? .max), "light pixels: \(light)")
    #expect(heldPastTimeout, "\(outcome.stderr)")
    #expect(answer?.status == 0 && answer?.stdout == "s3cret", "\(String(describing: answer))")
    #expect(console.echoed.isEmpty, "the terminal echoed \(console.echoed)")
    #expect(console.echoes, "the terminal's settings were not put back")
    #expect(outcome.status == 0 && outcome.stdout == "kiosk started\n", "\(outcome.stderr)")
  }

  /// A passphrase asked the systemd way (`systemd-ask-password`, as
  /// systemd-cryptsetup asks for a disk's) reaches the splash through
  /// systemd's own agent in its Plymouth mode (what splashd-ask-password.service
  /// runs): the prompt on the splash, the keys typed at the console, the
  /// answer back to the asker. splashd names itself in its Plymouth PID
  /// file (which keeps systemd's console agent away) while the splash holds,
  /// and removes it when the splash ends. The asker and the agent share
  /// splashd's network namespace (the socket) and mount namespace (a
  /// private /run/systemd/ask-password).
  @Test func aPassphraseAskedTheSystemdWayIsAnsweredOnTheSplash() throws {
    let console = try PseudoTerminal()
    var pidFileWhileHeld: String?
    var asking: Outcome?
    var answer: Outcome?
    var agent: Outcome?
    let privateAskFolder =
      "mkdir -p /run/systemd/ask-password && mount -t tmpfs -o mode=0755 splashd-test /run/systemd/ask-password"
      + " && exec \"$0\" \"$@\""
    let (pid, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "400x200", "--until-reveal", "--timeout", "1", "--control", socketPath,
        "--compat", "plymouth", "--prompt-tty", console.terminal, "--", "/bin/echo", "kiosk started",
      ], in: dir, launcher: ["/usr/bin/unshare", "--net", "--mount", "/bin/sh", "-c", privateAskFolder],
      whileRunning: { splash in
        guard waitForTheSplash() else { return }
        pidFileWhileHeld = try? String(contentsOfFile: dir.plymouthPIDFile, encoding: .utf8)
        let inSplashd = ["--net=/proc/\(splash.pid)/ns/net", "--mount=/proc/\(splash.pid)/ns/mnt", "--"]
        guard
          let asker = try? StartedProcess(
            "/usr/bin/nsenter", inSplashd + ["systemd-ask-password", "--no-tty", "--timeout=30", "Disk passphrase:"],
            environment: [:])
        else { return }
        let askFolder = "/proc/\(splash.pid)/root/run/systemd/ask-password"
        waitUntil(10) {
          ((try? FileManager.default.contentsOfDirectory(atPath: askFolder)) ?? []).contains { $0.hasPrefix("ask.") }
        }
        let forwarder = try? StartedProcess(
          "/usr/bin/nsenter", inSplashd + ["systemd-tty-ask-password-agent", "--query", "--plymouth"],
          environment: [:])
        waitUntil(10) {
          asking = try? run(splashctlPath, ["--control", socketPath, "status"], environment: [:])
          return asking?.stdout.contains(" asking=1") == true
        }
        console.type("s3cret\r")
        answer = try? asker.finish(timeout: 10)
        agent = try? forwarder?.finish(timeout: 10)
        _ = try? run(splashctlPath, ["--control", socketPath, "reveal"], environment: [:])
      })
    #expect(pidFileWhileHeld == "\(pid)\n", "\(String(describing: pidFileWhileHeld)) \(outcome.stderr)")
    #expect(asking?.stdout.contains(" asking=1") == true, "\(String(describing: asking)) \(outcome.stderr)")
    #expect(answer?.status == 0 && answer?.stdout == "s3cret\n", "\(String(describing: answer))")
    #expect(agent?.status == 0, "\(String(describing: agent))")
    #expect(console.echoed.isEmpty, "the terminal echoed \(console.echoed)")
    #expect(!FileManager.default.fileExists(atPath: dir.plymouthPIDFile), "the PID file outlived the splash")
    #expect(outcome.status == 0 && outcome.stdout == "kiosk started\n", "\(outcome.stderr)")
  }

  /// A question the splash cannot answer before it ends gets no answer: the
  /// client is told at once and fails, rather than waiting for ever.
  @Test func aQuestionStillAskedWhenTheSplashEndsGetsNoAnswer() throws {
    try fetchTheClient()
    let console = try PseudoTerminal()
    var plymouthAnswer: Outcome?
    var splashctlAnswer: Outcome?
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "32x32", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--compat", "plymouth", "--prompt-tty", console.terminal, "--", "/bin/echo", "kiosk started",
      ], in: dir, launcher: ["/usr/bin/unshare", "--net"],
      whileRunning: { splash in
        guard waitForTheSplash(),
          let client = try? startPlymouth(["ask-for-password", "--prompt=Disk"], in: splash.pid),
          let asker = try? StartedProcess(
            splashctlPath, ["--control", socketPath, "ask-password", "PIN:"], environment: [:])
        else { return }
        waitUntil(10) {
          (try? run(splashctlPath, ["--control", socketPath, "status"], environment: [:]))?.stdout.contains(" asking=2")
            == true
        }
        _ = try? run(splashctlPath, ["--control", socketPath, "quit"], environment: [:])
        plymouthAnswer = try? client.finish(timeout: 10)
        splashctlAnswer = try? asker.finish(timeout: 10)
      })
    #expect(plymouthAnswer?.status == 1 && plymouthAnswer?.stdout == "", "\(String(describing: plymouthAnswer))")
    #expect(
      splashctlAnswer?.status == 1
        && splashctlAnswer?.stderr == "splashctl: ask-password: no answer: the splash ended first\n",
      "\(String(describing: splashctlAnswer))")
    #expect(console.echoes)
    #expect(outcome.status == 0 && outcome.stdout == "kiosk started\n", "\(outcome.stderr)")
  }

  @Test func debiansPlymouthClientDrivesTheSplash() throws {
    try fetchTheClient()
    var outcomes: [String: Outcome] = [:]
    var shot: Screendump?
    var endedWhenQuitReturned = false
    let marker = dir.path + "/kiosk-started"
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "200x100", "--until-reveal", "--timeout", "0", "--control", socketPath,
        "--compat", "plymouth", "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color", "#FF0000",
        "--message-center", "0.5, 0.2", "--", "/usr/bin/touch", marker,
      ], in: dir, launcher: ["/usr/bin/unshare", "--net"],
      whileRunning: { splash in
        guard waitForTheSplash()
        else { return }
        outcomes["ping"] = try? plymouth(["--ping"], in: splash.pid)
        outcomes["message"] = try? plymouth(["display-message", "--text=Hello"], in: splash.pid)
        outcomes["progress"] = try? plymouth(["system-update", "--progress=30"], in: splash.pid)
        // Not root: refused, as Plymouth refuses it (a raw ping from a user's process).
        let ping = """
          import socket, sys
          s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
          s.connect("\\0/org/freedesktop/plymouthd")
          s.sendall(b"P\\0")
          sys.exit(0 if s.recv(1) == b"\\x06" else 1)
          """
        outcomes["user"] = try? run(
          "/usr/bin/nsenter",
          [
            "--net=/proc/\(splash.pid)/ns/net", "--", "/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/python3",
            "-c", ping,
          ],
          environment: [:])
        let file = dir.path + "/shot.png"
        _ = try? run(splashctlPath, ["--control", socketPath, "snapshot", file], environment: [:])
        _ = try? run(packageRoot + "/tools/test/png-to-ppm.py", [file, dir.path + "/shot.ppm"], environment: [:])
        shot = Screendump(path: dir.path + "/shot.ppm")
        outcomes["quit"] = try? plymouth(["quit", "--retain-splash"], in: splash.pid)
        endedWhenQuitReturned = splash.log.contains("splashd: did-disappear")
      })
    #expect(outcomes["ping"]?.status == 0, "\(String(describing: outcomes["ping"])) \(outcome.stderr)")
    #expect(outcomes["message"]?.status == 0 && outcomes["progress"]?.status == 0)
    #expect(outcomes["user"]?.status == 1, "\(String(describing: outcomes["user"]))")
    let dump = try #require(shot)
    #expect((0..<200).filter { dump.at($0, 50) == 0xFF0000 }.count == 60)
    #expect((0..<200).contains { x in (14..<27).contains { dump.at(x, $0) == 0xFFFFFF } }, "no message drawn")
    #expect(outcomes["quit"]?.status == 0)
    #expect(endedWhenQuitReturned, "plymouth quit returned before the splash ended: \(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: reveal: plymouth quit --retain-splash"))
    #expect(outcome.status == 0 && FileManager.default.fileExists(atPath: marker), "\(outcome.stderr)")
    // Where no splash runs, ping says so.
    let alone = try run(
      "/usr/bin/unshare",
      [
        "--net", "--", "/usr/bin/env", "LD_LIBRARY_PATH=\(Self.clientRoot)/usr/lib/x86_64-linux-gnu",
        Self.clientRoot + "/usr/bin/plymouth", "--ping",
      ],
      environment: [:])
    #expect(alone.status == 1)
  }

  /// Where Plymouth is not installed (an initramfs), splashd answers as
  /// `plymouth` (a link of that name) over the control socket: silent
  /// failure with no splash, as Plymouth's client; the commands cryptsetup's
  /// askpass and initramfs-tools' scripts run; quit returns once the splash
  /// is done.
  @Test func splashdAnswersAsPlymouthWherePlymouthIsNot() throws {
    let plymouth = dir.path + "/plymouth"
    try FileManager.default.createSymbolicLink(atPath: plymouth, withDestinationPath: splashdPath)
    let environment = ["SPLASHD_CONTROL": socketPath]
    let alone = try run(plymouth, ["--ping"], environment: environment)
    #expect(alone.status == 1 && alone.stdout.isEmpty && alone.stderr.isEmpty, "\(alone)")
    let console = try PseudoTerminal()
    var outcomes: [String: Outcome] = [:]
    var light: Int?
    var endedWhenQuitReturned = false
    let dark = dir.solidPNG("dark.png", width: 40, height: 20, rgb: (0, 0, 0x40))
    let (_, outcome) = try spawnSplashd(
      [
        "--display", "offscreen", "--size", "400x200", "--image", dark, "--until-reveal", "--timeout", "0",
        "--control", socketPath, "--prompt-tty", console.terminal, "--", "/bin/echo", "kiosk started",
      ], in: dir,
      whileRunning: { splash in
        guard waitForTheSplash(),
          let asker = try? StartedProcess(plymouth, ["ask-for-password", "--prompt", "Disk"], environment: environment)
        else { return }
        outcomes["ping"] = try? run(plymouth, ["--ping"], environment: environment)
        waitUntil(10) {
          (try? run(splashctlPath, ["--control", socketPath, "status"], environment: [:]))?.stdout.contains(" asking=1")
            == true
        }
        console.type("s3cret\r")
        outcomes["password"] = try? asker.finish(timeout: 10)
        outcomes["message"] = try? run(plymouth, ["display-message", "--text=Resuming"], environment: environment)
        light = lightPixels()
        outcomes["bad"] = try? run(plymouth, ["dance"], environment: environment)
        outcomes["quit"] = try? run(plymouth, ["quit"], environment: environment)
        // Stepped aside: no transition; the display was let go of before quit returned.
        endedWhenQuitReturned = waitUntil(10) { splash.ended } && !splash.log.contains("splashd: will-disappear")
      })
    #expect(outcomes["ping"]?.status == 0)
    #expect(outcomes["password"]?.status == 0 && outcomes["password"]?.stdout == "s3cret", "\(outcomes)")
    #expect(outcomes["message"]?.status == 0 && (light ?? 0) > 0, "\(String(describing: light))")
    #expect(
      outcomes["bad"]?.status == 1 && outcomes["bad"]?.stderr == "plymouth (splashd): unknown command \"dance\"\n")
    #expect(outcomes["quit"]?.status == 0 && endedWhenQuitReturned, "\(outcome.stderr)")
    #expect(outcome.stderrLines.contains("splashd: ended early: splashctl step-aside"), "\(outcome.stderr)")
    #expect(outcome.status == 0 && outcome.stdout == "kiosk started\n", "\(outcome.stderr)")
  }
}
