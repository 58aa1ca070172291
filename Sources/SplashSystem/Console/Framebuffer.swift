// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// One colour channel of a framebuffer pixel, in bits.
public struct ChannelBits: Equatable, Sendable, CustomStringConvertible {
  public var offset: Int
  public var length: Int
  public init(offset: Int, length: Int) {
    self.offset = offset
    self.length = length
  }
  /// The channel's bits in a pixel.
  public var mask: UInt32 { length == 0 ? 0 : UInt32(truncatingIfNeeded: ((1 << length) - 1) << offset) }
  public var description: String { "\(length)@\(offset)" }
}

/// A framebuffer's mode and memory layout, as FBIOGET_VSCREENINFO and
/// FBIOGET_FSCREENINFO report it.
public struct FramebufferMode: Equatable, Sendable {
  /// The visible area.
  public var width: Int
  public var height: Int
  public var bitsPerPixel: Int
  /// Bytes from one row to the next.
  public var lineLength: Int
  /// Where the visible area starts in the virtual screen.
  public var xOffset: Int
  public var yOffset: Int
  /// Rows of the virtual screen (at least `height`; twice as many or more
  /// leave room for a second page).
  public var virtualHeight: Int
  /// Rows the driver pans by; 0 when it cannot pan vertically.
  public var panStep: Int
  /// The driver's name ("bochs-drmdrmfb", "vfb", …).
  public var driver: String
  public var red: ChannelBits
  public var green: ChannelBits
  public var blue: ChannelBits
  public var alpha: ChannelBits
  /// Pixels hold colour values (truecolor or directcolor visuals), not
  /// palette indices.
  public var isTrueColor: Bool
  /// The refresh rate from the mode's timings, when they give one.
  public var refreshRate: Double?
  /// Bytes of screen memory.
  public var memoryLength: Int

  public init(
    width: Int, height: Int, bitsPerPixel: Int, lineLength: Int, xOffset: Int = 0, yOffset: Int = 0,
    virtualHeight: Int? = nil, panStep: Int = 0, driver: String = "", red: ChannelBits, green: ChannelBits,
    blue: ChannelBits, alpha: ChannelBits = ChannelBits(offset: 0, length: 0), isTrueColor: Bool = true,
    refreshRate: Double? = nil, memoryLength: Int
  ) {
    self.width = width
    self.height = height
    self.bitsPerPixel = bitsPerPixel
    self.lineLength = lineLength
    self.xOffset = xOffset
    self.yOffset = yOffset
    self.virtualHeight = virtualHeight ?? height
    self.panStep = panStep
    self.driver = driver
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
    self.isTrueColor = isTrueColor
    self.refreshRate = refreshRate
    self.memoryLength = memoryLength
  }

  /// The mode of the framebuffer device open on `descriptor`, and the
  /// variable screen information it came from (for panning).
  static func read(device descriptor: FileDescriptor, path: String) throws(SystemError) -> (
    FramebufferMode, fb_var_screeninfo
  ) {
    var variable = fb_var_screeninfo()
    var fixed = fb_fix_screeninfo()
    do {
      try descriptor.control(UInt(FBIOGET_VSCREENINFO), &variable, call: "FBIOGET_VSCREENINFO \(path)")
      try descriptor.control(UInt(FBIOGET_FSCREENINFO), &fixed, call: "FBIOGET_FSCREENINFO \(path)")
    } catch {
      // What a regular file or another device answers: say what it means.
      if error.code == ENOTTY || error.code == EINVAL {
        throw SystemError("\(path)", code: error.code, reason: "not a framebuffer device")
      }
      throw error
    }
    // pixclock is picoseconds per pixel; a frame is every pixel of the mode plus its margins and syncs.
    let pixels =
      Double(variable.xres + variable.left_margin + variable.right_margin + variable.hsync_len)
      * Double(variable.yres + variable.upper_margin + variable.lower_margin + variable.vsync_len)
    func bits(_ field: fb_bitfield) -> ChannelBits { ChannelBits(offset: Int(field.offset), length: Int(field.length)) }
    let driver = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let mode = FramebufferMode(
      width: Int(variable.xres), height: Int(variable.yres), bitsPerPixel: Int(variable.bits_per_pixel),
      lineLength: Int(fixed.line_length), xOffset: Int(variable.xoffset), yOffset: Int(variable.yoffset),
      virtualHeight: Int(variable.yres_virtual), panStep: Int(fixed.ypanstep), driver: driver,
      red: bits(variable.red), green: bits(variable.green), blue: bits(variable.blue), alpha: bits(variable.transp),
      isTrueColor: fixed.visual == FB_VISUAL_TRUECOLOR || fixed.visual == FB_VISUAL_DIRECTCOLOR,
      refreshRate: variable.pixclock > 0 ? 1e12 / (Double(variable.pixclock) * pixels) : nil,
      memoryLength: Int(fixed.smem_len))
    return (mode, variable)
  }
}

