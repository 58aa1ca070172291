import CLinux
import Glibc

/// A Linux framebuffer device (/dev/fbN), mapped into memory.
public final class Framebuffer {
  public let path: String
  public let descriptor: FileDescriptor
  /// The visible mode.
  public let width: Int
  public let height: Int
  public let bitsPerPixel: Int
  /// Bytes from one row to the next.
  public let lineLength: Int
  /// Where the visible area starts in the virtual screen.
  public let xOffset: Int
  public let yOffset: Int
  /// The colour channels as (offset, length) in bits.
  public let red: (offset: Int, length: Int)
  public let green: (offset: Int, length: Int)
  public let blue: (offset: Int, length: Int)
  public let alpha: (offset: Int, length: Int)
  /// The refresh rate from the mode's timings, when they give one.
  public let refreshRate: Double?
  /// The mapped screen memory.
  public let memory: UnsafeMutableRawPointer
  public let memoryLength: Int

  public init(path: String) throws(SystemError) {
    self.path = path
    descriptor = try FileDescriptor.open(path, O_RDWR)
    var variable = fb_var_screeninfo()
    var fixed = fb_fix_screeninfo()
    guard splashd_ioctl_pointer(descriptor.rawValue, UInt(FBIOGET_VSCREENINFO), &variable) == 0,
      splashd_ioctl_pointer(descriptor.rawValue, UInt(FBIOGET_FSCREENINFO), &fixed) == 0
    else {
      let error = SystemError("FBIOGET_VSCREENINFO \(path)", code: errno)
      try? descriptor.close()
      throw error
    }
    width = Int(variable.xres)
    height = Int(variable.yres)
    bitsPerPixel = Int(variable.bits_per_pixel)
    lineLength = Int(fixed.line_length)
    xOffset = Int(variable.xoffset)
    yOffset = Int(variable.yoffset)
    red = (Int(variable.red.offset), Int(variable.red.length))
    green = (Int(variable.green.offset), Int(variable.green.length))
    blue = (Int(variable.blue.offset), Int(variable.blue.length))
    alpha = (Int(variable.transp.offset), Int(variable.transp.length))
    // pixclock is picoseconds per pixel; a frame is every pixel of the mode plus its margins and syncs.
    let pixels =
      Double(variable.xres + variable.left_margin + variable.right_margin + variable.hsync_len)
      * Double(variable.yres + variable.upper_margin + variable.lower_margin + variable.vsync_len)
    refreshRate = variable.pixclock > 0 ? 1e12 / (Double(variable.pixclock) * pixels) : nil
    memoryLength = Int(fixed.smem_len)
    guard let mapped = mmap(nil, memoryLength, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, 0),
      mapped != MAP_FAILED
    else {
      let error = SystemError("mmap \(path)", code: errno)
      try? descriptor.close()
      throw error
    }
    memory = mapped
  }

  deinit {
    munmap(memory, memoryLength)
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
    return splashd_ioctl_pointer(descriptor.rawValue, splashd_fbio_waitforvsync(), &crtc) == 0
  }

  /// Turns the display on, if it was blanked.
  public func unblank() {
    _ = splashd_ioctl_value(descriptor.rawValue, UInt(FBIOBLANK), UInt(FB_BLANK_UNBLANK))
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
    descriptor = try FileDescriptor.open("/dev/tty0", O_RDWR | O_NOCTTY)
    guard splashd_ioctl_value(descriptor.rawValue, UInt(KDSETMODE), UInt(KD_GRAPHICS)) == 0 else {
      let error = SystemError("KDSETMODE /dev/tty0", code: errno)
      try? descriptor.close()
      throw error
    }
  }

  /// Text mode back.
  public func restore() {
    _ = splashd_ioctl_value(descriptor.rawValue, UInt(KDSETMODE), UInt(KD_TEXT))
  }

  deinit { try? descriptor.close() }
}
