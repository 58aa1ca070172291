// SPDX-License-Identifier: Apache-2.0
import CLinux

/// Facts about this build.
public enum Build {
  /// The git commit it was built from (`make` passes it), nil when it was
  /// not built from git.
  public static var commit: String? {
    let commit = String(cString: splashd_build_commit())
    return commit.isEmpty ? nil : commit
  }

  /// "0.1.0", or "0.1.0 (git 85e8add)".
  public static func version(_ version: String) -> String {
    commit.map { "\(version) (git \($0))" } ?? version
  }
}
