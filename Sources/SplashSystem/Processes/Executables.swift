// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Finding the programs splashd runs, as a shell would.
public enum Executables {
  /// The executable `name` names: `name` itself when it contains a slash,
  /// else the first executable regular file of that name in `searchPath`
  /// (PATH's form; `/usr/local/bin:/usr/bin:/bin` when unset), like a shell.
  public static func locate(_ name: String, searchPath: String?) -> String? {
    func executable(_ path: String) -> Bool {
      guard case .regular? = try? Files.kind(of: path) else { return false }
      return access(path, X_OK) == 0
    }
    if name.contains("/") { return executable(name) ? name : nil }
    let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(
      separator: ":", omittingEmptySubsequences: false)
    for directory in directories {
      let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
      if executable(candidate) { return candidate }
    }
    return nil
  }

  /// Why `locate` finds no program for `name`: "not found (looked in
  /// PATH)" for a bare name, else what the path is.
  public static func whyNotFound(_ name: String) -> String {
    guard name.contains("/") else { return "not found (looked in PATH)" }
    switch try? Files.kind(of: name) {
    case nil: return "no such file"
    case .directory?: return "is a directory"
    case .other?: return "is not a regular file"
    case .regular?: return "is not executable"
    }
  }
}
