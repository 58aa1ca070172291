// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings

/// The manual pages, splashd(8), splashd.conf(5) and splashctl(1), as
/// roff (the man macros), made from the settings table and splashctl's
/// commands, so that the options, defaults and config keys they document
/// are always the ones the code takes.
public enum Manual {
  /// splashd(8).
  public static func splashd(backEnds: [BackEndHelp]) -> String {
    var out = header("SPLASHD", 8, "System Manager's Manual")
    out += section("NAME") + "splashd \\- boot splash for kiosks and embedded displays\n"
    out += section("SYNOPSIS") + ".B splashd\n[\\fIOPTIONS\\fR] [\\fB\\-\\-\\fR \\fIPROGRAM\\fR [\\fIARGS\\fR...]]\n"
    out += section("DESCRIPTION") + paragraph(Usage.intro)
    out += paragraph(
      "Settings come from the config file (see splashd.conf(5)), then from the options, which override it. "
        + "splashctl(1) talks to a running splash over its control socket.")
    out += section("OPTIONS")
    for group in SettingGroup.allCases where group != .orientation {
      out += ".SS \(escaped(group.rawValue))\n"
      for spec in SettingsTable.all where spec.group == group && spec.onCommandLine {
        out += item(option(spec.key, spec.form.placeholder), spec.help, spec.defaultText)
        if spec.key == "display" {
          out += ".RS\n"
          for backEnd in backEnds { out += item("\\fB\(escaped(backEnd.name))\\fR", backEnd.help, nil) }
          out += ".RE\n"
        }
      }
    }
    out += ".SS Other\n"
    for action in CommandLineAction.allCases {
      let short = action.shortName.map { "\\fB\(escaped($0))\\fR, " } ?? ""
      out += item(short + option(action.rawValue, action.placeholder), action.help, action.defaultText)
    }
    out += paragraph("Options take their value as the next argument or after \"=\" (--hold=2).")
    out += section("EXIT STATUS") + paragraph(Usage.exitStatus)
    out += section("ENVIRONMENT")
    out += item(
      "\\fBSPLASHD_ROTATION\\fR", "Given to the PROGRAM: the angle the splash was shown at, in degrees.", nil)
    out += item(
      "\\fBNOTIFY_SOCKET\\fR", "Set by systemd for Type=notify: READY=1 once the first frame is shown.", nil)
    out += item("\\fBPSPLASH_FIFO_DIR\\fR", "Where compat = psplash makes psplash_fifo (default /run).", nil)
    out += section("FILES")
    out += item("\\fI/etc/splashd/splashd.conf\\fR", "The config file read when no --config is given.", nil)
    let cache = SplashSettings.defaultCache.map { "\\fI\(escaped($0))\\fR" }.joined(separator: ", ")
    out += item(cache, "The prepared-picture cache (--cache).", nil)
    out += item("\\fI\(escaped(SplashctlUsage.defaultControl))\\fR", "The control socket of splashd.service.", nil)
    out += item(
      "\\fI/etc/splashd/initramfs.conf\\fR",
      "Read by the initramfs-tools hook and the dracut module if it exists: SPLASHD_INITRAMFS=no leaves splashd "
        + "out of the initramfs, "
        + "SPLASHD_DISPLAY_MODULES names display drivers to add besides the machine's own.", nil)
    out += item(
      "\\fI/usr/share/initramfs-tools/hooks/splashd\\fR, \\fI/usr/share/initramfs-tools/scripts/init-premount/splashd\\fR",
      "Put splashd, its config and pictures in the initramfs and start it there (--boot initramfs); "
        + "update-initramfs -u after changing them.", nil)
    out += item(
      "\\fI/usr/lib/dracut/modules.d/90splashd/\\fR",
      "dracut's module: the same files in a systemd initramfs, and splashd-initrd.service to start it there; "
        + "dracut -f after changing them.", nil)
    out +=
      section("SEE ALSO")
      + "splashctl(1), splashd.conf(5), systemd.service(5), update-initramfs(8), dracut(8)\n"
    return out
  }

