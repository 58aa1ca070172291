// SPDX-License-Identifier: Apache-2.0
import CWaylandHostLoader
import Glibc
import SplashCore
import SplashSystem

/// Host mode's Wayland compositor: one kiosk program's display server
/// (wlroots' headless back end, in libsplashd-wayland-host.so, loaded the
/// first time a host is made; on a card with a render node its GPU variant,
/// libsplashd-wayland-host-gpu.so, which renders with the GPU and offers the
/// program linux-dmabuf), whose current buffer splashd paints into its own
/// frames or scans out. Not thread-safe: every call comes from the run
/// loop's thread.
public final class WaylandHost: WaylandHosting {
  /// What the shared object is called, beside splashd or in its library
  /// folder (`PREFIX/lib/splashd`).
  public static let libraryName = "libsplashd-wayland-host.so"
  /// What its GPU variant is called (EGL, GLES2, GBM: loaded only with it).
  public static let gpuLibraryName = "libsplashd-wayland-host-gpu.so"

  private let api: splashd_host_api
  private let host: OpaquePointer
  private let log: LogSink
  /// The descriptor to poll: readable when a client sent something.
  public let descriptor: FileDescriptor
  /// The render node the compositor renders with (its GPU variant), if any.
  public let renderNode: String?

  /// Where wlroots' log lines go (its errors).
  private final class LogSink {
    let write: (String) -> Void
    init(_ write: @escaping (String) -> Void) { self.write = write }
  }

  /// A compositor whose screen is `screen` pixels (what screencopy
  /// clients get: the first screen as it is wired) and whose program's
  /// window is `size` (`screen` turned as the splash is; `screen` when not
  /// given), rendering with the GPU of `renderNode` when given (its GPU
  /// variant; one that cannot be had is said, and the plain one made), its
  /// shared object found by `libraryPaths` (the first that loads); `log` is
  /// told wlroots' errors.
  public init(
    size: PixelSize, screen: PixelSize? = nil, renderNode: String? = nil,
    libraryPaths: (String) -> [String] = { WaylandHost.libraryPaths(of: $0) }, log: @escaping (String) -> Void
  ) throws(SystemError) {
    let screen = screen ?? size
    let sink = LogSink(log)
    self.log = sink
    var made: (api: splashd_host_api, host: OpaquePointer)?
    if let renderNode {
      do {
        made = try Self.make(Self.gpuLibraryName, libraryPaths, screen, size, renderNode, sink)
      } catch {
        log("host mode: the GPU's compositor cannot be had (\(error.reason)); the program's frames are copied")
      }
    }
    let (api, host) =
      if let made { made } else { try Self.make(Self.libraryName, libraryPaths, screen, size, nil, sink) }
    self.api = api
    self.host = host
    self.renderNode = made == nil ? nil : renderNode
    descriptor = FileDescriptor(rawValue: api.event_fd(host))
  }

  /// The compositor of shared object `name` (found by `libraryPaths`),
  /// with `renderNode`.
  private static func make(
    _ name: String, _ libraryPaths: (String) -> [String], _ screen: PixelSize, _ size: PixelSize,
    _ renderNode: String?, _ sink: LogSink
  ) throws(SystemError) -> (splashd_host_api, OpaquePointer) {
    var reasons: [String] = []
    var loaded: splashd_host_api?
    for path in libraryPaths(name) {
      var error = [CChar](repeating: 0, count: 512)
      if let table = splashd_host_load(path, &error, error.count) {
        loaded = table.pointee
        break
      }
      reasons.append(Self.text(of: error))
    }
    guard let api = loaded else {
      throw SystemError(
        "host mode", code: ENOENT,
        reason: "cannot load \(name) (the libraries the package recommends: libwayland-server0, "
          + "libpixman-1-0, libevdev2, …): " + reasons.joined(separator: "; "))
    }
    var error = [CChar](repeating: 0, count: 512)
    let context = Unmanaged.passUnretained(sink).toOpaque()
    let create = { (node: UnsafePointer<CChar>?) in
      api.create(
        Int32(screen.width), Int32(screen.height), Int32(size.width), Int32(size.height), node,
        { context, _, line in
          guard let context, let line else { return }
          Unmanaged<LogSink>.fromOpaque(context).takeUnretainedValue().write(String(cString: line))
        }, context, &error, error.count)
    }
    let host = if let renderNode { renderNode.withCString(create) } else { create(nil) }
    guard let host else {
      throw SystemError("host mode", code: EINVAL, reason: "the Wayland compositor: " + Self.text(of: error))
    }
    return (api, host)
  }

