// SPDX-License-Identifier: Apache-2.0
// splashd-bench: the figures behind the README's performance table, printed
// as `name: value`. Usage: splashd-bench PATH-TO-splashd ARTWORK-PNG
import CSDL2
import CSDL2Image
import Glibc
import SplashCore
import SplashRender
import SplashSettings
import SplashSystem

let clock = MonotonicClock()

func report(_ name: String, _ value: Double, decimals: Int = 3) {
  print("\(name): \(formatFixed(value, decimals: decimals))")
}

/// The machine's load average over the last minute (/proc/loadavg): how
/// busy it was while the figures were taken (on two cores, 1 or more means
/// another program had a core to itself much of the time).
func loadAverage() -> Double {
  let text = (try? Files.readText("/proc/loadavg")) ?? ""
  return text.split(separator: " ").first.flatMap { Double($0) } ?? -1
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// A photo-like 1920×1080 picture: smooth gradients with fine noise, which
/// compresses (and decodes) like a real photograph rather than flat artwork.
func writePhotoLikePNG(_ path: String, width: Int, height: Int) {
  let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 24, SDL_PIXELFORMAT_RGB24.rawValue)!
  defer { SDL_FreeSurface(surface) }
  var seed: UInt32 = 12345
  for y in 0..<height {
    let row = (surface.pointee.pixels! + y * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt8.self)
    for x in 0..<width {
      seed = seed &* 1_664_525 &+ 1_013_904_223
      let noise = Int(seed >> 28) - 8
      row[x * 3] = UInt8(clamping: x * 255 / width + noise)
      row[x * 3 + 1] = UInt8(clamping: y * 255 / height + noise)
      row[x * 3 + 2] = UInt8(clamping: (x + y) * 128 / (width + height) + 64 + noise)
    }
  }
  precondition(IMG_SavePNG(surface, path) == 0, "cannot write \(path)")
}

/// One sweep's figures: the mean milliseconds per frame over every frame of
/// a 60 fps transition, and the mean milliseconds of one plain memcpy of a
/// frame, one timed just before each frame is drawn, so that both see the
/// machine as it is at that moment (its load, its caches' state).
struct Sweep {
  var renderMilliseconds: Double
  var memcpyMilliseconds: Double
  var ratio: Double { renderMilliseconds / memcpyMilliseconds }
}

/// Where a sweep draws: a frame in memory (the offscreen back end), or a
/// regular file in /dev/shm standing in for /dev/fb0 with a made-up mode of
/// `bitsPerPixel` (the fbdev back end: paint, convert when not XRGB, flush).
enum SweepTarget {
  case memory
  case framebuffer(bitsPerPixel: Int)

  var bytesPerPixel: Int {
    switch self {
    case .memory: 4
    case .framebuffer(let bits): bits / 8
    }
  }
}

/// Renders `transition` in software at `size` over `count` sweeps.
func sweeps(
  _ transition: TransitionKind, size: PixelSize, image: String, on target: SweepTarget = .memory, count: Int = 9
) throws -> [Sweep] {
  var budget = PixelBudget(limit: Settings.maxMegapixels * 1_000_000)
  let decoded = try DecodedImage(path: image, what: "bench", budget: &budget)
  let layout = SplashLayout(canvas: size, artwork: .single(decoded.info), backdrop: .color(.black), fit: .cover)
  let painter: SurfacePainter
  var show: () -> Void = {}
  var keep: AnyObject
  switch target {
  case .memory:
    let display = try OffscreenOutput(size: size)
    painter = display.surfacePainter
    keep = display
  case .framebuffer(let bits):
    let path = "/dev/shm/splashd-bench-fb-\(getpid())"
    let mode = FramebufferMode(
      width: size.width, height: size.height, bitsPerPixel: bits, lineLength: size.width * bits / 8,
      red: ChannelBits(offset: bits == 16 ? 11 : 16, length: bits == 16 ? 5 : 8),
      green: ChannelBits(offset: bits == 16 ? 5 : 8, length: bits == 16 ? 6 : 8),
      blue: ChannelBits(offset: 0, length: bits == 16 ? 5 : 8), memoryLength: size.width * size.height * bits / 8)
    let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    precondition(file >= 0 && ftruncate(file, off_t(mode.memoryLength)) == 0, "cannot make \(path)")
    close(file)
    let display = try FramebufferDisplay(framebuffer: try Framebuffer(file: path, mode: mode))
    unlink(path)
    painter = display.painter
    show = { _ = display.show(clock: clock.now) }
    keep = display
  }
  let scene = try SceneRenderer(
    painter: painter, layout: layout, transition: transition, rotation: .none, images: [.splash: decoded])
  let timeline = Timeline(hold: 0, duration: transition.defaultDuration, easing: .easeInOut)
  let times = timeline.recordingTimes(fps: 60)
  scene.draw(progress: 0.5)  // warm up
  show()
  defer { withExtendedLifetime(keep) {} }
  let bytes = size.width * size.height * target.bytesPerPixel
  let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
  let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
  defer {
    source.deallocate()
    copy.deallocate()
  }
  memset(source, 0x5A, bytes)
  memset(copy, 0, bytes)
  return (0..<count).map { _ in
    var drawing = 0.0
    var copying = 0.0
    for t in times {
      var start = clock.now()
      memcpy(copy, source, bytes)
      copying += clock.now() - start
      start = clock.now()
      scene.draw(progress: timeline.progress(at: t))
      show()
      drawing += clock.now() - start
    }
    let frames = Double(times.count)
    return Sweep(renderMilliseconds: drawing / frames * 1000, memcpyMilliseconds: copying / frames * 1000)
  }
}

