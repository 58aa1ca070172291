// SPDX-License-Identifier: Apache-2.0
import CDRM
import Glibc
import SplashCore
import SplashSystem

/// A DRM card opened for modesetting through libdrm: its connectors and
/// CRTCs, dumb buffers (memory the CPU paints and the display scans out),
/// modesets and page flips, atomic where the driver offers it, and the
/// flip events with the kernel's vblank time. Every libdrm call splashd
/// makes to drive a screen is here.
public final class DRMDevice: DRMCard {
  public let path: String
  public let descriptor: FileDescriptor
  /// Whether modesets and flips go through atomic commits (the driver
  /// offers `DRM_CLIENT_CAP_ATOMIC`), rather than SetCrtc and PageFlip.
  public private(set) var atomic: Bool
  /// Where libdrm's event handler (a C function, which cannot capture)
  /// puts the flip events it reads: each flip carries its address.
  private let inbox = Inbox()
  /// Property ids by object and name, looked up once.
  private var propertyIDs: [UInt32: [String: UInt32]] = [:]

  /// Opens `path` (read-write, not inherited by programs it starts) and
  /// checks it is a KMS device that offers dumb buffers and monotonic
  /// vblank times. Atomic is used when `allowAtomic` and the driver agrees.
  public convenience init(path: String, allowAtomic: Bool = true) throws(DeviceError) {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.openDevice(path, O_RDWR)
    } catch {
      throw DeviceError("\(path): \(error.phrase)")
    }
    try self.init(adopting: descriptor, path: path, allowAtomic: allowAtomic)
  }

  /// The card `path` through `descriptor`, already open (handed over by
  /// another splashd, master and framebuffers with it), checked as
  /// `init(path:)` checks a card it opens; closed when it is not one.
  public init(adopting descriptor: FileDescriptor, path: String, allowAtomic: Bool = true) throws(DeviceError) {
    self.descriptor = descriptor
    self.path = path
    atomic = false
    func capability(_ cap: Int32) -> UInt64? {
      var value: UInt64 = 0
      return drmGetCap(descriptor.rawValue, UInt64(cap), &value) == 0 ? value : nil
    }
    guard capability(DRM_CAP_DUMB_BUFFER) ?? 0 != 0 else {
      try? descriptor.close()
      throw DeviceError("\(path): not a KMS device with dumb buffers")
    }
    guard capability(DRM_CAP_TIMESTAMP_MONOTONIC) ?? 0 != 0 else {
      try? descriptor.close()
      throw DeviceError("\(path): vblank times are not on the monotonic clock")
    }
    // Universal planes: the primary plane and its formats are listed.
    _ = drmSetClientCap(descriptor.rawValue, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
    if allowAtomic { atomic = drmSetClientCap(descriptor.rawValue, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0 }
  }

  deinit { try? descriptor.close() }

  /// What the log calls the way frames reach the screen.
  public var modesetting: String {
    atomic ? "atomic modesetting" : "legacy modesetting (SetCrtc, PageFlip)"
  }

  /// Whether the device node is still there.
  public var isPresent: Bool { Files.exists(path) }

  public func panelOrientation(ofConnector id: UInt32) -> String? {
    PanelOrientation.orientation(ofConnector: id, on: descriptor.rawValue)
  }

  // MARK: Master

  /// Takes DRM master (the right to set modes): the first opener of a card
  /// has it already; otherwise only while no other program holds it.
  public func becomeMaster() throws(DeviceError) {
    guard drmIsMaster(descriptor.rawValue) == 0 else { return }
    guard drmSetMaster(descriptor.rawValue) == 0 else {
      let code = errno
      let reason =
        code == EBUSY || code == EINVAL
        ? "another program (a compositor, a display server) is DRM master"
        : SystemError("", code: code).phrase
      throw DeviceError("\(path): cannot become DRM master: \(reason)")
    }
  }

  /// Lets another program become master; what is on the screen stays.
  public func dropMaster() { _ = drmDropMaster(descriptor.rawValue) }

  /// Keeps the card open in the program this process `exec`s (clears
  /// FD_CLOEXEC): the kernel removes a closed file's framebuffers and turns
  /// off the planes that show them, so the last frame lasts only while the
  /// descriptor does.
  public func keepOpenAcrossExec() {
    let flags = fcntl(descriptor.rawValue, F_GETFD)
    if flags >= 0 { _ = fcntl(descriptor.rawValue, F_SETFD, flags & ~FD_CLOEXEC) }
  }

  // MARK: What the card has

  /// The card's layout now; its connectors are probed (a plug is seen).
  public func layout() throws(DeviceError) -> DRMLayout {
    let fd = descriptor.rawValue
    guard let resources = drmModeGetResources(fd) else {
      throw DeviceError("\(path): not a KMS device (\(SystemError("", code: errno).phrase))")
    }
    defer { drmModeFreeResources(resources) }
    let crtcs = (0..<Int(resources.pointee.count_crtcs)).map { resources.pointee.crtcs[$0] }
    var connectors: [DRMConnector] = []
    for index in 0..<Int(resources.pointee.count_connectors) {
      guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[index]) else { continue }
      defer { drmModeFreeConnector(connector) }
      let c = connector.pointee
      var possible: [UInt32] = []
      var current: UInt32?
      for slot in 0..<Int(c.count_encoders) {
        guard let encoder = drmModeGetEncoder(fd, c.encoders[slot]) else { continue }
        defer { drmModeFreeEncoder(encoder) }
        for (bit, crtc) in crtcs.enumerated() where encoder.pointee.possible_crtcs & (1 << UInt32(bit)) != 0 {
          if !possible.contains(crtc) { possible.append(crtc) }
        }
        if encoder.pointee.encoder_id == c.encoder_id && encoder.pointee.crtc_id != 0 {
          current = encoder.pointee.crtc_id
        }
      }
      connectors.append(
        DRMConnector(
          id: c.connector_id, name: Self.connectorName(type: c.connector_type, number: c.connector_type_id),
          connected: c.connection == DRM_MODE_CONNECTED,
          modes: (0..<Int(c.count_modes)).map { DRMMode(info: c.modes[$0]) }, currentCRTC: current,
          possibleCRTCs: possible))
    }
    return DRMLayout(crtcs: crtcs, connectors: connectors)
  }

  /// "HDMI-A-1": the connector type's name and its number.
  public static func connectorName(type: UInt32, number: UInt32) -> String {
    let name = drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "Unknown"
    return "\(name)-\(number)"
  }

  /// The primary plane that can show CRTC `crtc` (at index `index` of the
  /// card's CRTCs) and the pixel formats it scans out; nil when the driver
  /// lists no planes.
  public func primaryPlane(forCRTCAt index: Int) -> (id: UInt32, formats: [UInt32])? {
    let fd = descriptor.rawValue
    guard let planes = drmModeGetPlaneResources(fd) else { return nil }
    defer { drmModeFreePlaneResources(planes) }
    for slot in 0..<Int(planes.pointee.count_planes) {
      guard let plane = drmModeGetPlane(fd, planes.pointee.planes[slot]) else { continue }
      defer { drmModeFreePlane(plane) }
      let p = plane.pointee
      guard p.possible_crtcs & (1 << UInt32(index)) != 0,
        Self.enumProperty("type", of: p.plane_id, kind: UInt32(DRM_MODE_OBJECT_PLANE), on: fd) == "Primary"
      else { continue }
      return (p.plane_id, (0..<Int(p.count_formats)).map { p.formats[$0] })
    }
    return nil
  }

  /// The card's device number (`st_rdev` of its file); nil when it
  /// cannot be had.
  public var deviceNumber: UInt64? {
    var info = stat()
    return fstat(descriptor.rawValue, &info) == 0 ? UInt64(info.st_rdev) : nil
  }

  /// The layouts plane `plane` lists in its IN_FORMATS property (each
  /// format with each modifier it takes); none when it has no such
  /// property (its driver takes each format in its implicit layout).
  public func listedLayouts(ofPlane plane: UInt32) -> [ScanoutLayouts.Layout] {
    let fd = descriptor.rawValue
    let blobID = Self.withProperty("IN_FORMATS", of: plane, kind: UInt32(DRM_MODE_OBJECT_PLANE), on: fd) { $1 }
    guard let blobID, blobID != 0, let blob = drmModeGetPropertyBlob(fd, UInt32(truncatingIfNeeded: blobID)) else {
      return []
    }
    defer { drmModeFreePropertyBlob(blob) }
    var listed: [ScanoutLayouts.Layout] = []
    var iterator = drmModeFormatModifierIterator()
    while drmModeFormatModifierBlobIterNext(blob, &iterator) {
      listed.append(ScanoutLayouts.Layout(format: iterator.fmt, modifier: iterator.mod))
    }
    return listed
  }

  /// The current value's name of the enum property `name` of a DRM object.
  public static func enumProperty(_ name: String, of object: UInt32, kind: UInt32, on fd: Int32) -> String? {
    withProperty(name, of: object, kind: kind, on: fd) { property, value in
      for item in 0..<Int(property.count_enums) where property.enums[item].value == value {
        return text(property.enums[item].name)
      }
      return nil
    } ?? nil
  }

  /// What `body` makes of the property `name` of a DRM object and its
  /// current value; nil when the object has no such property.
  private static func withProperty<Result>(
    _ name: String, of object: UInt32, kind: UInt32, on fd: Int32, _ body: (drmModePropertyRes, UInt64) -> Result
  ) -> Result? {
    guard let properties = drmModeObjectGetProperties(fd, object, kind) else { return nil }
    defer { drmModeFreeObjectProperties(properties) }
    for index in 0..<Int(properties.pointee.count_props) {
      guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
      defer { drmModeFreeProperty(property) }
      guard text(property.pointee.name) == name else { continue }
      return body(property.pointee, properties.pointee.prop_values[index])
    }
    return nil
  }

  /// A fixed-size C character array as a string.
  private static func text<T>(_ characters: T) -> String {
    withUnsafeBytes(of: characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  // MARK: Buffers

  /// A dumb buffer of `size` in `format` (a DRM fourcc of `bitsPerPixel`),
  /// mapped and registered as a framebuffer.
  public func makeBuffer(_ size: PixelSize, format: UInt32, bitsPerPixel: Int) throws(DeviceError) -> DRMBuffer {
    let fd = descriptor.rawValue
    var handle: UInt32 = 0
    var pitch: UInt32 = 0
    var length: UInt64 = 0
    guard
      drmModeCreateDumbBuffer(
        fd, UInt32(size.width), UInt32(size.height), UInt32(bitsPerPixel), 0, &handle, &pitch, &length)
        == 0
    else { throw failure("cannot make a \(size.description) dumb buffer") }
    var offset: UInt64 = 0
    guard drmModeMapDumbBuffer(fd, handle, &offset) == 0,
      let mapped = mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)), mapped != MAP_FAILED
    else {
      let error = failure("cannot map a dumb buffer")
      _ = drmModeDestroyDumbBuffer(fd, handle)
      throw error
    }
    var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
    var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
    var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    var framebuffer: UInt32 = 0
    let added = withUnsafeMutablePointer(to: &handles) { h in
      withUnsafeMutablePointer(to: &pitches) { p in
        withUnsafeMutablePointer(to: &offsets) { o in
          h.withMemoryRebound(to: UInt32.self, capacity: 4) { h in
            p.withMemoryRebound(to: UInt32.self, capacity: 4) { p in
              o.withMemoryRebound(to: UInt32.self, capacity: 4) { o in
                drmModeAddFB2(fd, UInt32(size.width), UInt32(size.height), format, h, p, o, &framebuffer, 0)
              }
            }
          }
        }
      }
    }
    guard added == 0 else {
      let error = failure("cannot register a framebuffer (AddFB2)")
      munmap(mapped, Int(length))
      _ = drmModeDestroyDumbBuffer(fd, handle)
      throw error
    }
    return DRMBuffer(
      handle: handle, framebuffer: framebuffer, size: size, pitch: Int(pitch), pixels: mapped, length: Int(length))
  }

  /// Unmaps `buffer` and removes its framebuffer, which turns off a plane
  /// that shows it.
  public func free(_ buffer: DRMBuffer) {
    munmap(buffer.pixels, buffer.length)
    _ = drmModeRmFB(descriptor.rawValue, buffer.framebuffer)
    _ = drmModeDestroyDumbBuffer(descriptor.rawValue, buffer.handle)
  }

  /// Removes framebuffer `id` of this card's file (one another splashd made
  /// and handed over with the file): a plane that shows it turns off.
  public func removeFramebuffer(_ id: UInt32) {
    _ = drmModeRmFB(descriptor.rawValue, id)
  }

  /// Unmaps `buffer`, which stays on the screen: its framebuffer is freed
  /// without turning off the plane that shows it (CLOSEFB, Linux 6.8), so it
  /// outlives this file; true when the kernel could. Otherwise the
  /// framebuffer stays until the card's file is closed.
  public func release(keepingShown buffer: DRMBuffer) -> Bool {
    munmap(buffer.pixels, buffer.length)
    let closed = splashd_drm_close_fb(descriptor.rawValue, buffer.framebuffer) == 0
    // The framebuffer holds the memory; the handle is not needed for it.
    _ = drmModeDestroyDumbBuffer(descriptor.rawValue, buffer.handle)
    return closed
  }

  // MARK: Modesets and flips

  /// The state of CRTC `id` now.
  public func save(crtc id: UInt32) -> DRMCRTCState? {
    guard let crtc = drmModeGetCrtc(descriptor.rawValue, id) else { return nil }
    defer { drmModeFreeCrtc(crtc) }
    let c = crtc.pointee
    return DRMCRTCState(
      crtc: c.crtc_id, framebuffer: c.buffer_id, x: c.x, y: c.y, mode: c.mode_valid != 0 ? DRMMode(info: c.mode) : nil)
  }

  /// Puts back what `saved` showed on `connector`; false when that failed
  /// (or it showed nothing).
  @discardableResult
  public func restore(_ saved: DRMCRTCState, connector: UInt32) -> Bool {
    guard saved.showedSomething, var mode = saved.mode?.info else { return false }
    var connectorID = connector
    return drmModeSetCrtc(descriptor.rawValue, saved.crtc, saved.framebuffer, saved.x, saved.y, &connectorID, 1, &mode)
      == 0
  }

  /// Lights `pipe` with `buffer` at its mode; returns when it is on the
  /// screen. An atomic modeset the driver refuses falls back to SetCrtc
  /// (and stays there), with the reason returned as a note.
  public func modeset(_ pipe: DRMPipe, showing buffer: DRMBuffer) throws(DeviceError) -> String? {
    var note: String?
    if atomic {
      if let refused = atomicModeset(pipe, buffer) {
        atomic = false
        note = "the atomic modeset was refused (\(refused)): using \(modesetting)"
      } else {
        return nil
      }
    }
    var connector = pipe.connector
    var mode = pipe.mode.info
    guard drmModeSetCrtc(descriptor.rawValue, pipe.crtc, buffer.framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
      throw failure("cannot set the mode \(pipe.mode.description) (SetCrtc)")
    }
    return note
  }

  /// Nil when the atomic modeset went through, else why not.
  private func atomicModeset(_ pipe: DRMPipe, _ buffer: DRMBuffer) -> String? {
    let fd = descriptor.rawValue
    guard let plane = pipe.plane else { return "no primary plane" }
    var blob: UInt32 = 0
    var mode = pipe.mode.info
    guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
      return "MODE_ID blob: \(SystemError("", code: errno).phrase)"
    }
    defer { _ = drmModeDestroyPropertyBlob(fd, blob) }
    let connector = UInt32(DRM_MODE_OBJECT_CONNECTOR)
    let crtc = UInt32(DRM_MODE_OBJECT_CRTC)
    let width = UInt64(buffer.size.width)
    let height = UInt64(buffer.size.height)
    let values: [(UInt32, UInt32, String, UInt64)] =
      [
        (pipe.connector, connector, "CRTC_ID", UInt64(pipe.crtc)),
        (pipe.crtc, crtc, "MODE_ID", UInt64(blob)),
        (pipe.crtc, crtc, "ACTIVE", 1),
      ] + planeValues(plane, pipe.crtc, buffer.framebuffer, width, height)
    return commit(values, flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), token: nil)
  }

  /// The primary plane's properties that show framebuffer `fb` whole on `crtc`.
  private func planeValues(_ plane: UInt32, _ crtc: UInt32, _ fb: UInt32, _ width: UInt64, _ height: UInt64) -> [(
    UInt32, UInt32, String, UInt64
  )] {
    let kind = UInt32(DRM_MODE_OBJECT_PLANE)
    return [
      (plane, kind, "FB_ID", UInt64(fb)), (plane, kind, "CRTC_ID", UInt64(crtc)),
      (plane, kind, "SRC_X", 0), (plane, kind, "SRC_Y", 0),
      (plane, kind, "SRC_W", width << 16), (plane, kind, "SRC_H", height << 16),
      (plane, kind, "CRTC_X", 0), (plane, kind, "CRTC_Y", 0),
      (plane, kind, "CRTC_W", width), (plane, kind, "CRTC_H", height),
    ]
  }

  /// Commits `values` (object, its kind, property name, value) atomically;
  /// nil when it went through, else why not.
  private func commit(_ values: [(UInt32, UInt32, String, UInt64)], flags: UInt32, token: UnsafeMutableRawPointer?)
    -> String?
  {
    guard let request = drmModeAtomicAlloc() else { return "out of memory" }
    defer { drmModeAtomicFree(request) }
    for (object, kind, name, value) in values {
      guard let property = propertyID(name, of: object, kind: kind) else { return "no property \(name)" }
      guard drmModeAtomicAddProperty(request, object, property, value) >= 0 else { return "cannot add \(name)" }
    }
    guard drmModeAtomicCommit(descriptor.rawValue, request, flags, token) == 0 else {
      return SystemError("", code: errno).phrase
    }
    return nil
  }

  private func propertyID(_ name: String, of object: UInt32, kind: UInt32) -> UInt32? {
    if let known = propertyIDs[object] { return known[name] }
    var ids: [String: UInt32] = [:]
    let fd = descriptor.rawValue
    if let properties = drmModeObjectGetProperties(fd, object, kind) {
      for index in 0..<Int(properties.pointee.count_props) {
        guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
        ids[Self.text(property.pointee.name)] = property.pointee.prop_id
        drmModeFreeProperty(property)
      }
      drmModeFreeObjectProperties(properties)
    }
    propertyIDs[object] = ids
    return ids[name]
  }

  /// Whether CRTC `crtc` (lit) has a vblank interrupt. Drivers without one
  /// (bochs, virtio-gpu, many SPI panels) complete a flip at once and time
  /// its event then, not at a vblank.
  public func hasVblank(crtc: UInt32) -> Bool {
    var sequence: UInt64 = 0
    var nanoseconds: Int64 = 0
    return drmCrtcGetSequence(descriptor.rawValue, crtc, &sequence, &nanoseconds) == 0
  }

  /// Queues a flip of `pipe` to framebuffer `framebuffer` (of `size`) at
  /// the next vblank; its event arrives on the descriptor (`readEvents`).
  public func flip(_ pipe: DRMPipe, toFramebuffer framebuffer: UInt32, size: PixelSize) throws(DeviceError) {
    let token = Unmanaged.passUnretained(inbox).toOpaque()
    if atomic, let plane = pipe.plane {
      let values = planeValues(plane, pipe.crtc, framebuffer, UInt64(size.width), UInt64(size.height))
      let flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK)
      if let refused = commit(values, flags: flags, token: token) {
        throw DeviceError("\(path): the flip was refused: \(refused)")
      }
      return
    }
    guard drmModePageFlip(descriptor.rawValue, pipe.crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), token) == 0
    else { throw failure("the flip was refused (PageFlip)") }
  }

  public func setPower(_ pipe: DRMPipe, on: Bool) throws(DeviceError) {
    // The DPMS property is a connector's, atomic or not: the kernel turns
    // it into the CRTC's ACTIVE for atomic drivers.
    guard let dpms = propertyID("DPMS", of: pipe.connector, kind: UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
      throw DeviceError("\(path): connector \(pipe.connector) has no DPMS property")
    }
    let state = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
    guard drmModeConnectorSetProperty(descriptor.rawValue, pipe.connector, dpms, state) == 0 else {
      throw failure("cannot switch the display \(on ? "on" : "off") (DPMS)")
    }
  }

  public func importFramebuffer(_ dmabuf: Dmabuf) throws(DeviceError) -> UInt32 {
    let fd = descriptor.rawValue
    guard (1...4).contains(dmabuf.planes.count), dmabuf.size.width > 0, dmabuf.size.height > 0 else {
      throw DeviceError(
        "\(path): a buffer of \(dmabuf.planes.count) planes, \(dmabuf.size.description), cannot be shown")
    }
    var handles: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    var pitches: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    var modifiers: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var imported: [UInt32] = []
    defer {
      // The framebuffer holds the memory; the handles are not needed for it.
      for handle in Set(imported) { _ = drmCloseBufferHandle(fd, handle) }
    }
    for (index, plane) in dmabuf.planes.enumerated() {
      var handle: UInt32 = 0
      guard drmPrimeFDToHandle(fd, plane.descriptor, &handle) == 0 else {
        throw failure("the program's buffer cannot be imported (PRIME)")
      }
      imported.append(handle)
      withUnsafeMutableBytes(of: &handles) { $0.storeBytes(of: handle, toByteOffset: index * 4, as: UInt32.self) }
      withUnsafeMutableBytes(of: &pitches) { $0.storeBytes(of: plane.stride, toByteOffset: index * 4, as: UInt32.self) }
      withUnsafeMutableBytes(of: &offsets) { $0.storeBytes(of: plane.offset, toByteOffset: index * 4, as: UInt32.self) }
      withUnsafeMutableBytes(of: &modifiers) {
        $0.storeBytes(of: dmabuf.modifier, toByteOffset: index * 8, as: UInt64.self)
      }
    }
    // The window is opaque: an alpha channel is shown as padding.
    let format = dmabuf.format == Dmabuf.argb8888 ? Dmabuf.xrgb8888 : dmabuf.format
    var framebuffer: UInt32 = 0
    let made =
      dmabuf.modifier == Dmabuf.invalidModifier
      ? withUnsafePointer(to: &handles) { handles in
        withUnsafePointer(to: &pitches) { pitches in
          withUnsafePointer(to: &offsets) { offsets in
            drmModeAddFB2(
              fd, UInt32(dmabuf.size.width), UInt32(dmabuf.size.height), format,
              UnsafeRawPointer(handles).assumingMemoryBound(to: UInt32.self),
              UnsafeRawPointer(pitches).assumingMemoryBound(to: UInt32.self),
              UnsafeRawPointer(offsets).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
          }
        }
      }
      : withUnsafePointer(to: &handles) { handles in
        withUnsafePointer(to: &pitches) { pitches in
          withUnsafePointer(to: &offsets) { offsets in
            withUnsafePointer(to: &modifiers) { modifiers in
              drmModeAddFB2WithModifiers(
                fd, UInt32(dmabuf.size.width), UInt32(dmabuf.size.height), format,
                UnsafeRawPointer(handles).assumingMemoryBound(to: UInt32.self),
                UnsafeRawPointer(pitches).assumingMemoryBound(to: UInt32.self),
                UnsafeRawPointer(offsets).assumingMemoryBound(to: UInt32.self),
                UnsafeRawPointer(modifiers).assumingMemoryBound(to: UInt64.self), &framebuffer,
                UInt32(DRM_MODE_FB_MODIFIERS))
            }
          }
        }
      }
    guard made == 0 else {
      throw failure("a \(dmabuf.formatName) buffer of \(dmabuf.size.description) cannot be shown (AddFB2)")
    }
    return framebuffer
  }

  public func canShow(framebuffer: UInt32, size: PixelSize, on pipe: DRMPipe) -> String? {
    // Without atomic modesetting there is nothing to ask: the flip says.
    guard atomic, let plane = pipe.plane else { return nil }
    let values = planeValues(plane, pipe.crtc, framebuffer, UInt64(size.width), UInt64(size.height))
    return commit(values, flags: UInt32(DRM_MODE_ATOMIC_TEST_ONLY), token: nil)
  }

  /// Reads the flip events that have arrived, without waiting.
  public func readEvents() -> [DRMFlipEvent] {
    var poller = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    while poll(&poller, 1, 0) == 1 && poller.revents & Int16(POLLIN) != 0 {
      var context = drmEventContext()
      context.version = 3
      context.page_flip_handler2 = { _, sequence, seconds, microseconds, crtc, token in
        guard let token else { return }
        Unmanaged<Inbox>.fromOpaque(token).takeUnretainedValue().events.append(
          DRMFlipEvent(crtc: crtc, time: Double(seconds) + Double(microseconds) / 1e6, sequence: sequence))
      }
      guard drmHandleEvent(descriptor.rawValue, &context) == 0 else { break }
      poller.revents = 0
    }
    defer { inbox.events = [] }
    return inbox.events
  }

  /// The flip events read and not yet returned.
  private final class Inbox {
    var events: [DRMFlipEvent] = []
  }

  private func failure(_ what: String) -> DeviceError {
    DeviceError("\(path): \(what): \(SystemError("", code: errno).phrase)")
  }
}
