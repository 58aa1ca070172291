// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SplashCore
import SplashTestSupport
import Testing

@testable import SplashApp

/// `--compat psplash`: psplash's FIFO, written as psplash-write writes it.
@Suite struct PsplashTests {
  /// Writes `bytes` to the FIFO at `path` as psplash-write does: opened
  /// O_WRONLY|O_NONBLOCK (failing when nobody reads it), written, closed.
  @discardableResult
  func psplashWrite(_ path: String, _ bytes: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return write(fd, bytes, bytes.count) == bytes.count
  }

  func command(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

  func held(_ splash: Harness) -> [String] {
    splash.environment["PSPLASH_FIFO_DIR"] = splash.dir.path
    splash.screens.size = PixelSize(width: 200, height: 100)
    return [
      "--display", "screen", "--duration", "0.1", "--until-reveal", "--timeout", "0", "--control",
      splash.controlPath, "--compat", "psplash", "--progress-rect", "0, 0.45, 1, 0.1", "--progress-color",
      "#FF0000",
    ]
  }

  @Test func commandsArriveWholeSplitAndSeveralToAWrite() throws {
    let splash = try Harness()
    let fifo = splash.dir.path + "/psplash_fifo"
    var mode: Int?
    var statuses: [String: String] = [:]
    func status(_ name: String, at time: Double) {
      splash.clock.at(time) {
        let client = TestClient(splash.controlPath)
        client.send("status\n")
        splash.clock.at(time + 0.01) { statuses[name] = client.replies.first }
      }
    }
    splash.clock.at(0.2) {
      mode = (try? FileManager.default.attributesOfItem(atPath: fifo)[.posixPermissions]) as? Int
      // Many writers in a row, each opening and closing as psplash-write does.
      for percent in stride(from: 5, through: 50, by: 5) { psplashWrite(fifo, command("PROGRESS \(percent)")) }
    }
    status("many", at: 0.3)
    // Several commands in one write, a newline as a terminator, garbage ignored.
    splash.clock.at(0.4) {
      psplashWrite(fifo, command("PROGRESS 10") + command("BOGUS stuff") + Array("PROGRESS 20\n".utf8))
    }
    status("several", at: 0.5)
    // A write without an end is a command once the FIFO is read empty, as
    // psplash takes it: what comes later is another (the core joins a
    // command split across reads of one write).
    splash.clock.at(0.6) { psplashWrite(fifo, Array("PROGRESS 3".utf8)) }
    splash.clock.at(0.65) { psplashWrite(fifo, command("5")) }
    status("split", at: 0.7)
    // psplash's atoi: a negative value fills from the right; over 100 is full; no number is 0.
    splash.clock.at(0.8) { psplashWrite(fifo, command("PROGRESS -30")) }
    status("negative", at: 0.85)
    splash.clock.at(0.9) { psplashWrite(fifo, command("PROGRESS 250x")) }
    status("over", at: 0.95)
    // Too long: dropped with a line; what follows still works.
    splash.clock.at(1.0) {
      psplashWrite(fifo, Array(String(repeating: "M", count: 5000).utf8) + command("") + command("PROGRESS 60"))
    }
    status("after-long", at: 1.05)
    splash.clock.at(1.2) { psplashWrite(fifo, command("QUIT")) }
    let ending = splash.run(held(splash) + ["--", "/bin/true"])
    guard case .handOff = ending else {
      Issue.record("expected a hand-off, got \(ending)")
      return
    }
    #expect(mode == 0o600)
    func progress(_ name: String) -> String? {
      statuses[name]?.split(separator: " ").first { $0.hasPrefix("progress=") }.map(String.init)
    }
    #expect(progress("many") == "progress=50", "\(statuses)")
    #expect(progress("several") == "progress=20")
    #expect(progress("split") == "progress=3")
    #expect(splash.lines.contains("splashd: psplash: ignored \"5\""))
    #expect(progress("negative") == "progress=-30")
    #expect(progress("over") == "progress=100")
    #expect(progress("after-long") == "progress=60")
    #expect(splash.lines.contains("splashd: psplash: ignored \"BOGUS stuff\""))
    #expect(splash.lines.contains("splashd: psplash: a command longer than 4096 bytes was dropped"))
    #expect(splash.revealReason == "psplash QUIT")
    #expect(splash.lines.contains { $0.hasPrefix("splashd: did-disappear") })
    // splashd made the FIFO, so it removes it; a writer then finds nobody, as with psplash gone.
    #expect(!FileManager.default.fileExists(atPath: fifo))
  }

  /// As in psplash, `MSG` with nothing after it changes nothing; the rest
  /// after the first space is the text, spaces and all.
  @Test func aMessageShowsAndAnEmptyOneIsIgnored() throws {
    let splash = try Harness()
    let fifo = splash.dir.path + "/psplash_fifo"
    var before: [UInt8] = []
    var shown: [UInt8] = []
    var cleared: [UInt8] = []
    splash.clock.at(0.1) {
      let client = TestClient(splash.controlPath)
      client.send("snapshot\n")
      splash.clock.at(0.15) { before = client.bytes }
    }
    splash.clock.at(0.2) { psplashWrite(fifo, command("MSG Mounting /data now")) }
    splash.clock.at(0.3) {
      let client = TestClient(splash.controlPath)
      client.send("snapshot\n")
      splash.clock.at(0.35) { shown = client.bytes }
    }
    splash.clock.at(0.4) { psplashWrite(fifo, command("MSG")) }
    splash.clock.at(0.5) {
      let client = TestClient(splash.controlPath)
      client.send("snapshot\n")
      splash.clock.at(0.55) { cleared = client.bytes }
    }
    splash.clock.at(0.6) { psplashWrite(fifo, command("QUIT")) }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(shown.starts(with: Array("ok png ".utf8)) && shown.count > 100)
    #expect(before.starts(with: Array("ok png ".utf8)) && before != shown)
    // The same frame: the message stayed.
    #expect(cleared == shown)
    #expect(splash.lines.contains("splashd: psplash: ignored \"MSG\""))
  }

  /// A file at the FIFO's path that is not a FIFO is left alone, and a FIFO
  /// another program reads is that program's: one line, and the splash goes on.
  @Test func aNameTakenByAnotherProgramIsLeftToIt() throws {
    let splash = try Harness()
    let path = splash.dir.path + "/psplash_fifo"
    writeFile(atPath: path, contents: Data("mine".utf8))
    splash.clock.at(0.5) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(
      splash.lines.contains(
        "splashd: --compat psplash: \(path): is there and is not a FIFO; it is left as it is; no psplash FIFO"),
      "\(splash.lines)")
    #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8))

    let other = try Harness()
    let fifo = other.dir.path + "/psplash_fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    other.clock.at(0.5) { TestClient(other.controlPath).send("reveal\n") }
    #expect(other.run(held(other)) == .exit(0))
    #expect(
      other.lines.contains("splashd: --compat psplash: \(fifo): another program reads this FIFO; no psplash FIFO"),
      "\(other.lines)")
    // Not splashd's: still there after it.
    #expect(FileManager.default.fileExists(atPath: fifo))
  }

