// SPDX-License-Identifier: Apache-2.0
import SplashWaylandHost
import Testing

/// The keyboard layout host mode compiles: Debian's /etc/default/keyboard,
/// overridden name by name by xkbcommon's XKB_DEFAULT_* variables.
@Suite struct KeyboardLayoutTests {
  /// keyboard-configuration's file as Debian writes it.
  static let debianFile = """
    # KEYBOARD CONFIGURATION FILE

    # Consult the keyboard(5) manual page.

    XKBMODEL="pc105"
    XKBLAYOUT="de"
    XKBVARIANT="nodeadkeys"
    XKBOPTIONS=""

    BACKSPACE="guess"
    """

  @Test func theMachinesFileGivesTheNames() {
    let layout = KeyboardLayout(defaultKeyboard: Self.debianFile, environment: [:])
    #expect(layout == KeyboardLayout(model: "pc105", layout: "de", variant: "nodeadkeys"))
    #expect(layout.description == "model pc105, layout de, variant nodeadkeys")
  }

  @Test func theEnvironmentOverridesNameByName() {
    let layout = KeyboardLayout(
      defaultKeyboard: Self.debianFile,
      environment: ["XKB_DEFAULT_LAYOUT": "fr", "XKB_DEFAULT_OPTIONS": "ctrl:nocaps", "XKB_DEFAULT_RULES": "evdev"])
    #expect(
      layout
        == KeyboardLayout(rules: "evdev", model: "pc105", layout: "fr", variant: "nodeadkeys", options: "ctrl:nocaps"))
  }

  @Test func singleQuotesUnquotedValuesAndBlanksAreRead() {
    let layout = KeyboardLayout(
      defaultKeyboard: "  XKBLAYOUT='gb'\t\nXKBVARIANT=extd\n# XKBMODEL=\"x\"\nnot an assignment\n=odd\n",
      environment: [:])
    #expect(layout == KeyboardLayout(layout: "gb", variant: "extd"))
  }

  @Test func noFileAndNoVariablesIsXkbcommonsDefault() {
    let layout = KeyboardLayout(defaultKeyboard: nil, environment: ["XKB_DEFAULT_LAYOUT": ""])
    #expect(layout == KeyboardLayout())
    #expect(layout.description == "xkbcommon's default")
  }
}
