import Glibc  // exp, log: maths only, no I/O
// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// A rectangle given as fractions of the logical canvas: X, Y, W, H.
public struct FractionRect: Equatable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Parses "X, Y, W, H": each from 0 to 1, W and H above 0, the whole
  /// rectangle inside the canvas.
  public init?(_ text: String) {
    guard let numbers = parseFractions(text, count: 4) else { return nil }
    let (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
    guard w > 0, h > 0, x + w <= 1.000_001, y + h <= 1.000_001 else { return nil }
    self.init(x: x, y: y, width: w, height: h)
  }

  public var description: String { [x, y, width, height].map(formatNumber).joined(separator: ", ") }

  /// The rectangle in whole pixels of `canvas` (at least one pixel on a side).
  public func pixels(in canvas: PixelSize) -> PixelRect {
    let left = snap(x * Double(canvas.width))
    let top = snap(y * Double(canvas.height))
    let right = max(left + 1, snap((x + width) * Double(canvas.width)))
    let bottom = max(top + 1, snap((y + height) * Double(canvas.height)))
    return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
  }
}

/// A point given as fractions of the logical canvas: X, Y.
public struct FractionPoint: Equatable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// Parses "X, Y", each from 0 to 1.
  public init?(_ text: String) {
    guard let numbers = parseFractions(text, count: 2) else { return nil }
    self.init(x: numbers[0], y: numbers[1])
  }

  public var description: String { [x, y].map(formatNumber).joined(separator: ", ") }
}

/// `count` numbers from 0 to 1 separated by commas (blanks allowed).
private func parseFractions(_ text: String, count: Int) -> [Double]? {
  let parts = text.split(separator: ",", omittingEmptySubsequences: false)
  guard parts.count == count else { return nil }
  var numbers: [Double] = []
  for part in parts {
    guard let number = parseDecimal(trimmingBlanks(part)), number <= 1 else { return nil }
    numbers.append(number)
  }
  return numbers
}

/// Where the progress bar's value comes from.
public enum ProgressSource: String, CaseIterable, Equatable, Sendable {
  /// `splashctl progress N` (and the psplash and Plymouth clients).
  case client
  /// The time since the first frame against how long the last boot took
  /// (recorded in `durationFile`), as Plymouth does.
  case time
  /// systemd's count of the boot's jobs (the manager's Progress property).
  case systemd
}

/// The progress bar of `source = time`: how far along a boot is that
/// took `expected` seconds last time, `elapsed` seconds after its first
/// frame. Eased out: 90% at `expected`, 99% at twice that; it never
/// reaches 100 (the reveal does).
public func timeProgress(elapsed: Double, expected: Double) -> Double {
  guard expected > 0, elapsed > 0 else { return 0 }
  return min(99.9, 100 * (1 - pow10(-elapsed / expected)))
}

/// The elapsed time at which `timeProgress` reaches `percent` (below 100).
public func timeToReach(_ percent: Double, expected: Double) -> Double {
  let share = min(max(percent, 0), 99.9) / 100
  return -expected * log10(1 - share)
}

private func pow10(_ x: Double) -> Double { exp(x * 2.302_585_092_994_046) }
private func log10(_ x: Double) -> Double { log(x) / 2.302_585_092_994_046 }

/// The `[progress]` section: the progress bar.
public struct ProgressSettings: Equatable, Sendable {
  /// Whether the bar shows from the first frame.
  public var show = false
  /// The starting value, in percent.
  public var value = 0.0
  public var rect = FractionRect(x: 0.30, y: 0.88, width: 0.40, height: 0.012)
  /// The filled part's colour.
  public var color = Color(red: 255, green: 255, blue: 255)
  /// The unfilled part's colour; nil draws no track.
  public var track: Color? = Color(red: 0x40, green: 0x40, blue: 0x40)
  public var source = ProgressSource.client
  /// Where `source = time` keeps how long the last boot took.
  public var durationFile = "/var/lib/splashd/boot-duration"

  public init() {}

  /// The boot `source = time` assumes when none was recorded, in seconds.
  public static let assumedBootSeconds = 20.0
}

/// The `[message]` section: one line of text.
public struct MessageSettings: Equatable, Sendable {
  /// The first message; nil for none.
  public var text: String?
  /// The TrueType or OpenType font.
  public var font = MessageSettings.defaultFont
  /// The text's height as a fraction of the canvas's shorter side.
  public var size = 0.035
  public var color = Color(red: 255, green: 255, blue: 255)
  /// Where the text's centre sits.
  public var center = FractionPoint(x: 0.50, y: 0.82)

  public init() {}

  /// Debian's fonts-dejavu-core.
  public static let defaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
}

/// The `[animation]` section: a picture that loops while the splash holds.
public struct AnimationSettings: Equatable, Sendable {
  /// An animated GIF, or a folder of numbered PNGs; nil for none.
  public var file: String?
  /// Where it plays, keeping its aspect.
  public var rect = FractionRect(x: 0.47, y: 0.70, width: 0.06, height: 0.06)
  /// Frames per second; nil keeps the delays stored in the file (a folder: 30).
  public var fps: Double?

  public init() {}

  /// The most frames an animation may have.
  public static let maxFrames = 600
  /// The most its frames may take decoded, all together, in bytes.
  public static let maxDecodedBytes = 64 << 20
  /// The most its frames may take as prepared for one screen (scaled to
  /// the rectangle they play in), all together, in bytes: a small GIF
  /// stretched over the screen would take gigabytes.
  public static let maxPreparedBytes = 128 << 20
}

extension BootStatus {
  /// The status the settings start with.
  public init(_ settings: Settings) {
    let shown = settings.progress.show || settings.progress.source != .client
    self.init(progress: shown ? settings.progress.value : nil, message: settings.message.text)
  }
}

extension StatusLayout {
  /// Where `settings` put the status layers on `canvas`.
  public init(_ settings: Settings, canvas: PixelSize) {
    self.init(
      canvas: canvas, bar: settings.progress.rect.pixels(in: canvas), barColor: settings.progress.color,
      track: settings.progress.track, textSize: settings.message.size,
      textCenter: (settings.message.center.x, settings.message.center.y),
      animationBox: settings.animation.rect.pixels(in: canvas))
  }
}