  /// A FIFO left by a psplash that is gone (nobody reads it) is taken, and kept.
  @Test func aLeftoverFIFOIsUsedAndLeftInPlace() throws {
    let splash = try Harness()
    let fifo = splash.dir.path + "/psplash_fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    splash.clock.at(0.3) { psplashWrite(fifo, command("QUIT")) }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(splash.revealReason == "psplash QUIT")
    #expect(FileManager.default.fileExists(atPath: fifo))
  }

  /// A writer that floods the FIFO with commands psplash ignores cannot
  /// flood the log: twenty lines, then one a second saying how many went
  /// unsaid; the commands after the flood are still taken.
  @Test func aFloodOfIgnoredCommandsIsSaidBriefly() throws {
    let splash = try Harness()
    let fifo = splash.dir.path + "/psplash_fifo"
    var written = 0
    splash.clock.at(0.3) {
      let flood = [UInt8]((0..<30_000).flatMap { _ in command("X") })
      let fd = open(fifo, O_WRONLY | O_NONBLOCK)
      defer { close(fd) }
      written = flood.withUnsafeBytes { write(fd, $0.baseAddress, flood.count) }
    }
    splash.clock.at(1.5) { psplashWrite(fifo, command("X")) }
    splash.clock.at(1.6) { psplashWrite(fifo, command("QUIT")) }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(written > 1000, "\(written)")
    let ignored = splash.lines.filter { $0.hasPrefix("splashd: psplash: ignored") }
    #expect(ignored.count == 21, "\(ignored.count) lines")
    #expect(ignored.last == "splashd: psplash: ignored \"X\" (\(written / 2 - 20) more like it not said)")
    #expect(splash.revealReason == "psplash QUIT")
  }

  /// A FIFO another user made, or one anybody may write, is not used: its
  /// writers could reveal the splash (nobody's QUIT did). One line says so.
  @Test(arguments: ["others may write", "another user's"])
  func aFIFOThatOthersControlIsNotUsed(kind: String) throws {
    let splash = try Harness()
    let fifo = splash.dir.path + "/psplash_fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    if kind == "others may write" { chmod(fifo, 0o622) } else { chown(fifo, 65534, 65534) }
    splash.clock.at(0.3) { psplashWrite(fifo, command("QUIT")) }
    splash.clock.at(1) { TestClient(splash.controlPath).send("reveal\n") }
    #expect(splash.run(held(splash)) == .exit(0))
    #expect(splash.revealReason == "splashctl reveal")
    let said = kind == "others may write" ? "is a FIFO others may write; it is not used" : "is a FIFO of uid 65534's"
    #expect(
      splash.lines.contains { $0.hasPrefix("splashd: --compat psplash: \(fifo): ") && $0.contains(said) },
      "\(splash.lines)")
    #expect(FileManager.default.fileExists(atPath: fifo))
  }

  @Test func theFIFOFollowsTheControlSocketsGroup() throws {
    let splash = try Harness()
    var mode: Int?
    splash.clock.at(0.2) {
      mode =
        (try? FileManager.default.attributesOfItem(atPath: splash.dir.path + "/psplash_fifo")[.posixPermissions])
        as? Int
      TestClient(splash.controlPath).send("reveal\n")
    }
    let group = String(cString: getgrgid(getgid())!.pointee.gr_name)
    #expect(splash.run(held(splash) + ["--control-group", group]) == .exit(0))
    #expect(mode == 0o660)
  }
}