/// The middle half of `values` (the first and third quartiles), as a
/// figure's spread is printed: "LOW-HIGH".
func spread(_ values: [Double], decimals: Int = 2) -> String {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return "-" }
  let low = sorted[(sorted.count - 1) / 4]
  let high = sorted[(sorted.count - 1) * 3 / 4]
  return formatFixed(low, decimals: decimals) + "-" + formatFixed(high, decimals: decimals)
}

/// Median milliseconds of one memcpy of `bytes` from memory out of the
/// CPU's caches into memory never touched before, mapped as splashd maps a
/// frame (`MappedMemory`: huge pages where the kernel has them), the
/// kernel's zeroing of its pages counted: the least a first frame does
/// with a prepared picture, which goes into a frame new to the process.
func freshCopyMilliseconds(bytes: Int) throws -> Double {
  let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
  let evictor = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 64)
  defer {
    source.deallocate()
    evictor.deallocate()
  }
  memset(source, 0x5A, bytes)
  var samples: [Double] = []
  for _ in 0..<21 {
    // 64 MiB written after the source pushes it out of the caches.
    memset(evictor, 0, 64 << 20)
    let target = try MappedMemory(length: bytes)
    let start = clock.now()
    memcpy(target.address, source, bytes)
    samples.append((clock.now() - start) * 1000)
  }
  return median(samples)
}

/// Runs splashd; returns its exit, stderr, and the monotonic time it was started.
func runSplashd(_ path: String, _ arguments: [String], log: String) throws -> (ChildExit, String, Double) {
  let started = clock.now()
  let child = try ChildProcess.spawn(path, ["splashd"] + arguments, stdoutPath: "/dev/null", stderrPath: log)
  let exit = try child.wait()
  let bytes = try Files.readPrefix(of: log, count: 1 << 16)
  let text = String(decoding: bytes, as: UTF8.self)
  guard exit.status == 0 else { fatalError("splashd \(arguments) exited \(exit.status): \(text)") }
  return (exit, text, started)
}

/// How many shared libraries a running splashd has mapped (/proc/PID/maps),
/// read once it has shown its first frame; then it is stopped.
func mappedLibraries(_ path: String, _ arguments: [String], log: String) throws -> Int {
  let child = try ChildProcess.spawn(path, ["splashd"] + arguments, stdoutPath: "/dev/null", stderrPath: log)
  defer {
    child.send(SIGTERM)
    _ = try? child.wait()
  }
  var text = ""
  for _ in 0..<500 where !text.contains("splashd: appeared") {
    usleep(10_000)
    text = String(decoding: (try? Files.readPrefix(of: log, count: 1 << 16)) ?? [], as: UTF8.self)
  }
  guard text.contains("splashd: appeared") else { fatalError("splashd \(arguments) showed nothing in 5 s: \(text)") }
  let maps = String(decoding: try Files.readPrefix(of: "/proc/\(child.pid)/maps", count: 1 << 20), as: UTF8.self)
  let libraries = Set(
    maps.split(separator: "\n").compactMap { line in
      line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init)
    }.filter { $0.contains(".so") })
  return libraries.count
}

