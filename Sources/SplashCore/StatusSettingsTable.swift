// SPDX-License-Identifier: Apache-2.0
/// The settings of the status layers drawn over the picture: the progress
/// bar, the message line and the animation, each in its own section. On
/// the command line each is `--SECTION-KEY` (`--message-font`), and the
/// section's main value is the section's name (`--progress 40`,
/// `--message TEXT`, `--animation FILE`).
enum StatusSettingsTable {
  static let all: [SettingSpec] = progress + message + animation

  private static let progress: [SettingSpec] = [
    SettingSpec(
      "progress", .progress, .option(placeholder: "PERCENT"), .status, file: "value",
      help: "Shows the progress bar from the first frame, at this value (0 to 100); `splashctl progress N` "
        + "moves it.",
      default: "0, the bar hidden",
      parse: { settings, value in
        guard let percent = parseDecimal(value.text), percent <= 100 else { throw value.fail("a number from 0 to 100") }
        settings.progress.value = percent
        settings.progress.show = true
      }, show: { $0.progress.show ? formatNumber($0.progress.value) : nil }),
    SettingSpec(
      "progress-show", .progress, .fileOnly(placeholder: "yes|no"), .status, file: "show",
      help: "Shows the progress bar from the first frame (a value from a client shows it anyway).", default: "no",
      values: ["yes", "no"], parse: { $0.progress.show = try $1.yesOrNo() },
      show: { $0.progress.show ? "yes" : "no" }),
    SettingSpec(
      "progress-rect", .progress, .option(placeholder: "X,Y,W,H"), .status, file: "rect",
      help: "Where the bar goes, as fractions of the logical canvas (it turns with the picture); it fills from "
        + "the left.",
      default: "0.3, 0.88, 0.4, 0.012", parse: { $0.progress.rect = try $1.fractionRect() },
      show: { $0.progress.rect.description }),
    SettingSpec(
      "progress-color", .progress, .option(placeholder: "#RRGGBB"), .status, file: "color",
      help: "The colour of the filled part.", default: "#FFFFFF", parse: { $0.progress.color = try $1.color() },
      show: { $0.progress.color.hex }),
    SettingSpec(
      "progress-track", .progress, .option(placeholder: "#RRGGBB|none"), .status, file: "track",
      help: "The colour of the unfilled part; none draws nothing there.", default: "#404040",
      parse: { settings, value in
        settings.progress.track = value.text == "none" ? nil : try value.color(orElse: "#RRGGBB, #RGB or none")
      }, show: { $0.progress.track?.hex ?? "none" }),
    SettingSpec(
      "progress-source", .progress, .option(placeholder: "SOURCE"), .status, file: "source",
      help: "Where the bar's value comes from: client (splashctl progress N); systemd: the share of the boot's "
        + "jobs systemd has done (its Progress property over sd-bus, read as each job ends; never backwards); "
        + "time: the time since the first "
        + "frame against how long the last boot took from its first frame to its reveal (kept in the duration "
        + "file; 90% at that time, 100% only at the reveal; \(formatNumber(ProgressSettings.assumedBootSeconds)) s "
        + "when none is recorded). A client's value shows until the source's next.",
      default: "client", values: ProgressSource.allCases.map(\.rawValue),
      parse: { $0.progress.source = try $1.choice(ProgressSource.self) }, show: { $0.progress.source.rawValue }),
    SettingSpec(
      "progress-duration-file", .progress, .option(placeholder: "FILE"), .status, file: "duration-file",
      help: "Where source = time keeps how long the boot took (written at the reveal, atomically; a file that "
        + "cannot be written costs a log line).",
      default: "/var/lib/splashd/boot-duration", parse: { $0.progress.durationFile = try $1.path() },
      show: { $0.progress.durationFile }),
  ]

