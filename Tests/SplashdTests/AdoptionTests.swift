// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// One splashd taking over another's splash (`--boot root` adopting what
/// `--boot initramfs` shows), both the real binary, on the offscreen back end
/// (the KMS cards' descriptors are passed in the QEMU boot test). The kernel
/// command line is a file of the test's (`[orientation] cmdline`).
@Suite struct AdoptionTests {
  let dir: TemporaryDirectory
  var socketPath: String { dir.path + "/control" }

  init() throws { dir = try TemporaryDirectory() }

  /// A config for both: offscreen, the test's socket, cache and kernel command line.
  func config(cmdline: String, extra: String = "") throws -> String {
    try cmdline.write(toFile: dir.path + "/cmdline", atomically: false, encoding: .utf8)
    let path = dir.path + "/splashd.conf"
    try """
    [splash]
    display = offscreen
    size = 64x48
    duration = 0.05
    cache = \(dir.path)/cache
    [handoff]
    control = \(socketPath)
    timeout = 60
    [orientation]
    cmdline = \(dir.path)/cmdline
    \(extra)
    """.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  func splashctl(_ arguments: [String]) throws -> Outcome {
    try run(splashctlPath, ["--control", socketPath] + arguments, environment: ProcessInfo.processInfo.environment)
  }

  /// The processes whose command line (NUL-separated) holds `needle`, by pid, with it.
  func processes(containing needle: String) -> [(pid: Int32, commandLine: String)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let pid = Int32(entry), let line = readProcFile("/proc/\(entry)/cmdline"), line.contains(needle) else {
        return nil
      }
      return (pid, line)
    }
  }

