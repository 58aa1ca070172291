import Foundation
import Testing

/// The splashd binary built beside this test bundle.
let splashdPath: String = {
  let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  return directory.appendingPathComponent("splashd").path
}()

/// The package's root directory (holds Config/).
let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

/// What a finished process did.
struct Outcome {
  var status: Int32
  var stdout: String
  var stderr: String
  var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs `executable` with `arguments`, killing it after `timeout` seconds
/// (a hang fails the calling test).
func run(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 30
) throws -> Outcome {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  var env = environment ?? ProcessInfo.processInfo.environment
  if environment == nil {
    env["DISPLAY"] = nil
    env["WAYLAND_DISPLAY"] = nil
  }
  process.environment = env
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("splashd-out-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let out = scratch.appendingPathComponent("out")
  let err = scratch.appendingPathComponent("err")
  FileManager.default.createFile(atPath: out.path, contents: nil)
  FileManager.default.createFile(atPath: err.path, contents: nil)
  process.standardOutput = try FileHandle(forWritingTo: out)
  process.standardError = try FileHandle(forWritingTo: err)
  try process.run()
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  if process.isRunning {
    process.terminate()
    process.waitUntilExit()
    Issue.record("\(executable) \(arguments) did not finish within \(timeout) s")
  }
  process.waitUntilExit()
  return Outcome(
    status: process.terminationStatus,
    stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
    stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

/// Runs splashd with an empty config file, so that a machine's own
/// /etc/splashd/splashd.conf cannot change the outcome.
func splashd(
  _ arguments: [String], in directory: TemporaryDirectory, environment: [String: String]? = nil, timeout: Double = 30
)
  throws -> Outcome
{
  let hasConfig = arguments.contains { $0 == "--config" || $0.hasPrefix("--config=") }
  return try run(
    splashdPath, (hasConfig ? [] : ["--config", directory.emptyConfig]) + arguments, environment: environment,
    timeout: timeout)
}

/// Runs splashd (with `dir`'s empty config unless the arguments name one),
/// calls `act` with its PID while it runs, and returns (its PID, outcome).
/// With a `launcher`, that command runs first and is given splashd's path
/// and arguments to exec.
func spawnSplashd(
  _ arguments: [String], in dir: TemporaryDirectory, launcher: [String] = [],
  whileRunning act: (Int32) -> Void = { _ in }
) throws -> (Int32, Outcome) {
  let process = Process()
  let hasConfig = arguments.contains { $0 == "--config" || $0.hasPrefix("--config=") }
  let splashdArguments = (hasConfig ? [] : ["--config", dir.emptyConfig]) + arguments
  if let first = launcher.first {
    process.executableURL = URL(fileURLWithPath: first)
    process.arguments = Array(launcher.dropFirst()) + [splashdPath] + splashdArguments
  } else {
    process.executableURL = URL(fileURLWithPath: splashdPath)
    process.arguments = splashdArguments
  }
  var environment = ProcessInfo.processInfo.environment
  environment["DISPLAY"] = nil
  environment["WAYLAND_DISPLAY"] = nil
  process.environment = environment
  let out = dir.path + "/out-\(UUID().uuidString)"
  let err = dir.path + "/err-\(UUID().uuidString)"
  FileManager.default.createFile(atPath: out, contents: nil)
  FileManager.default.createFile(atPath: err, contents: nil)
  process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
  process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
  try process.run()
  act(process.processIdentifier)
  let deadline = Date().addingTimeInterval(30)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  if process.isRunning {
    kill(process.processIdentifier, SIGKILL)
    Issue.record("splashd \(arguments) did not finish")
  }
  process.waitUntilExit()
  return (
    process.processIdentifier,
    Outcome(
      status: process.terminationStatus, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
  )
}

/// A temporary directory with a few files the tests share.
final class TemporaryDirectory {
  let path: String
  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("splashd-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: emptyConfig, contents: Data())
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }

  var emptyConfig: String { path + "/empty.conf" }

  func file(_ name: String, _ contents: String) -> String {
    file(name, Data(contents.utf8))
  }

  @discardableResult
  func file(_ name: String, _ data: Data) -> String {
    let p = path + "/" + name
    FileManager.default.createFile(atPath: p, contents: data)
    return p
  }

  /// A PNG of one colour, written by splashd's own dependency-free means:
  /// a hand-built stored-deflate PNG, so the tests need no image library.
  func solidPNG(_ name: String, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> String {
    file(name, makePNG(width: width, height: height) { _, _ in rgb })
  }
}

/// Builds a PNG (8-bit RGB, zlib with stored blocks) pixel by pixel.
func makePNG(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
  var raw = [UInt8]()
  for y in 0..<height {
    raw.append(0)
    for x in 0..<width {
      let (r, g, b) = pixel(x, y)
      raw += [r, g, b]
    }
  }
  var zlib: [UInt8] = [0x78, 0x01]
  var offset = 0
  repeat {
    let n = min(65535, raw.count - offset)
    let last: UInt8 = offset + n == raw.count ? 1 : 0
    zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
    zlib += raw[offset..<offset + n]
    offset += n
  } while offset < raw.count
  var a: UInt32 = 1
  var b: UInt32 = 0
  for byte in raw {
    a = (a + UInt32(byte)) % 65521
    b = (b + a) % 65521
  }
  zlib += bigEndian(b << 16 | a)
  var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
  png += chunk("IDAT", zlib)
  png += chunk("IEND", [])
  return Data(png)
}

/// A PNG header alone, declaring `width`×`height`: enough to test refusal before decoding.
func pngHeaderOnly(width: Int, height: Int) -> Data {
  var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
  return Data(png)
}

private func bigEndian(_ v: UInt32) -> [UInt8] {
  [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
  let body = Array(type.utf8) + data
  return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
