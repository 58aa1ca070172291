// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

extension BootTests {
  /// One compositor's figures with gles-counter animating under it
  /// (wayland-kiosk-boot.sh gpu's figures-NAME): CPU ticks, frames,
  /// seconds and the card's fences (each piece of GPU work the guest's
  /// driver handed the host: a flip, a transfer, a submission) over a
  /// window of animation and one with the client paused, and the
  /// compositor's memory.
  struct GPUFigures {
    var compositorTicks: Double
    var clientTicks: Double
    var frames: Double
    var seconds: Double
    var fences: Double
    var idleCompositorTicks: Double
    var idleSeconds: Double
    var peakKiB: Double
    var idleKiB: Double
    var ticksPerSecond: Double

    /// "animating C P F S G", "idle C P F S G", "memory PEAK RSS TICKS_A_SECOND".
    init?(_ text: String) {
      var lines: [Substring: [Double]] = [:]
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let name = words.first else { continue }
        lines[name] = words.dropFirst().compactMap { Double($0) }
      }
      guard let animating = lines["animating"], animating.count == 5, let idle = lines["idle"], idle.count == 5,
        let memory = lines["memory"], memory.count == 3, animating[2] > 0, animating[3] > 0, idle[3] > 0,
        memory[2] > 0
      else { return nil }
      (compositorTicks, clientTicks, frames, seconds) = (animating[0], animating[1], animating[2], animating[3])
      fences = animating[4]
      (idleCompositorTicks, idleSeconds) = (idle[0], idle[3])
      (peakKiB, idleKiB, ticksPerSecond) = (memory[0], memory[1], memory[2])
    }