  /// Starts `--boot initramfs` as the initramfs's script does: it returns
  /// once the splash is up, and the splash goes on in the background; the
  /// outcome of the command, and the pid of the splash that goes on.
  func startInitramfsSplash(_ config: String, program: [String] = []) throws -> (
    StartedProcess, Outcome, Int32
  ) {
    let started = try StartedProcess(
      splashdPath, ["--config", config, "--boot", "initramfs"] + (program.isEmpty ? [] : ["--"] + program))
    let returned = try started.finish()
    let splash = try #require(
      processes(containing: config + "\0--boot\0initramfs").first, "no splash in the background: \(returned.stderr)")
    return (started, returned, splash.pid)
  }

  /// The same on a kernel without pidfd_open (before Linux 5.3; here a
  /// seccomp filter answers ENOSYS), where the root's splashd looks for the
  /// initramfs's end in /proc.
  @Test(arguments: [false, true])
  func theRootsSplashdTakesOverTheInitramfssSplashWithItsProgress(withoutPidfd: Bool) throws {
    let launcher = withoutPidfd ? [try SplashdTests.withoutPidfd(in: dir)] : []
    let config = try config(cmdline: "quiet splash\n")
    let (initramfs, returned, pid) = try startInitramfsSplash(config)
    defer { kill(pid, SIGKILL) }
    // The command returned once the splash was on the screen, and the splash went on, marked '@' for systemd.
    #expect(returned.status == 0, "\(returned.stderr)")
    #expect(returned.stderr.contains("splashd: appeared: first frame shown"), "\(returned.stderr)")
    #expect(processes(containing: config).first { $0.pid == pid }?.commandLine.hasPrefix("@") == true)
    _ = try splashctl(["progress", "40"])
    let before = try splashctl(["status"])
    #expect(before.stdout.contains("progress=40"), "\(before)")
    // The root's splashd holds too (until-reveal): status while it does, then reveal.
    var after: Outcome?
    let (_, root) = try spawnSplashd(
      ["--config", config, "--boot", "root", "--until-reveal"], in: dir, launcher: launcher,
      whileRunning: { _ in
        // The initramfs's splashd gone first: a status asked after that is the root's
        // (asked before, the initramfs's could answer just before it ends).
        waitUntil { !isRunning(pid) && (try? splashctl(["status"]))?.stdout.contains("display=offscreen") == true }
        after = try? splashctl(["status"])
        _ = try? splashctl(["reveal"])
      })
    // The initramfs's splashd handed over and ended at once, without its transition.
    let log = (try? String(contentsOfFile: initramfs.stderrPath, encoding: .utf8)) ?? ""
    #expect(!isRunning(pid), "\(log)")
    #expect(log.contains("splashd: handover: the display went to splashd (pid "), "\(log)")
    #expect(log.contains("splashd: ended early: handed over to splashd"), "\(log)")
    #expect(!log.contains("did-disappear"), "\(log)")
    // The root's took it over, bar and all, and played its transition.
    #expect(root.status == 0, "\(root.stderr)")
    #expect(
      root.stderr.contains("splashd: adopt: took over from the splashd of pid \(pid) on offscreen"), "\(root.stderr)")
    #expect(after?.stdout.contains("progress=40") == true, "\(String(describing: after))")
    #expect(root.stderr.contains("splashd: did-disappear: transition done"), "\(root.stderr)")
    // It went on once the initramfs's had ended (its sockets gone), not before.
    #expect(!root.stderr.contains("handed over its display but has not ended"), "\(root.stderr)")
  }

  /// Whether process `pid` is still there (and not a zombie).
  func isRunning(_ pid: Int32) -> Bool {
    guard let stat = readProcFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
    return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
  }

  @Test func aSplashThatHandsOffToItsProgramKeepsTheDisplay() throws {
    let config = try config(cmdline: "splash\n")
    let (initramfs, _, pid) = try startInitramfsSplash(config, program: ["/bin/sh", "-c", "echo ran its program"])
    defer { kill(pid, SIGKILL) }
    let root = try splashd(["--config", config, "--boot", "root"], in: dir)
    #expect(
      root.stderr.contains(
        "answered \"error handover: this splash hands the display to its program\"; this splash starts on its own"),
      "\(root.stderr)")
    #expect(root.status == 0, "\(root.stderr)")
    _ = try splashctl(["reveal"])
    waitUntil { !isRunning(pid) }
    let output = (try? String(contentsOfFile: initramfs.stdoutPath, encoding: .utf8)) ?? ""
    #expect(output == "ran its program\n")
  }

  /// Something else answering on the control socket (a fake splashd) cannot
  /// hold the root's splashd or hand it nothing: a reply without the
  /// descriptors it names, bytes that are not text, silence (bounded by
  /// 2 s), a hang-up. Each is one line, and the splash starts on its own.
  @Test(arguments: [
    (
      "lying", "c.sendall(b'ok handover display=kms rotation=0 cards=/dev/dri/card0\\n'); time.sleep(5)",
      "answered \"ok handover display=kms rotation=0 cards=/dev/dri/card0\""
    ),
    ("binary", "c.sendall(b'ok \\x00\\xff\\n'); time.sleep(5)", "answered bytes that are not text"),
    ("silent", "time.sleep(5)", "did not answer in 2 s"),
    ("hang-up", "c.close()", "hung up without answering"),
  ])
  func aFakeSplashdOnTheSocketIsPassedOver(name: String, behaviour: String, said: String) throws {
    let config = try config(cmdline: "splash\n")
    let script = """
      import os, socket, sys, time
      s = socket.socket(socket.AF_UNIX)
      s.bind(sys.argv[1] + ".part"); s.listen(1); os.rename(sys.argv[1] + ".part", sys.argv[1])
      c, _ = s.accept(); c.recv(100)
      \(behaviour)
      """
    let fake = try StartedProcess("/usr/bin/python3", ["-c", script, socketPath])
    defer { fake.child.send(SIGKILL) }
    try #require(waitUntil { FileManager.default.fileExists(atPath: socketPath) }, "\(name): no fake socket")
    let root = try splashd(["--config", config, "--boot", "root", "--", "/bin/echo", "kiosk"], in: dir)
    #expect(root.stderr.contains(said + "; this splash starts on its own"), "\(name): \(root.stderr)")
    #expect(root.stderr.contains("splashd: appeared"), "\(name): \(root.stderr)")
    #expect(root.status == 0 && root.stdout == "kiosk\n", "\(name): \(root.stderr)")
  }

  /// A splashd of another user on the control path (a socket bound by
  /// nobody) cannot hand the root's splashd a display or a boot status: it
  /// is not asked, and the splash starts on its own.
  @Test func aSocketOfAnotherUserIsNotAdoptedFrom() throws {
    let config = try config(cmdline: "splash\n")
    chmod(dir.path, 0o1777)
    let script = """
      import os, socket, sys, time
      os.setgid(65534); os.setuid(65534)
      s = socket.socket(socket.AF_UNIX)
      s.bind(sys.argv[1] + ".part"); s.listen(1); os.rename(sys.argv[1] + ".part", sys.argv[1])
      c, _ = s.accept(); asked = c.recv(100)
      c.sendall(b'ok handover display=offscreen rotation=0 progress=77 message=spoofed\\n'); time.sleep(5)
      """
    let fake = try StartedProcess("/usr/bin/python3", ["-c", script, socketPath])
    defer { fake.child.send(SIGKILL) }
    try #require(waitUntil { FileManager.default.fileExists(atPath: socketPath) }, "no fake socket")
    let root = try splashd(["--config", config, "--boot", "root", "--", "/bin/echo", "kiosk"], in: dir)
    #expect(
      root.stderr.contains("runs as uid 65534, not as this splashd's user; this splash starts on its own"),
      "\(root.stderr)")
    #expect(!root.stderr.contains("adopt: took over"), "\(root.stderr)")
    #expect(root.status == 0 && root.stdout == "kiosk\n", "\(root.stderr)")
  }

  @Test func noSplashOnTheKernelCommandLineRunsTheProgramAtOnce() throws {
    let config = try config(cmdline: "ro nosplash\n")
    let outcome = try splashd(["--config", config, "--boot", "root", "--", "/bin/echo", "kiosk"], in: dir)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "kiosk\n")
    #expect(outcome.stderrLines.contains("splashd: boot: the kernel command line says nosplash: no splash"))
    #expect(!outcome.stderr.contains("appeared"), "\(outcome.stderr)")
    // Without --boot, the command line is not splashd's business (a preview).
    let preview = try splashd(["--config", config, "--", "/bin/echo", "kiosk"], in: dir)
    #expect(preview.stderr.contains("splashd: appeared"), "\(preview.stderr)")
  }

  @Test func withoutSplashWordHideNeedsTheWord() throws {
    let config = try config(cmdline: "quiet\n", extra: "")
    let hidden = try splashd(
      ["--config", config, "--boot", "root", "--without-splash-word", "hide", "--", "/bin/true"], in: dir)
    #expect(
      hidden.stderrLines.contains(
        "splashd: boot: the kernel command line has no splash word (without-splash-word = hide): no splash"),
      "\(hidden.stderr)")
    try "quiet splash\n".write(toFile: dir.path + "/cmdline", atomically: false, encoding: .utf8)
    let shown = try splashd(
      ["--config", config, "--boot", "root", "--without-splash-word", "hide", "--", "/bin/true"], in: dir)
    #expect(shown.stderr.contains("splashd: appeared"), "\(shown.stderr)")
  }

  @Test func theShutdownSplashShowsItsPictureUntilStopped() throws {
    let picture = dir.path + "/shutdown.png"
    writeFile(atPath: picture, contents: makePNG(width: 8, height: 8) { _, _ in (255, 0, 255) })
    let config = try config(cmdline: "splash\n", extra: "")
    var snapshot: Outcome?
    let (_, outcome) = try spawnSplashd(
      ["--config", config, "--boot", "shutdown", "--image-shutdown", picture], in: dir,
      whileRunning: { running in
        waitUntil { FileManager.default.fileExists(atPath: socketPath) }
        _ = try? splashctl(["wait", "appeared"])
        snapshot = try? run(
          splashctlPath, ["--control", socketPath, "snapshot", dir.path + "/shown.png"],
          environment: ProcessInfo.processInfo.environment)
        kill(running.pid, SIGTERM)
      })
    #expect(snapshot?.status == 0, "\(String(describing: snapshot))")
    _ = try run(
      packageRoot + "/tools/test/png-to-ppm.py", [dir.path + "/shown.png", dir.path + "/shown.ppm"], environment: [:])
    let shown = try #require(Screendump(path: dir.path + "/shown.ppm"))
    #expect(shown.at(32, 24) == 0xFF00FF)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("splashd: ended early: SIGTERM"), "\(outcome.stderr)")
  }
}
