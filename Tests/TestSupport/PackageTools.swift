// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The package's root directory (holds Config/ and tools/).
public let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path

/// Builds one of the QEMU rig's plain C tools (tools/test/qemu/`name`.c: fake
/// devices and helpers, no libraries) into `output`, warnings as errors;
/// throws what gcc said when it fails.
public func buildRigTool(_ name: String, to output: String) throws {
  let built = try run(
    "/usr/bin/gcc", ["-O2", "-Wall", "-Wextra", "-Werror", "-o", output, packageRoot + "/tools/test/qemu/\(name).c"])
  guard built.status == 0 else { throw TestFailure("gcc \(name).c: \(built.stderr)") }
}

/// Builds one of the package's Wayland test clients (`source`, a C file
/// under the package: tools/test/qemu/input-probe.c, say) into `output`, with
/// the glue wayland-scanner makes in `folder` (made once there) of
/// xdg-shell and of `protocols` (their XML files' paths under
/// /usr/share/wayland-protocols: `unstable/linux-dmabuf/linux-dmabuf-unstable-v1.xml`,
/// say) and tools/test/wayland/xdg-client.h, linked with libwayland-client,
/// libm and `libraries` (linker flags: `-lEGL`, say), warnings as errors;
/// throws what the tools said when either fails.
public func buildWaylandClient(
  _ source: String, in folder: String, to output: String, protocols: [String] = [], libraries: [String] = []
) throws {
  var glue: [String] = []
  for xml in ["stable/xdg-shell/xdg-shell.xml"] + protocols {
    let name = URL(fileURLWithPath: xml).deletingPathExtension().lastPathComponent
    for (kind, file) in [("client-header", "\(name)-client-protocol.h"), ("private-code", "\(name)-protocol.c")]
    where !FileManager.default.fileExists(atPath: folder + "/" + file) {
      let made = try run(
        "/usr/bin/wayland-scanner", [kind, "/usr/share/wayland-protocols/" + xml, folder + "/" + file])
      guard made.status == 0 else { throw TestFailure("wayland-scanner \(kind): \(made.stderr)") }
    }
    glue.append(folder + "/\(name)-protocol.c")
  }
  let built = try run(
    "/usr/bin/gcc",
    [
      "-O2", "-Wall", "-Wextra", "-Werror", "-I", folder, "-I", packageRoot + "/tools/test/wayland", "-o", output,
      packageRoot + "/" + source,
    ] + glue + ["-lwayland-client", "-lm"] + libraries)
  guard built.status == 0 else { throw TestFailure("gcc \(source): \(built.stderr)") }
}