  deinit { api.destroy(host) }

  /// The text a C call left in `buffer`, up to its NUL.
  private static func text(of buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Where shared object `name` is looked for: beside the running binary
  /// (a build's folder), then in `../lib/splashd` from it (an install's).
  public static func libraryPaths(of name: String, executable: String? = Files.executablePath()) -> [String] {
    guard let executable else { return [] }
    let folder = Files.directory(of: executable)
    return [folder + "/" + name, Files.directory(of: folder) + "/lib/splashd/" + name]
  }

  /// Serves what clients sent, without blocking; what happened.
  public func dispatch() -> WaylandHostEvents { WaylandHostEvents(rawValue: api.dispatch(host)) }

  /// Serves the clients that connect to `listener` (bound and listening),
  /// which the host owns from now on: it is closed with the host.
  public func serve(_ listener: FileDescriptor) throws(SystemError) {
    guard api.add_listener(host, listener.rawValue) == 0 else {
      let code = errno
      try? listener.close()
      throw SystemError("host mode: the Wayland socket", code: code)
    }
  }

  /// A connection for the program, to pass it as WAYLAND_SOCKET: a
  /// descriptor it inherits (close it once the program has started).
  public func connectClient() throws(SystemError) -> FileDescriptor {
    let fd = api.connect_client(host)
    guard fd >= 0 else { throw SystemError("host mode: a connection for the program", code: errno) }
    return FileDescriptor(rawValue: fd)
  }

  /// Holds what the program's window shows now as the frame splashd draws
  /// from (`withHeldFrame`), in place of the one held before, until
  /// `dropHeldFrame`: the client's buffer is kept, not copied, while the
  /// client lives; as it goes, what is shown of it (at most the canvas) is
  /// copied, and held instead. False when the window has shown nothing
  /// yet (what was held stays held).
  public func holdCurrentFrame() -> Bool { api.hold_frame(host) == 1 }

  /// The held frame's pixels, while `body` runs (only then: a client may
  /// move its memory between two reads, and its shrinking the memory is
  /// caught only while it is read); nil when none is held.
  public func withHeldFrame<Result, Failure: Error>(_ body: (HostedBuffer) throws(Failure) -> Result)
    throws(Failure) -> Result?
  {
    var buffer = splashd_host_buffer()
    guard api.begin_held(host, &buffer) == 1 else { return nil }
    defer { api.end_held(host) }
    guard let pixels = buffer.pixels else { return nil }
    return try body(
      HostedBuffer(
        pixels: pixels, size: PixelSize(width: Int(buffer.width), height: Int(buffer.height)),
        stride: Int(buffer.stride), hasAlpha: buffer.has_alpha != 0))
  }

  public var heldFrameDamage: PixelRect? {
    var box: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    let known = withUnsafeMutableBytes(of: &box) {
      api.held_damage(host, $0.baseAddress!.assumingMemoryBound(to: Int32.self))
    }
    guard known == 1 else { return nil }
    return PixelRect(x: Int(box.0), y: Int(box.1), width: Int(box.2), height: Int(box.3))
  }

  public var heldDmabuf: Dmabuf? {
    var found = splashd_host_dmabuf()
    guard api.held_dmabuf(host, &found) == 1 else { return nil }
    return Self.dmabuf(found)
  }

  /// `found` as Swift describes a GPU buffer.
  private static func dmabuf(_ found: splashd_host_dmabuf) -> Dmabuf {
    let count = Int(min(max(found.planes, 0), 4))
    let planes = withUnsafeBytes(of: found.fd) { fds in
      withUnsafeBytes(of: found.offset) { offsets in
        withUnsafeBytes(of: found.stride) { strides in
          (0..<count).map {
            Dmabuf.Plane(
              descriptor: fds.load(fromByteOffset: $0 * 4, as: Int32.self),
              offset: offsets.load(fromByteOffset: $0 * 4, as: UInt32.self),
              stride: strides.load(fromByteOffset: $0 * 4, as: UInt32.self))
          }
        }
      }
    }
    return Dmabuf(
      size: PixelSize(width: Int(found.width), height: Int(found.height)), format: found.format,
      modifier: found.modifier, planes: planes)
  }

  public func shownAsIs() { api.shown_as_is(host) }

  // MARK: Composing on the GPU

  public var composesOnGPU: Bool { renderNode != nil }

  public func beginComposing(size: PixelSize) -> Bool {
    api.compose_begin(host, Int32(clamping: size.width), Int32(clamping: size.height)) == 1
  }

  public func composeFill(_ rect: Rect, with color: Color, alpha: Double) {
    var box = Self.rect(rect)
    let rgba = [Float(color.red) / 255, Float(color.green) / 255, Float(color.blue) / 255, Float(alpha)]
    api.compose_fill(host, &box, rgba)
  }

  public func composePicture(_ picture: Int32, source: PixelRect, placement: AffineMap, alpha: Double) {
    var from = Self.rect(source.rect)
    let map = [placement.a, placement.b, placement.c, placement.d, placement.e, placement.f].map { Float($0) }
    api.compose_picture(host, picture, &from, map, Float(alpha))
  }

  public func endComposing() -> Dmabuf? {
    var frame = splashd_host_dmabuf()
    guard api.compose_end(host, &frame) == 1 else { return nil }
    return Self.dmabuf(frame)
  }

  public func uploadPicture(_ pixels: HostedBuffer) -> Int32? {
    var buffer = splashd_host_buffer(
      pixels: pixels.pixels, width: Int32(clamping: pixels.size.width), height: Int32(clamping: pixels.size.height),
      stride: Int32(clamping: pixels.stride), has_alpha: pixels.hasAlpha ? 1 : 0)
    let picture = api.compose_upload(host, &buffer)
    return picture > 0 ? picture : nil
  }

  public func releasePicture(_ picture: Int32) { api.compose_release(host, picture) }

  public func offerScanout(_ layouts: ScanoutLayouts) -> Int {
    let listed = layouts.layouts.map { splashd_host_layout(format: $0.format, modifier: $0.modifier) }
    return Int(api.offer_scanout(host, layouts.device, listed, listed.count))
  }

  private static func rect(_ rect: Rect) -> splashd_host_rect {
    splashd_host_rect(x: Float(rect.x), y: Float(rect.y), width: Float(rect.width), height: Float(rect.height))
  }

  public func shownComposed() { api.shown_composed(host) }

  /// Lets go of the held frame (the client has its buffer back).
  public func dropHeldFrame() { api.drop_held(host) }

  /// What the screen shows now (32-bit XRGB pixels), for the screencopy
  /// clients that asked (`screenWanted`); false when it could not be given.
  @discardableResult
  public func showScreen(_ screen: HostedBuffer) -> Bool {
    var buffer = splashd_host_buffer(
      pixels: screen.pixels, width: Int32(screen.size.width), height: Int32(screen.size.height),
      stride: Int32(screen.stride), has_alpha: screen.hasAlpha ? 1 : 0)
    return api.show_screen(host, &buffer) == 1
  }

  /// Tells the screencopy clients that asked that their copy failed
  /// (there is nothing to show), rather than leaving them waiting.
  public func failScreenCopies() { _ = api.show_screen(host, nil) }

  /// Takes the machine's keyboards, pointers and touch screens (the glue's
  /// own libinput context on udev's seat0: the devices opened directly,
  /// which needs root; those plugged in later too): keys in `layout` go to
  /// the program's newest window, the pointer and touches to the window
  /// under them (absolute devices through `mapInput`), the cursor the
  /// client sets drawn from the pointer's first move to the next touch.
  /// A machine without them is no failure. The error's code is EINVAL
  /// when the layout does not compile, ENODEV when libinput cannot be had.
  public func takeInputDevices(keyboardLayout layout: KeyboardLayout) throws(SystemError) {
    var error = [CChar](repeating: 0, count: 512)
    let status = withNames(of: layout) { names in api.start_input(host, &names, &error, error.count) }
    guard status == 0 else {
      throw SystemError(
        "host mode: the input devices", code: status == -2 ? EINVAL : ENODEV, reason: Self.text(of: error))
    }
  }

  /// With `withheld`, no window has the keyboard's or the pointer's focus
  /// and no touch reaches one: nothing typed or pressed reaches a client
  /// (it answers a question on the splash); without, input goes to the
  /// windows again.
  public func withholdInput(_ withheld: Bool) { api.withhold_input(host, withheld ? 1 : 0) }

  /// How many windows are mapped (the program's, its dialogs, other
  /// clients').
  public var windowCount: Int { Int(api.windows(host)) }

  /// Serves X11 programs too (Xwayland, started when the first X client
  /// connects); the display's name for DISPLAY (":N"). With `user` (the
  /// program runs as that user), Xwayland is started now, waited for (at
  /// most 5 s) and told to let that user in.
  public func startXwayland(lettingIn user: String? = nil) throws(SystemError) -> String {
    var error = [CChar](repeating: 0, count: 512)
    guard let name = api.start_xwayland(host, user, &error, error.count) else {
      throw SystemError("host mode: Xwayland", code: EIO, reason: Self.text(of: error))
    }
    return String(cString: name)
  }

  /// The process of each connected client, from its socket's credentials;
  /// nil for the program's own connection (splashd made it).
  public var clientProcesses: [pid_t?] {
    var pids = [Int32](repeating: 0, count: 16)
    var count = Int(api.client_processes(host, &pids, Int32(pids.count)))
    if count > pids.count {
      pids = [Int32](repeating: 0, count: count)
      count = min(count, Int(api.client_processes(host, &pids, Int32(pids.count))))
    }
    return pids.prefix(count).map { $0 == 0 ? nil : $0 }
  }

  /// The program's window is `size` from now on (the screen turned): its
  /// first toplevel is configured at that size, and draws at it when it
  /// next commits.
  public func resizeWindow(to size: PixelSize) { api.resize(host, Int32(size.width), Int32(size.height)) }

  /// Where a point of a touch screen or tablet (fractions of the panel's
  /// width and height) lies on the window's canvas
  /// (`ScreenArrangement.inputMap(ofScreen:canvas:rotation:)`): for a
  /// device the machine puts on one of `screens` (udev's `WL_OUTPUT`
  /// property names the screen, as for weston), that screen's map, nil
  /// where it shows none of the window; for the others, `standard`.
  public func mapInput(standard: AffineMap, screens: [(name: String, map: AffineMap?)]) {
    func entry(_ name: UnsafeMutablePointer<CChar>?, _ map: AffineMap?) -> splashd_host_input_map {
      let m = map ?? AffineMap(a: 0, b: 0, c: 0, d: 0, e: 0, f: 0)
      return splashd_host_input_map(
        screen: UnsafePointer(name), reaches_window: map == nil ? 0 : 1, map: (m.a, m.b, m.c, m.d, m.e, m.f))
    }
    let names = screens.map { strdup($0.name) }
    defer { for name in names { free(name) } }
    let maps = [entry(nil, standard)] + zip(names, screens).map { entry($0, $1.map) }
    maps.withUnsafeBufferPointer { api.map_input(host, $0.baseAddress, $0.count) }
  }

  /// `body` with `layout` as C strings, alive while it runs.
  private func withNames<Result>(
    of layout: KeyboardLayout, _ body: (inout splashd_host_keymap) -> Result
  ) -> Result {
    let strings = [layout.rules, layout.model, layout.layout, layout.variant, layout.options].map {
      $0.map { strdup($0) } ?? nil
    }
    defer { for string in strings { free(string) } }
    var names = splashd_host_keymap(
      rules: strings[0], model: strings[1], layout: strings[2], variant: strings[3], options: strings[4])
    return body(&names)
  }

  /// The frame that showed the program's buffer was presented at
  /// `monotonic` seconds, the screen refreshing every `refreshPeriod`:
  /// its frame callbacks go out, and the output's mode (wl_output) says
  /// that refresh.
  public func frameDone(at monotonic: Double, refreshPeriod: Double) {
    api.frame_done(host, Int64(monotonic * 1e9), Int64(refreshPeriod * 1e9))
  }

  /// Asks the client of the program's window whether it still answers:
  /// xdg_wm_base's ping, its pong awaited `timeout` seconds (wlroots'
  /// timer), a miss reported by a dispatch as `pingMissed`. False when the
  /// program's window is no xdg-shell toplevel.
  public func ping(within timeout: Double) -> Bool {
    api.ping(host, UInt32(min(max(timeout * 1000, 1), Double(UInt32.max)))) == 1
  }

  public var idleInhibited: Bool { api.idle_inhibited(host) == 1 }

  public var textFieldActive: Bool { api.text_field_active(host) == 1 }
}