  private static let message: [SettingSpec] = [
    SettingSpec(
      "message", .message, .option(placeholder: "TEXT"), .status, file: "text",
      help: "The first message, one line of UTF-8 text under the picture (cut with \"…\" when wider than 90% of "
        + "the canvas); `splashctl message TEXT` changes it. In the config file \" ;\" starts a comment.",
      parse: { settings, value in
        let text = value.text
        guard !text.isEmpty, text.utf8.count <= BootStatus.maxMessageBytes, !text.contains(where: \.isNewline) else {
          throw value.fail("one line of text of at most \(BootStatus.maxMessageBytes) bytes")
        }
        settings.message.text = text
      }, show: { $0.message.text.map(quotedForFile) }),
    SettingSpec(
      "message-font", .message, .option(placeholder: "FILE"), .status, file: "font",
      help: "The message's TrueType or OpenType font.", default: MessageSettings.defaultFont,
      parse: { $0.message.font = try $1.path() }, show: { $0.message.font }),
    SettingSpec(
      "message-size", .message, .option(placeholder: "FRACTION"), .status, file: "size",
      help: "The text's height as a fraction of the canvas's shorter side.", default: "0.035",
      parse: { settings, value in
        guard let size = parseDecimal(value.text), size > 0, size <= 0.5 else {
          throw value.fail("a fraction above 0, at most 0.5")
        }
        settings.message.size = size
      }, show: { formatNumber($0.message.size) }),
    SettingSpec(
      "message-color", .message, .option(placeholder: "#RRGGBB"), .status, file: "color",
      help: "The text's colour.", default: "#FFFFFF", parse: { $0.message.color = try $1.color() },
      show: { $0.message.color.hex }),
    SettingSpec(
      "message-center", .message, .option(placeholder: "X,Y"), .status, file: "center",
      help: "Where the text's centre sits, as fractions of the logical canvas.", default: "0.5, 0.82",
      parse: { settings, value in
        guard let point = FractionPoint(value.text) else {
          throw value.fail("two fractions from 0 to 1, X and Y, such as \"0.5, 0.82\"")
        }
        settings.message.center = point
      }, show: { $0.message.center.description }),
  ]

  private static let animation: [SettingSpec] = [
    SettingSpec(
      "animation", .animation, .option(placeholder: "FILE|DIR"), .status, file: "file",
      help: "A picture that loops while the splash holds: an animated GIF, or a folder of numbered PNGs (1.png, "
        + "2.png, ... in the order of their numbers); at most \(AnimationSettings.maxFrames) frames and "
        + "\(AnimationSettings.maxDecodedBytes >> 20) MiB decoded.",
      parse: { $0.animation.file = try $1.path() }, show: { $0.animation.file }),
    SettingSpec(
      "animation-rect", .animation, .option(placeholder: "X,Y,W,H"), .status, file: "rect",
      help: "Where the animation plays, as fractions of the logical canvas; it keeps its aspect inside.",
      default: "0.47, 0.7, 0.06, 0.06", parse: { $0.animation.rect = try $1.fractionRect() },
      show: { $0.animation.rect.description }),
    SettingSpec(
      "animation-fps", .animation, .option(placeholder: "N"), .status, file: "fps",
      help: "The animation's frames per second.", default: "the delays stored in a GIF; 30 for a folder",
      parse: { settings, value in
        guard let fps = parseDecimal(value.text), fps > 0, fps <= 240 else {
          throw value.fail("frames per second above 0, at most 240")
        }
        settings.animation.fps = fps
      }, show: { $0.animation.fps.map(formatNumber) }),
  ]
}

extension SettingValue {
  /// A colour, `#RRGGBB` or `#RGB`.
  public func color(orElse expected: String = "#RRGGBB or #RGB") throws(SettingsError) -> Color {
    guard let color = Color(hex: text) else { throw fail(expected) }
    return color
  }

  /// A rectangle as fractions of the canvas, inside it and not empty.
  public func fractionRect() throws(SettingsError) -> FractionRect {
    guard let rect = FractionRect(text) else {
      throw fail(
        "X, Y, W, H as fractions of the canvas, such as \"0.3, 0.88, 0.4, 0.012\": each from 0 to 1, W and H "
          + "above 0, X+W and Y+H at most 1")
    }
    return rect
  }
}