  /// splashd.conf(5).
  public static func config() -> String {
    var out = header("SPLASHD.CONF", 5, "File Formats Manual")
    out += section("NAME") + "splashd.conf \\- splashd's configuration file\n"
    out += section("SYNOPSIS") + ".I /etc/splashd/splashd.conf\n"
    out += section("DESCRIPTION") + paragraph(Usage.configIntro)
    for section in SettingsSection.allCases {
      out += ".SH \"[\(escaped(section.rawValue))]\"\n"
      for spec in SettingsTable.specs(in: section) {
        let label = "\\fB\(escaped(spec.fileKey))\\fR = \\fI\(escaped(spec.form.placeholder ?? "yes|no"))\\fR"
        let option = spec.onCommandLine ? " (--\(spec.key))" : " (config file only)"
        out += item(label, spec.help + option, spec.defaultText)
      }
    }
    out += ".SH \"[\(escaped(ScreenSettingsTable.sectionPrefix))NAME]\"\n" + paragraph(Usage.screenIntro)
    for spec in ScreenSettingsTable.all {
      out += item("\\fB\(escaped(spec.key))\\fR = \\fI\(escaped(spec.placeholder))\\fR", spec.help, nil)
    }
    out += section("SEE ALSO") + "splashd(8), splashctl(1)\n"
    return out
  }

  /// splashctl(1).
  public static func splashctl() -> String {
    var out = header("SPLASHCTL", 1, "User Commands")
    out += section("NAME") + "splashctl \\- control a running splashd\n"
    out += section("SYNOPSIS") + ".B splashctl\n[\\fB\\-\\-control\\fR \\fIPATH\\fR] \\fICOMMAND\\fR\n"
    out += section("DESCRIPTION") + paragraph(SplashctlUsage.intro)
    out += section("COMMANDS")
    for command in SplashctlUsage.commands {
      let argument = command.argument.map { " \\fI\(escaped($0))\\fR" } ?? ""
      out += item("\\fB\(escaped(command.name))\\fR" + argument, command.help, nil)
    }
    out += section("OPTIONS")
    for (label, help) in SplashctlUsage.options {
      let words = label.split(separator: " ").map { word in
        word.hasPrefix("-") ? "\\fB\(escaped(String(word)))\\fR" : "\\fI\(escaped(String(word)))\\fR"
      }
      out += item(words.joined(separator: " "), help, nil)
    }
    out += section("EXIT STATUS") + paragraph(SplashctlUsage.exitStatus)
    out += section("ENVIRONMENT")
    out += item("\\fBSPLASHD_CONTROL\\fR", "The control socket, when --control is not given.", nil)
    out += section("SEE ALSO") + "splashd(8), splashd.conf(5)\n"
    return out
  }

  private static func header(_ name: String, _ section: Int, _ title: String) -> String {
    ".\\\" Made by splashd-docs from splashd's settings table; do not edit.\n"
      + ".TH \(name) \(section) \"\" \"splashd \(splashdVersion)\" \"\(title)\"\n"
  }

  private static func section(_ name: String) -> String { ".SH \(name)\n" }

  private static func paragraph(_ text: String) -> String { ".PP\n" + escaped(text) + "\n" }

  /// A tagged paragraph: `label` (roff already), then the text.
  private static func item(_ label: String, _ help: String, _ defaultText: String?) -> String {
    let text = help + (defaultText.map { " Default: \($0)." } ?? "")
    return ".TP\n\(label)\n\(escaped(text))\n"
  }

  /// `--key PLACEHOLDER` in bold and italics.
  private static func option(_ key: String, _ placeholder: String?) -> String {
    "\\fB\\-\\-\(escaped(key))\\fR" + (placeholder.map { " \\fI\(escaped($0))\\fR" } ?? "")
  }

  /// Text safe in roff: backslashes escaped, hyphens made minus signs (as
  /// options are typed), other than ASCII by name, a line never starting
  /// with a control character.
  static func escaped(_ text: String) -> String {
    var out = ""
    var lineStart = true
    for character in text {
      if lineStart && (character == "." || character == "'") { out += "\\&" }
      switch character {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case _ where !character.isASCII:
        // groff reads bytes: other characters by their Unicode names (\[u2026] is "…").
        for scalar in character.unicodeScalars {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
      default: out.append(character)
      }
      lineStart = character == "\n"
    }
    return out
  }
}