/// A Linux framebuffer device (/dev/fbN), mapped into memory.
public final class Framebuffer {
  public let path: String
  public let descriptor: FileDescriptor
  public let mode: FramebufferMode
  /// The mapped screen memory (`mode.memoryLength` bytes).
  public let memory: UnsafeMutableRawPointer
  /// The device's variable screen information, kept for panning.
  private var variable: fb_var_screeninfo

  /// Opens and maps the framebuffer device at `path`.
  public convenience init(path: String) throws(SystemError) {
    let descriptor = try FileDescriptor.openDevice(path, O_RDWR, kind: "a framebuffer device")
    do {
      let (mode, variable) = try FramebufferMode.read(device: descriptor, path: path)
      try self.init(path: path, descriptor: descriptor, mode: mode, variable: variable)
    } catch {
      try? descriptor.close()
      throw error
    }
  }

  /// A stand-in for a device: the regular file at `path` holds the screen
  /// memory of the made-up `mode` (the tests and the benchmark use one).
  /// Nothing waits for vsync, so frames are paced by the clock.
  public convenience init(file path: String, mode: FramebufferMode) throws(SystemError) {
    let descriptor = try FileDescriptor.open(path, O_RDWR)
    guard let status = try? descriptor.status(), Int(status.st_size) >= mode.memoryLength else {
      try? descriptor.close()
      throw SystemError(path, code: EINVAL, reason: "smaller than the mode's \(mode.memoryLength) bytes")
    }
    do {
      try self.init(path: path, descriptor: descriptor, mode: mode, variable: fb_var_screeninfo())
    } catch {
      try? descriptor.close()
      throw error
    }
  }

  private init(
    path: String, descriptor: FileDescriptor, mode: FramebufferMode, variable: fb_var_screeninfo
  ) throws(SystemError) {
    guard let mapped = mmap(nil, mode.memoryLength, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, 0),
      mapped != MAP_FAILED
    else { throw SystemError("mmap \(path)", code: errno) }
    self.path = path
    self.descriptor = descriptor
    self.mode = mode
    self.variable = variable
    memory = mapped
  }

  /// Shows the part of the virtual screen that starts at row `row`
  /// (FBIOPAN_DISPLAY); most drivers switch at the next vertical blank.
  public func pan(toRow row: Int) throws(SystemError) {
    var wanted = variable
    wanted.xoffset = UInt32(mode.xOffset)
    wanted.yoffset = UInt32(row)
    try descriptor.control(UInt(FBIOPAN_DISPLAY), &wanted, call: "FBIOPAN_DISPLAY \(path) to row \(row)")
    variable.yoffset = UInt32(row)
  }

  deinit {
    munmap(memory, mode.memoryLength)
    try? descriptor.close()
  }

  /// Pushes what was written to the screen now. DRM's fbdev emulation (and
  /// other deferred-I/O drivers) map a shadow buffer that a worker copies to
  /// the screen tens of milliseconds later; fsync flushes it at once.
  public func flush() {
    _ = fsync(descriptor.rawValue)
  }

  /// Waits for the next vertical blank; false when the driver cannot.
  public func waitForVsync() -> Bool {
    var crtc: UInt32 = 0
    return (try? descriptor.control(splashd_fbio_waitforvsync(), &crtc, call: "FBIO_WAITFORVSYNC")) != nil
  }

  /// Powers the display down (the panel dark: FBIOBLANK's POWERDOWN)
  /// until `unblank`.
  public func powerDown() throws(SystemError) {
    try descriptor.control(UInt(FBIOBLANK), value: UInt(FB_BLANK_POWERDOWN), call: "FBIOBLANK \(path)")
  }

  /// Turns the display on, if it was blanked.
  public func unblank() {
    _ = try? descriptor.control(UInt(FBIOBLANK), value: UInt(FB_BLANK_UNBLANK), call: "FBIOBLANK")
  }
}

/// The virtual terminal in graphics mode, so that console text (and its
/// cursor) never draws over the picture; text mode again when released.
/// Nothing is written to the terminal: with fbcon's deferred takeover, the
/// first console output would let fbcon take the screen and clear it.
public final class GraphicsConsole {
  private let descriptor: FileDescriptor

  /// Puts the current VT (/dev/tty0) in graphics mode.
  public init() throws(SystemError) {
    descriptor = try FileDescriptor.openDevice("/dev/tty0", O_RDWR)
    do {
      try descriptor.control(UInt(KDSETMODE), value: UInt(KD_GRAPHICS), call: "KDSETMODE /dev/tty0")
    } catch {
      try? descriptor.close()
      throw error
    }
  }

  /// Graphics mode again, after `restore`.
  public func enterGraphics() {
    _ = try? descriptor.control(UInt(KDSETMODE), value: UInt(KD_GRAPHICS), call: "KDSETMODE /dev/tty0")
  }

  /// Text mode back.
  public func restore() {
    _ = try? descriptor.control(UInt(KDSETMODE), value: UInt(KD_TEXT), call: "KDSETMODE /dev/tty0")
  }

  deinit { try? descriptor.close() }
}