    /// The compositor's CPU for each frame the client drew (and it presented).
    var compositorMsPerFrame: Double { compositorTicks / ticksPerSecond * 1000 / frames }
    var clientMsPerFrame: Double { clientTicks / ticksPerSecond * 1000 / frames }
    var framesPerSecond: Double { frames / seconds }
    /// The GPU work handed to the host for each frame.
    var fencesPerFrame: Double { fences / frames }
    /// The compositor's CPU in 10 s with the client paused (its last frame shown).
    var idleCPUPer10s: Double { idleCompositorTicks / ticksPerSecond / idleSeconds * 10 }
  }

  /// A framebuffer as wayland-kiosk-boot.sh's gpu step lists it from
  /// debugfs: its id, the offset of its buffer object (one a buffer; nil
  /// when debugfs gives none) and the process that made it.
  struct ListedFramebuffer: Hashable {
    var id: Int
    var object: String?
    var owner: String

    /// "ID START ALLOCATED-BY".
    init?(_ line: Substring) {
      let words = line.split(separator: " ")
      guard words.count == 3, let id = Int(words[0]) else { return nil }
      self.id = id
      object = words[1] == "-" ? nil : String(words[1])
      owner = String(words[2])
    }
  }

  /// The linux-dmabuf feedback a window was told, as gles-counter writes
  /// it: the main device, and each tranche's device, flags and layouts
  /// ("XR24:0" a format's fourcc and its modifier in hexadecimal); devices
  /// as `stat -c %t:%T` prints them. Nil for "none" (no linux-dmabuf of
  /// version 4) or a report that is not one.
  struct ToldFeedback {
    struct Tranche {
      var device: String
      var flags: UInt32
      var layouts: [String]
      var scansOut: Bool { flags & 1 != 0 }
    }
    var main: String
    var tranches: [Tranche]

    init?(_ report: String) {
      let lines = report.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
      guard let first = lines.first, first.count == 2, first[0] == "main" else { return nil }
      main = first[1]
      tranches = lines.dropFirst().compactMap { words in
        guard words.count >= 3, words[0] == "tranche", let flags = UInt32(words[2]) else { return nil }
        return Tranche(device: words[1], flags: flags, layouts: Array(words.dropFirst(3)))
      }
    }
  }

  /// Fails the calling test with what to install when QEMU cannot give the
  /// guest a virgl GPU (its virtio-vga-gl device and egl-headless display
  /// are modules of qemu-system-gui, which brings virglrenderer).
  func requireVirgl() throws {
    let modules = ["hw-display-virtio-vga-gl.so", "ui-egl-headless.so"].map {
      "/usr/lib/x86_64-linux-gnu/qemu/" + $0
    }
    let missing = modules.filter { !FileManager.default.fileExists(atPath: $0) }
    guard missing.isEmpty else {
      throw TestFailure(
        "the virgl tier needs qemu-system-gui and libvirglrenderer1 (make test installs them); missing: \(missing)")
    }
  }

  /// Host mode on a GPU with a render node, on a real kernel: QEMU's
  /// virtio-vga-gl (virgl on the host's llvmpipe), the one-unit kiosk's
  /// host-mode line with gles-counter (an animating GLES2 client, EGL on
  /// Wayland: its frames are GPU buffers handed over by linux-dmabuf) as
  /// the program, in one boot. The doors open onto the program's GPU
  /// frames with no foreign frame, those after its first composed with the
  /// leaves on the GPU (splashd's line says so); the program's window was
  /// told, in linux-dmabuf's feedback, what the card scans out (a scan-out
  /// tranche on card0 before the renderer's); then splashctl says
  /// scanout=direct; the
  /// kernel's primary plane shows framebuffers that are none of those
  /// there while the splash showed (splashd's two dumb buffers, the
  /// console's), changing from sample to sample among the program's
  /// buffer objects; and the screen (read over VNC) shows the program
  /// alone, upright: the kiosk's colour with its white 32x32 marker in
  /// the top 32 rows. Then the same program told to render in software
  /// (shared memory) under splashd on the GPU hands the GPU no more work
  /// a frame (the guest driver's fences) than under the plain compositor
  /// (`--gpu no`): no texture is made of its frames, and what it shows
  /// moves on (three snapshots 0.3 s apart all differ). Prints,
  /// from the same boot, splashd's CPU a presented frame, the frames a
  /// second, the program's CPU a frame and splashd's peak and idle RSS, the
  /// same under cage 0.1.4 (GLES2), under splashd on the GPU with the
  /// program in shared memory and under splashd with `--gpu no` (shared
  /// memory, Mesa in software), and splashd's against cage's
  /// (`gpu_kiosk_…`); and the transition's frames composed on the GPU
  /// against those drawn by the CPU over the program in shared memory.
  /// Last, cog (WPE WebKit, on the GPU) showing a page that moves, and
  /// glxgears on Xwayland's glamor, are scanned out too.
  @Test func hostModeScansOutTheProgramsGPUBuffersOnVirgl() throws {
    try requireRig(["/usr/sbin/debootstrap", "/usr/sbin/mkfs.ext4"])
    try requireVirgl()
    let dir = try TemporaryDirectory()
    let boot = try bootWaylandKiosk(
      in: dir,
      execStart: { example in try hostModeLine(example, running: "/usr/local/bin/gles-counter /run/gles-kiosk") },
      dropIn:
        "[Service]\nRestart=no\nRuntimeDirectory=splashd\nExecStartPre=/usr/bin/install -d -o kiosk /run/gles-kiosk\n",
      packages: Self.waylandKioskPackages, gpu: "virgl", step: "gpu", timeout: 600)
    func text(_ name: String) -> String {
      (try? String(contentsOfFile: boot.work + "/" + name, encoding: .utf8)) ?? ""
    }
    let note = boot.note + "\n" + text("cage.log").suffix(1500) + "\n" + text("shm.log").suffix(1500)
    // The guest's journal, for people to read beside the pictures.
    try? FileManager.default.createDirectory(atPath: Screendump.folder, withIntermediateDirectories: true)
    writeFile(atPath: Screendump.folder + "/gpu-kiosk-journal.txt", contents: Data(boot.journal.utf8))
    // The program rendered on the guest's GPU (virgl), in an XRGB8888 config.
    #expect(text("renderer-gpu").hasPrefix("virgl"), "\(text("renderer-gpu")); \(note)")
    #expect(text("renderer-gpu").contains("config R8G8B8A0"), "\(text("renderer-gpu")); \(note)")

    // (a) The doors open onto the program's own frames, nothing else between.
    try expectTheDoorsOpenOntoTheProgram(boot, keptAs: "gpu-kiosk-boot")
    // Upright all along: its frames read back under the doors, then scanned
    // out, show its marker only in its top 32 rows (never at the bottom).
    let white: UInt32 = 0xFFFFFF
    let splash = boot.frames.firstIndex { isSplash($0.screen) } ?? boot.frames.endIndex
    let flipped = boot.frames[splash...].filter { frame in
      stride(from: 32, to: frame.screen.height, by: 1).contains { y in
        stride(from: 0, to: frame.screen.width, by: 4).contains { frame.screen.at($0, y) == white }
      }
    }
    flipped.first?.screen.keep(as: "gpu-kiosk-boot-marker-misplaced")
    #expect(flipped.isEmpty, "\(flipped.count) frames with white below the marker's rows; \(boot.note)")

    // Under the doors, its frames after the first were composed with them
    // on the GPU, none read back; and the transition's frames, composed so,
    // against those of the same transition drawn by the CPU over the same
    // program in shared memory (on this compositor, and on the plain one).
    #expect(
      boot.journal.contains("host mode: the splash's frames are composed on the GPU over the program's"),
      "\(boot.note)")
    #expect(!boot.journal.contains("cannot be composed on the GPU"), "\(boot.note)")
    // The doors at their widest over the program, composed so, for people to look at.
    let opened = boot.frames.last { frame in
      let row = (0..<frame.screen.width).map { frame.screen.at($0, 300) }
      return row.first == Self.leftLeaf && row.last == Self.rightLeaf && row.contains(Self.kiosk)
    }
    opened?.screen.keep(as: "gpu-kiosk-boot-doors-composed")
    printTransition(in: boot.journal, as: "gpu_kiosk_composed", note)
    printTransition(in: text("gpu-shm.log"), as: "gpu_kiosk_shm_on_gpu", note)
    printTransition(in: text("shm.log"), as: "gpu_kiosk_shm", note)

    // (b) Once the program is alone, its buffers are scanned out.
    #expect(text("gpu-status").contains(" scanout=direct"), "\(text("gpu-status")); \(note)")
    // Then the buffers its frames were composed and read back into are let
    // go of: splashd holds no more GPU buffers than cage does with the same
    // program (each buffer a compositor allocates or imports keeps one
    // open; splashd's three composed and its read-back would be four more).
    let words = text("gpu-dmabufs").split(whereSeparator: \.isWhitespace).map(String.init)
    let held = Dictionary(
      stride(from: 0, to: words.count - 1, by: 2).compactMap { at in Int(words[at + 1]).map { (words[at], $0) } }
    ) { $1 }
    if let splashd = held["splashd"], let cage = held["cage"] {
      #expect(splashd <= cage, "GPU buffers held: \(held); \(note)")
      print("gpu_kiosk_splashd_dmabufs_scanned_out: \(splashd)")
      print("gpu_kiosk_cage_dmabufs: \(cage)")
    } else {
      Issue.record("no count of the GPU buffers held: \(text("gpu-dmabufs")); \(note)")
    }

    // The program's window was told what the card scans out as it is:
    // first a tranche flagged scanout on the card itself (not its render
    // node) with XRGB8888, then the renderer's, on the render node, the
    // main device. cage 0.1.4 tells the renderer's alone; the plain
    // compositor (--gpu no) offers no linux-dmabuf.
    let devices = text("gpu-devices").split(separator: "\n").map(String.init)
    let told = ToldFeedback(text("feedback-gpu"))
    if devices.count == 2, let told {
      let (card, renderNode) = (devices[0], devices[1])
      #expect(told.main == renderNode, "\(text("feedback-gpu")); \(devices)")
      #expect(told.tranches.count == 2, "\(text("feedback-gpu"))")
      let scanout = told.tranches.first
      #expect(scanout?.scansOut == true && scanout?.device == card, "\(text("feedback-gpu")); \(devices)")
      #expect(scanout?.layouts.contains { $0.hasPrefix("XR24:") } == true, "\(text("feedback-gpu"))")
      #expect(
        told.tranches.last?.scansOut == false && told.tranches.last?.device == renderNode,
        "\(text("feedback-gpu")); \(devices)")
      print("gpu_kiosk_scanout_tranche_layouts: \(Set(scanout?.layouts ?? []).count)")
    } else {
      Issue.record("no feedback or devices: \(text("feedback-gpu")); \(text("gpu-devices")); \(note)")
    }
    if let cage = ToldFeedback(text("feedback-cage")) {
      print("gpu_kiosk_cage_scanout_tranches: \(cage.tranches.filter(\.scansOut).count)")
    }
    #expect(text("feedback-shm").hasPrefix("none"), "\(text("feedback-shm"))")

    // (c) The kernel's primary plane shows the program's buffers: none of
    // the framebuffers there while the splash showed (before the reveal),
    // and a new one from sample to sample among the program's buffer objects.
    #expect(!text("gpu-phase-before").contains("phase=done"), "\(text("gpu-phase-before"))")
    let before = text("gpu-framebuffers-before").split(separator: "\n").compactMap(ListedFramebuffer.init)
    let splashds = before.filter { $0.owner == "splashd" }
    #expect(splashds.count == 2, "splashd's framebuffers while the splash showed: \(before); \(note)")
    let plane = text("gpu-plane-after").split(separator: "\n").compactMap(ListedFramebuffer.init)
    #expect(plane.count == 10, "\(text("gpu-plane-after")); \(note)")
    let earlier = Set(before.map(\.id))
    let shownBefore = plane.filter { $0.id == 0 || earlier.contains($0.id) }
    #expect(shownBefore.isEmpty, "the plane showed \(shownBefore), there before the reveal (\(before)); \(note)")
    #expect(plane.allSatisfy { $0.owner == "splashd" }, "not imported by splashd: \(plane); \(note)")
    #expect(Set(plane.map(\.id)).count >= 2, "the plane's framebuffer did not change: \(plane); \(note)")
    // Where debugfs names the buffer objects: the program's are none of
    // splashd's dumb buffers, and it draws into more than one in turn.
    let objects = Set(plane.compactMap(\.object))
    let splashdObjects = Set(splashds.compactMap(\.object))
    #expect(objects.isDisjoint(with: splashdObjects), "\(plane) against \(splashds); \(note)")
    if !objects.isEmpty {
      #expect(objects.count >= 2, "one buffer object on the plane: \(plane); \(note)")
    }

    // (d) The screen shows the program alone, upright: its colour, and its
    // marker (32x32, white) in the top 32 rows.
    let shown = try #require(Screendump(path: boot.work + "/gpu-program.ppm"), "no screen of the program; \(note)")
    shown.keep(as: "gpu-kiosk-program-alone")
    #expect(shown.width == 800 && shown.height == 480, "\(shown.width)x\(shown.height)")
    let body = stride(from: 32, to: shown.height, by: 4).flatMap { y in
      stride(from: 0, to: shown.width, by: 4).map { shown.at($0, y) }
    }
    #expect(body.allSatisfy { $0 == Self.kiosk }, "below the marker's rows: \(Set(body)); \(note)")
    for y in [0, 16, 31] {
      let row = (0..<shown.width).map { shown.at($0, y) }
      #expect(
        row.filter { $0 == white }.count == 32 && row.allSatisfy { $0 == white || $0 == Self.kiosk },
        "row \(y): \(row.filter { $0 == white }.count) white pixels, \(Set(row)); \(note)")
    }

    // (e) Bad GPU buffers (dmabuf-fuzz: bad descriptors, planes, offsets,
    // strides, sizes, formats and modifiers, buffers destroyed while
    // shown) are refused to their client, never the kiosk's problem: no
    // round trip hung, the same splashd serves on, the program drew
    // meanwhile and is scanned out again.
    let fuzz = Dictionary(
      text("dmabuf-fuzz").split(separator: "\n").compactMap { line -> (String, Int)? in
        let parts = line.split(separator: ":", maxSplits: 1)
        return parts.count == 2
          ? Int(parts[1].trimmingCharacters(in: .whitespaces)).map { (String(parts[0]), $0) } : nil
      }
    ) { $1 }
    #expect((fuzz["tries"] ?? 0) > 0 && fuzz["hangs"] == 0, "\(fuzz) \(text("dmabuf-fuzz.log")); \(note)")
    #expect((fuzz["cut_off"] ?? 0) + (fuzz["failed"] ?? 0) > 0, "no bad buffer refused: \(fuzz); \(note)")
    let after = text("dmabuf-fuzz-after").split(separator: "\n").map(String.init)
    let pids = after.first?.dropFirst("pids=".count).split(separator: " ") ?? []
    #expect(pids.count == 2 && pids[0] == pids[1], "splashd was replaced: \(after); \(note)")
    let drawn = after.count > 1 ? Int(after[1].dropFirst("frames=".count)) ?? 0 : 0
    #expect(drawn > 0, "the program drew nothing while the client fuzzed: \(after); \(note)")
    #expect(
      after.last?.contains("program=shown") == true && after.last?.contains(" scanout=direct") == true,
      "\(after); \(note)")
    for name in ["tries", "created", "failed", "cut_off"] {
      print("gpu_kiosk_dmabuf_fuzz_\(name): \(fuzz[name] ?? 0)")
    }

    // cog (WPE WebKit) on the GPU's compositor, a page that moves: its
    // buffers are scanned out as they are.
    #expect(
      text("gpu-cog-status").contains(" program=shown") && text("gpu-cog-status").contains(" scanout=direct"),
      "\(text("gpu-cog-status")); \(text("gpu-cog.log").suffix(1500))")
    // So is glxgears, an X11 GL program (Xwayland's glamor on the GPU).
    #expect(
      text("gpu-x11-status").contains(" program=shown") && text("gpu-x11-status").contains(" scanout=direct"),
      "\(text("gpu-x11-status")); \(text("gpu-x11.log").suffix(1500))")

    // The same client under --gpu no got shared memory: software rendering, composed.
    #expect(text("gpu-no-status").contains(" scanout=software"), "\(text("gpu-no-status")); \(note)")
    #expect(text("renderer-shm").hasPrefix("llvmpipe"), "\(text("renderer-shm")); \(note)")
    #expect(text("renderer-cage").hasPrefix("virgl"), "\(text("renderer-cage")); \(note)")
    // A program in shared memory on the GPU's compositor is composed, and
    // hands the GPU no more work a frame than under the plain compositor
    // (the flip of splashd's own buffer): no texture is made of each of
    // its frames, which splashd never draws (that upload once took twice
    // the plain compositor's CPU a frame).
    #expect(text("gpu-shm-status").contains(" scanout=software"), "\(text("gpu-shm-status")); \(note)")
    #expect(text("renderer-gpu-shm").hasPrefix("llvmpipe"), "\(text("renderer-gpu-shm")); \(note)")
    // Its frames are shown as it commits them: of three snapshots 0.3 s
    // apart no two are the same (the surface follows each committed
    // buffer, not the first one's texture written over).
    #expect(text("gpu-shm-distinct").trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(note)")
    let (onGPU, plain) = (GPUFigures(text("figures-gpu-shm")), GPUFigures(text("figures-shm")))
    if let onGPU, let plain {
      let ratio = onGPU.compositorMsPerFrame / plain.compositorMsPerFrame
      print("gpu_kiosk_splashd_shm_on_gpu_vs_plain_cpu_per_frame: \(String(format: "%.2f", ratio))")
      let (gpuWork, plainWork) = (onGPU.fencesPerFrame, plain.fencesPerFrame)
      #expect(gpuWork < plainWork + 0.5, "GPU work a frame: \(gpuWork) on the GPU, \(plainWork) without; \(note)")
    }
    printGPUFigures(
      [
        ("splashd", GPUFigures(text("figures-gpu"))), ("cage", GPUFigures(text("figures-cage"))),
        ("splashd_shm_on_gpu", onGPU), ("splashd_shm", plain),
      ], note)
  }

  /// Prints the GPU boot's figures (`gpu_kiosk_NAME_…` for each run:
  /// splashd scanning out, cage, splashd on the GPU with a program in
  /// shared memory, splashd with `--gpu no`) and splashd's against cage's
  /// (`gpu_kiosk_splashd_vs_cage_…`); records an issue for a run without
  /// figures.
  private func printGPUFigures(_ runs: [(String, GPUFigures?)], _ note: String) {
    func f(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
    for (name, figures) in runs {
      guard let figures else {
        Issue.record("no figures of \(name); \(note)")
        continue
      }
      print("gpu_kiosk_\(name)_cpu_ms_per_frame: \(f(figures.compositorMsPerFrame))")
      print("gpu_kiosk_\(name)_frames_per_s: \(f(figures.framesPerSecond, 1))")
      print("gpu_kiosk_\(name)_program_cpu_ms_per_frame: \(f(figures.clientMsPerFrame))")
      print("gpu_kiosk_\(name)_peak_rss_mib: \(f(figures.peakKiB / 1024, 1))")
      print("gpu_kiosk_\(name)_idle_rss_mib: \(f(figures.idleKiB / 1024, 1))")
      print("gpu_kiosk_\(name)_idle_cpu_s_per_10s: \(f(figures.idleCPUPer10s))")
      print("gpu_kiosk_\(name)_fences_per_frame: \(f(figures.fencesPerFrame))")
    }
    let figures = Dictionary(runs.compactMap { name, figures in figures.map { (name, $0) } }) { $1 }
    guard let splashd = figures["splashd"], let cage = figures["cage"] else { return }
    let ratios: [(String, Double, Double)] = [
      ("cpu_per_frame", splashd.compositorMsPerFrame, cage.compositorMsPerFrame),
      ("frames_per_s", splashd.framesPerSecond, cage.framesPerSecond),
      ("program_cpu_per_frame", splashd.clientMsPerFrame, cage.clientMsPerFrame),
      ("peak_rss", splashd.peakKiB, cage.peakKiB), ("idle_rss", splashd.idleKiB, cage.idleKiB),
    ]
    for (name, ours, theirs) in ratios where theirs > 0 {
      print("gpu_kiosk_splashd_vs_cage_\(name): \(f(ours / theirs))")
    }
    if let shm = figures["splashd_shm"], shm.compositorMsPerFrame > 0 {
      let ratio = splashd.compositorMsPerFrame / shm.compositorMsPerFrame
      print("gpu_kiosk_splashd_direct_vs_shm_cpu_per_frame: \(f(ratio))")
    }
  }
}
