// SPDX-License-Identifier: Apache-2.0
/// The environment the kiosk program runs with, however it starts (in
/// splashd's place, spawned first, hosted, after a crash): not splashd's
/// whole environment, which holds what was meant for splashd alone (its
/// unit's credentials and directories, systemd's notify socket, whatever
/// secrets its unit was given), but what systemd gives a service (the
/// path, the locale, the terminal, the unit's journal stream), what a
/// desktop session gives a program (its display and bus), what the
/// program's user makes (`HOME`, `USER`, …, its runtime directory), the
/// names `pass-environment` lists, then what splashd adds
/// (`SPLASHD_ROTATION`, its own NOTIFY_SOCKET, host mode's display).
public enum ProgramEnvironment {
  /// The names the program always gets from splashd's environment.
  public static let kept: Set<String> = [
    // What systemd gives every service.
    "PATH", "LANG", "LANGUAGE", "TERM", "INVOCATION_ID", "JOURNAL_STREAM",
    // What the program's user has (its own replace them when it has one).
    "HOME", "USER", "LOGNAME", "SHELL", "XDG_RUNTIME_DIR", "TZ",
    // A desktop session's display and bus (a preview in a window).
    "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "XDG_SEAT", "XDG_VTNR",
    "DBUS_SESSION_BUS_ADDRESS",
    // splashctl's control socket, for a program that reveals the splash.
    "SPLASHD_CONTROL",
  ]

  /// Whether the program gets `name` of splashd's environment without
  /// being told: one of `kept`, or the locale's `LC_*`.
  public static func keeps(_ name: String) -> Bool { kept.contains(name) || name.hasPrefix("LC_") }

  /// The program's environment: of `splashd`'s, what it always gets
  /// (`keeps`) and the names `passing` lists; then `additions` over them.
  public static func make(
    from splashd: [String: String], passing names: [String] = [], additions: [String: String] = [:]
  ) -> [String: String] {
    let passed = Set(names)
    var environment = splashd.filter { keeps($0.key) || passed.contains($0.key) }
    environment.merge(additions) { _, added in added }
    return environment
  }

  /// What systemd's service manager sets for splashd itself (systemd.exec(5)):
  /// never the program's, and not worth a word when it does not get them.
  public static let serviceManagers: Set<String> = [
    "NOTIFY_SOCKET", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "MAINPID", "MANAGERPID", "WATCHDOG_PID",
    "WATCHDOG_USEC", "CREDENTIALS_DIRECTORY", "RUNTIME_DIRECTORY", "STATE_DIRECTORY", "CACHE_DIRECTORY",
    "LOGS_DIRECTORY", "CONFIGURATION_DIRECTORY", "SYSTEMD_EXEC_PID", "MEMORY_PRESSURE_WATCH", "MEMORY_PRESSURE_WRITE",
    "FDSTORE", "LOG_NAMESPACE", "PIDFILE", "SERVICE_RESULT", "EXIT_CODE", "EXIT_STATUS", "REMOTE_ADDR", "REMOTE_PORT",
  ]

  /// The names in `splashd`'s environment the program does not get, but
  /// for what the service manager set for splashd alone: what an integrator
  /// may have meant for the program (a unit's `Environment=QT_QPA_PLATFORM=`),
  /// to be named by `pass-environment`. In order.
  public static func withheld(from splashd: [String: String], passing names: [String] = []) -> [String] {
    let passed = Set(names)
    return splashd.keys.filter {
      !keeps($0) && !passed.contains($0) && !serviceManagers.contains($0) && !$0.hasPrefix("TRIGGER_")
        && !$0.hasPrefix("MONITOR_")
    }.sorted()
  }

  /// Whether `name` may name an environment variable (what the settings
  /// take for `pass-environment`): letters, digits and `_`, not a digit
  /// first.
  public static func isName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy {
      ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
    }
  }
}
