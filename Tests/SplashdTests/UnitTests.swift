// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashTestSupport
import Testing

/// The systemd units in systemd/, checked by systemd-analyze against a
/// root that holds the built splashd and the host's own units.
@Suite struct UnitTests {
  @Test(arguments: [
    "splashd.service", "splashd-initrd.service", "splashd-shutdown.service", "kiosk-with-splash.service",
    "kiosk-revealed-by-splashctl.service", "splashd-ask-password.path", "splashd-ask-password.service",
  ])
  func systemdAnalyzeVerifyPasses(unit: String) throws {
    let analyze = "/usr/bin/systemd-analyze"
    guard FileManager.default.isExecutableFile(atPath: analyze) else {
      throw TestFailure("systemd-analyze is missing: apt-get install systemd (make test installs it)")
    }
    let dir = try TemporaryDirectory()
    let root = dir.path + "/root"
    let fm = FileManager.default
    try fm.createDirectory(atPath: root + "/usr/bin", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/usr/lib/systemd", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/etc/systemd/system", withIntermediateDirectories: true)
    try fm.copyItem(atPath: "/usr/lib/systemd/system", toPath: root + "/usr/lib/systemd/system")
    try fm.copyItem(atPath: splashdPath, toPath: root + "/usr/bin/splashd")
    try fm.copyItem(atPath: splashctlPath, toPath: root + "/usr/bin/splashctl")
    // What splashd-ask-password.service runs: systemd's own agent, from the host's systemd.
    try fm.copyItem(
      atPath: "/usr/bin/systemd-tty-ask-password-agent", toPath: root + "/usr/bin/systemd-tty-ask-password-agent")
    writeFile(atPath: root + "/usr/bin/kiosk-app", contents: Data("#!/bin/sh\n".utf8))
    chmod(root + "/usr/bin/kiosk-app", 0o755)
    try fm.copyItem(atPath: packageRoot + "/systemd/" + unit, toPath: root + "/etc/systemd/system/" + unit)
    let outcome = try run(
      analyze, ["verify", "--root=\(root)", unit], environment: ProcessInfo.processInfo.environment)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    // Nothing said about our unit (warnings such as unknown keys exit 0 too).
    let ours = (outcome.stdout + outcome.stderr).split(separator: "\n").filter { $0.contains(unit) }
    #expect(ours.isEmpty, "\(ours)")
  }
}
