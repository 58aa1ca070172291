// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// What the program's environment holds of splashd's.
@Suite struct ProgramEnvironmentTests {
  let splashd = [
    "PATH": "/usr/bin", "LANG": "de_DE.UTF-8", "LC_MESSAGES": "C", "CREDENTIALS_DIRECTORY": "/run/credentials/s",
    "NOTIFY_SOCKET": "/run/systemd/notify", "RUNTIME_DIRECTORY": "/run/splashd", "API_KEY": "s3cret",
    "WAYLAND_DISPLAY": "wayland-1", "HOME": "/root",
  ]

  @Test func whatSystemdGivesAServiceGoesOnAndNothingElse() {
    let environment = ProgramEnvironment.make(from: splashd)
    #expect(
      environment == [
        "PATH": "/usr/bin", "LANG": "de_DE.UTF-8", "LC_MESSAGES": "C", "WAYLAND_DISPLAY": "wayland-1", "HOME": "/root",
      ])
  }

  @Test func namedVariablesArePassedAndAdditionsWin() {
    let environment = ProgramEnvironment.make(
      from: splashd, passing: ["API_KEY", "NOT_SET"], additions: ["HOME": "/home/kiosk", "NOTIFY_SOCKET": "@own"])
    #expect(environment["API_KEY"] == "s3cret" && environment["NOT_SET"] == nil)
    #expect(environment["HOME"] == "/home/kiosk" && environment["NOTIFY_SOCKET"] == "@own")
    #expect(environment["CREDENTIALS_DIRECTORY"] == nil && environment["RUNTIME_DIRECTORY"] == nil)
  }

  /// What is said at the start: splashd's variables the program does not
  /// get, but for what the service manager set for splashd alone.
  @Test func whatIsWithheldIsNamedButForTheServiceManagers() {
    let withheld = ProgramEnvironment.withheld(
      from: splashd.merging(["QT_QPA_PLATFORM": "wayland", "MONITOR_UNIT": "x"]) { $1 }, passing: ["API_KEY"])
    #expect(withheld == ["QT_QPA_PLATFORM"])
  }

  @Test(arguments: [("KEEP_ME", true), ("_x9", true), ("9LIVES", false), ("A-B", false), ("", false), ("Ä", false)])
  func onlyNamesAreNames(name: String, valid: Bool) {
    #expect(ProgramEnvironment.isName(name) == valid)
  }
}
