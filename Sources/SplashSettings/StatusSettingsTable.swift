// SPDX-License-Identifier: Apache-2.0
import SplashCore

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
        + "moves it.", unset: "0, the bar hidden", field: \.progress.value,
      parse: { settings, value in
        guard let percent = parseDecimal(value.text), percent <= 100 else { throw value.fail("a number from 0 to 100") }
        settings.progress.value = percent
        settings.progress.show = true
      }, show: { $0.progress.show ? formatNumber($0.progress.value) : nil }),
    SettingSpec(
      "progress-show", .progress, .fileOnly(placeholder: "yes|no"), .status, file: "show",
      help: "Shows the progress bar from the first frame (a value from a client shows it anyway).",
      values: ["yes", "no"], \.progress.show, read: { try $0.yesOrNo() }, print: { $0 ? "yes" : "no" }),
    SettingSpec(
      "progress-rect", .progress, .option(placeholder: "X,Y,W,H"), .status, file: "rect",
      help: "Where the bar goes, as fractions of the logical canvas (it turns with the picture); it fills from "
        + "the left.", \.progress.rect, read: { try $0.fractionRect() }, print: { $0.description }),
    SettingSpec(
      "progress-color", .progress, .option(placeholder: "#RRGGBB"), .status, file: "color",
      help: "The colour of the filled part.", \.progress.color, read: { try $0.color() }, print: { $0.hex }),
    SettingSpec(
      "progress-track", .progress, .option(placeholder: "#RRGGBB|none"), .status, file: "track",
      help: "The colour of the unfilled part; none draws nothing there.", field: \.progress.track,
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
      values: ProgressSource.allCases.map(\.rawValue), \.progress.source, read: { try $0.choice(ProgressSource.self) },
      print: { $0.rawValue }),
    SettingSpec(
      "progress-duration-file", .progress, .option(placeholder: "FILE"), .status, file: "duration-file",
      help: "Where source = time keeps how long the boot took (written at the reveal, atomically; a file that "
        + "cannot be written costs a log line).", \.progress.durationFile, read: { try $0.path() },
      print: { quotedForFile($0) }),
  ]

  private static let message: [SettingSpec] = [
    SettingSpec(
      "message", .message, .option(placeholder: "TEXT"), .status, file: "text",
      help: "The first message, one line of UTF-8 text under the picture (cut with \"…\" when wider than 90% of "
        + "the canvas); `splashctl message TEXT` changes it. In the config file \" ;\" starts a comment.",
      field: \.message.text,
      parse: { settings, value in
        let text = value.text
        guard !text.isEmpty, text.utf8.count <= BootStatus.maxMessageBytes, !text.contains(where: \.isNewline) else {
          throw value.fail("one line of text of at most \(BootStatus.maxMessageBytes) bytes")
        }
        settings.message.text = text
      }, show: { $0.message.text.map(quotedForFile) }),
    SettingSpec(
      "message-font", .message, .option(placeholder: "FILE"), .status, file: "font",
      help: "The message's TrueType or OpenType font.", \.message.font, read: { try $0.path() },
      print: { quotedForFile($0) }),
    SettingSpec(
      "message-size", .message, .option(placeholder: "FRACTION"), .status, file: "size",
      help: "The text's height as a fraction of the canvas's shorter side.", field: \.message.size,
      parse: { settings, value in
        settings.message.size = try value.positiveDecimal(upTo: 0.5, expected: "a fraction above 0, at most 0.5")
      }, show: { formatNumber($0.message.size) }),
    SettingSpec(
      "message-color", .message, .option(placeholder: "#RRGGBB"), .status, file: "color", help: "The text's colour.",
      \.message.color, read: { try $0.color() }, print: { $0.hex }),
    SettingSpec(
      "message-center", .message, .option(placeholder: "X,Y"), .status, file: "center",
      help: "Where the text's centre sits, as fractions of the logical canvas.", field: \.message.center,
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
        + "\(AnimationSettings.maxDecodedBytes >> 20) MiB decoded.", \.animation.file, read: { try $0.path() },
      print: { $0.map(quotedForFile) }),
    SettingSpec(
      "animation-rect", .animation, .option(placeholder: "X,Y,W,H"), .status, file: "rect",
      help: "Where the animation plays, as fractions of the logical canvas; it keeps its aspect inside.",
      \.animation.rect, read: { try $0.fractionRect() }, print: { $0.description }),
    SettingSpec(
      "animation-fps", .animation, .option(placeholder: "N"), .status, file: "fps",
      help: "The animation's frames per second.", unset: "the delays stored in a GIF; 30 for a folder",
      field: \.animation.fps,
      parse: { settings, value in
        settings.animation.fps = try value.positiveDecimal(
          upTo: 240, expected: "frames per second above 0, at most 240")
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
