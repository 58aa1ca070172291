// SPDX-License-Identifier: Apache-2.0
/// Where in the machine's life splashd was started (`--boot STAGE`). A boot
/// splash follows the kernel command line; a preview (no `--boot`) does not.
public enum BootStage: String, CaseIterable, Equatable, Sendable {
  /// By the initramfs (initramfs-tools' init-premount script, dracut's
  /// hook): holds until a splashd of the real root adopts it, or its timeout.
  case initramfs
  /// By a unit of the real root (splashd.service, a kiosk unit): adopts the
  /// splash the initramfs started, if one runs.
  case root
  /// By splashd-shutdown.service: shows the shutdown picture until the
  /// machine goes down.
  case shutdown

  /// The kernel command line's word that keeps this stage's splash off
  /// while the others still show.
  public var offWord: String? { self == .initramfs ? "splashd.initramfs=0" : nil }
}

/// What the boot's splash words ask for when the kernel command line has
/// neither `splash` nor `nosplash` (`without-splash-word`).
public enum SplashWordDefault: String, CaseIterable, Equatable, Sendable {
  case show
  case hide
}

/// The kernel command line's say over a boot splash, as Plymouth reads it:
/// `nosplash`, `splashd.enable=0` and `single` keep it off; `splash`
/// shows it; with neither, `without-splash-word` decides.
public enum KernelCommandLineSplash {
  /// Why the splash of `stage` must not show, given the command line
  /// `text`; nil when it may.
  public static func refusal(_ text: String, stage: BootStage, withoutSplashWord: SplashWordDefault) -> String? {
    let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
    let off = ["nosplash", "splashd.enable=0", "single"] + (stage.offWord.map { [$0] } ?? [])
    if let word = off.first(where: words.contains) { return "the kernel command line says \(word)" }
    if words.contains("splash") || withoutSplashWord == .show { return nil }
    return "the kernel command line has no splash word (without-splash-word = hide)"
  }
}