/// The monotonic time in splashd's "appeared" log line.
func appearedAt(_ log: String) -> Double {
  let marker = "first frame shown at monotonic "
  for line in log.split(separator: "\n") {
    guard let start = line.firstRange(of: marker) else { continue }
    let number = line[start.upperBound...].prefix { $0 == "." || ($0 >= "0" && $0 <= "9") }
    if let value = Double(number) { return value }
  }
  fatalError("no appeared line in: \(log)")
}

/// Writes `count` frames of a `size`×`size` spinner into `folder` (1.png, 2.png, …).
func writeAnimation(_ folder: String, count: Int, size: Int) {
  precondition(mkdir(folder, 0o755) == 0, "cannot make \(folder)")
  for frame in 0..<count {
    let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(size), Int32(size), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)!
    defer { SDL_FreeSurface(surface) }
    let angle = Double(frame) / Double(count) * 2 * Double.pi
    for y in 0..<size {
      let row = (surface.pointee.pixels! + y * Int(surface.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<size {
        let (dx, dy) = (Double(x - size / 2), Double(y - size / 2))
        let lit = abs(atan2(dy, dx) - angle + Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi) < 1
        let inside = dx * dx + dy * dy < Double(size * size / 4)
        row[x] = inside ? (lit ? 0xFFFF_C000 : 0x8040_4040) : 0
      }
    }
    precondition(IMG_SavePNG(surface, folder + "/\(frame + 1).png") == 0)
  }
}

/// Milliseconds from sending each of `lines` on the control socket of a
/// held splash to its `ok`, which comes once the frame that shows the change
/// is on the screen, in order.
func roundTrips(_ splashd: String, _ arguments: [String], control: String, lines: [String]) throws -> [Double] {
  let child = try ChildProcess.spawn(splashd, ["splashd"] + arguments, stdoutPath: "/dev/null", stderrPath: log)
  var socket: FileDescriptor?
  for _ in 0..<2000 where socket == nil {
    socket = try? UnixSocket.connect(to: control)
    if socket == nil { usleep(5000) }
  }
  guard let socket else { fatalError("no control socket at \(control)") }
  func ask(_ line: String) throws -> String {
    try socket.writeAll(line + "\n")
    var reply: [UInt8] = []
    while !reply.contains(UInt8(ascii: "\n")) {
      let bytes = try socket.read(upTo: 1)
      guard !bytes.isEmpty else { fatalError("splashd hung up on \(line)") }
      reply += bytes
    }
    return String(decoding: reply.dropLast(), as: UTF8.self)
  }
  _ = try ask("wait appeared")
  var samples: [Double] = []
  for line in lines {
    let start = clock.now()
    guard try ask(line) == "ok" else { fatalError("\(line) refused") }
    samples.append((clock.now() - start) * 1000)
  }
  _ = try ask("reveal")
  try? socket.close()
  _ = try child.wait()
  return samples
}

guard CommandLine.arguments.count == 3 else {
  print("usage: splashd-bench PATH-TO-splashd ARTWORK-PNG")
  exit(2)
}
let splashd = CommandLine.arguments[1]
let artwork = CommandLine.arguments[2]
var template = Array("/tmp/splashd-bench-XXXXXX".utf8CString)
let work = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
let photo = work + "/photo-1080p.png"
writePhotoLikePNG(photo, width: 1920, height: 1080)
let log = work + "/stderr"
let hd = PixelSize(width: 1920, height: 1080)
let uhd = PixelSize(width: 3840, height: 2160)
// What the figures come from: the build, the machine and how busy it was
// (again at the end).
if let child = try? ChildProcess.spawn(splashd, ["splashd", "--version"], stdoutPath: log, stderrPath: "/dev/null"),
  (try? child.wait()) != nil, let printed = try? Files.readText(log)
{
  print("bench_splashd: \(printed.split(separator: "\n").first ?? "?")")
}
report("bench_cores", Double(sysconf(Int32(_SC_NPROCESSORS_ONLN))), decimals: 0)
report("load_average_at_start", loadAverage(), decimals: 2)

do {
  // splashd's own figures come first, while this process is still small:
  // posix_spawn shares the parent's memory until exec, so a child's peak RSS
  // can never read lower than the parent's size at the time of the spawn.

  // Process start to first frame, 1080p photo-like PNG, offscreen: median of 15.
  // Cold: no prepared-picture cache, every picture decoded.
  let playArguments = [
    "--config", "/dev/null", "--display", "offscreen", "--size", "1920x1080", "--image", photo, "--duration", "0.2",
    "--cache", "none",
  ]
  var peakBytes = 0
  func firstFrameMilliseconds(_ arguments: [String]) throws -> Double {
    var samples: [Double] = []
    for _ in 0..<15 {
      let (exit, text, started) = try runSplashd(splashd, arguments, log: log)
      samples.append((appearedAt(text) - started) * 1000)
      peakBytes = max(peakBytes, exit.peakResidentBytes)
    }
    return median(samples)
  }
  report("first_frame_ms", try firstFrameMilliseconds(playArguments), decimals: 1)
  // The same with flat splash artwork (the bundled 1080p demo), which
  // decodes several times faster than a photograph.
  var artworkArguments = playArguments
  artworkArguments[artworkArguments.firstIndex(of: photo)!] = artwork
  report("first_frame_artwork_ms", try firstFrameMilliseconds(artworkArguments), decimals: 1)
  // For scale: start to exit of `splashd --version`, which loads the same
  // libraries and does nothing else.
  var versionRuns: [Double] = []
  for _ in 0..<15 {
    let (_, _, started) = try runSplashd(splashd, ["--version"], log: log)
    versionRuns.append((clock.now() - started) * 1000)
  }
  report("version_start_to_exit_ms", median(versionRuns), decimals: 1)
  // Warm: the photo prepared by the first run, mapped by the next ones.
  var cachedArguments = playArguments
  cachedArguments[cachedArguments.firstIndex(of: "none")!] = work + "/cache"
  _ = try runSplashd(splashd, cachedArguments, log: log)
  let cached = try firstFrameMilliseconds(cachedArguments)
  report("first_frame_cached_ms", cached, decimals: 1)
  report("first_frame_cached_vs_version", cached / median(versionRuns), decimals: 2)
  // What the warm first frame costs beyond starting the process, against
  // the least it must do: copy the 1080p picture into memory new to it.
  let freshCopy = try freshCopyMilliseconds(bytes: hd.width * hd.height * 4)
  report("fresh_copy_1080p_ms", freshCopy, decimals: 2)
  report("first_frame_cached_beyond_start_vs_fresh_copy", (cached - median(versionRuns)) / freshCopy, decimals: 2)
  // Host mode loads its compositor and starts the program behind the first
  // frame, so that frame comes as soon as without it (the target: at most
  // 1.1 times). The program is /bin/true: it ends at once, and the splash
  // with it; where its compositor cannot be loaded, host mode says so and
  // the figure is that of the plain splash.
  // (Its peak RSS, the compositor's too, is not the plain splash's.)
  let plainPeakBytes = peakBytes
  let hosted = try firstFrameMilliseconds(cachedArguments + ["--host", "wayland", "--", "/bin/true"])
  peakBytes = plainPeakBytes
  report("first_frame_host_mode_ms", hosted, decimals: 1)
  report("first_frame_host_mode_vs_plain", hosted / cached, decimals: 2)
  report(
    "mapped_libraries", Double(try mappedLibraries(splashd, playArguments + ["--hold", "30"], log: log)), decimals: 0)

  // CPU of a 10 s hold: a run with the hold minus the same run without it.
  let (held, _, _) = try runSplashd(splashd, playArguments + ["--hold", "10"], log: log)
  let (bare, _, _) = try runSplashd(splashd, playArguments + ["--hold", "0"], log: log)
  report("hold_cpu_s", max(0, held.cpuSeconds - bare.cpuSeconds))
  // The same with a 64x64 animation at 30 frames a second playing during the hold.
  let spinner = work + "/spinner"
  writeAnimation(spinner, count: 30, size: 64)
  let animated = playArguments + ["--animation", spinner, "--animation-fps", "30"]
  let (heldAnimated, _, _) = try runSplashd(splashd, animated + ["--hold", "10"], log: log)
  let (bareAnimated, _, _) = try runSplashd(splashd, animated + ["--hold", "0"], log: log)
  report("hold_animation_cpu_s", max(0, heldAnimated.cpuSeconds - bareAnimated.cpuSeconds))
  // A status change on a held 1080p splash, from the client's side.
  let control = work + "/control"
  let heldArguments = playArguments + ["--until-reveal", "--timeout", "0", "--control", control, "--progress", "0"]
  let statusUpdate = median(
    try roundTrips(splashd, heldArguments, control: control, lines: (0..<200).map { "progress \($0 % 100)" }))
  report("status_update_ms", statusUpdate)
  // The first message: the text library set up, the font opened, the line
  // drawn and shown (SDL2_ttf and FreeType are linked in: nothing is loaded).
  let messages = try roundTrips(
    splashd, heldArguments, control: control, lines: (0..<21).map { "message Starting service \($0) of 20" })
  report("message_first_ms", messages[0])
  report("message_next_ms", median(Array(messages.dropFirst())))
  report("message_first_vs_status_update", messages[0] / statusUpdate, decimals: 2)

  let decodedMB = Double(1920 * 1080 * 4) / 1_048_576
  report("peak_rss_mb", Double(max(peakBytes, held.peakResidentBytes)) / 1_048_576, decimals: 1)
  report("peak_rss_target_mb", 3 * decodedMB + 20, decimals: 1)
  // The floor under peak_rss_mb (see above): this process's own peak so far.
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  report("bench_parent_rss_mb", Double(usage.ru_maxrss) / 1024, decimals: 1)

  let doorsHD = try sweeps(.doors, size: hd, image: photo)
  let crossfadeHD = try sweeps(.crossfade, size: hd, image: photo)
  let doorsUHD = try sweeps(.doors, size: uhd, image: photo)
  let crossfadeUHD = try sweeps(.crossfade, size: uhd, image: photo)
  report("doors_1080p_ms", median(doorsHD.map(\.renderMilliseconds)))
  report("crossfade_1080p_ms", median(crossfadeHD.map(\.renderMilliseconds)))
  report("doors_2160p_ms", median(doorsUHD.map(\.renderMilliseconds)))
  report("crossfade_2160p_ms", median(crossfadeUHD.map(\.renderMilliseconds)))
  report("memcpy_1080p_ms", median((doorsHD + crossfadeHD).map(\.memcpyMilliseconds)))
  report("memcpy_2160p_ms", median((doorsUHD + crossfadeUHD).map(\.memcpyMilliseconds)))
  report("doors_1080p_vs_memcpy", median(doorsHD.map(\.ratio)), decimals: 2)
  print("doors_1080p_vs_memcpy_spread: \(spread(doorsHD.map(\.ratio)))")
  report("crossfade_2160p_vs_memcpy", median(crossfadeUHD.map(\.ratio)), decimals: 2)
  print("crossfade_2160p_vs_memcpy_spread: \(spread(crossfadeUHD.map(\.ratio)))")

  // The fbdev back end: per frame, painting into a framebuffer-format
  // mapping (32 bpp in place; 16 bpp painted, then converted by SDL) and
  // flushing it; against a memcpy of a frame at the screen's depth.
  let wvga = PixelSize(width: 800, height: 480)
  for (name, size, bits) in [
    ("fbdev_doors_800x480", wvga, 32), ("fbdev_doors_1080p", hd, 32), ("fbdev_rgb565_1080p", hd, 16),
  ] {
    let frames = try sweeps(.doors, size: size, image: photo, on: .framebuffer(bitsPerPixel: bits))
    report(name + "_ms", median(frames.map(\.renderMilliseconds)))
    report(name + "_vs_memcpy", median(frames.map(\.ratio)), decimals: 2)
    print(name + "_vs_memcpy_spread: \(spread(frames.map(\.ratio)))")
  }
  report("load_average_at_end", loadAverage(), decimals: 2)
} catch {
  print("splashd-bench: \(error)")
  _ = system("rm -rf '\(work)'")
  exit(1)
}
_ = system("rm -rf '\(work)'")
