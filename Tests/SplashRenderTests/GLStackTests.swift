// SPDX-License-Identifier: Apache-2.0
import CSDL2
import Foundation
import SplashCore
import SplashRender
import SplashTestSupport
import Testing

// SDL_image initialises its PNG codec lazily and not thread-safely: one render at a time.

/// `auto` passes over SDL's KMSDRM when the GL stack it loads is not installed.
@Suite struct GLStackTests {
  @Test func eachMissingPieceIsNamedAndAllPresentIsNone() throws {
    let root = try TemporaryDirectory()
    let lib = SDLKMSOutput.libraryDirectories[0]
    #expect(SDLKMSOutput.missingGLStack(under: root.path) == "no libEGL.so.1 (Debian's libegl1)")
    try FileManager.default.createDirectory(atPath: root.path + lib + "/dri", withIntermediateDirectories: true)
    _ = root.file(String(lib.dropFirst()) + "/libEGL.so.1", "")
    #expect(SDLKMSOutput.missingGLStack(under: root.path) == "no libgbm.so.1 (libgbm1)")
    _ = root.file(String(lib.dropFirst()) + "/libgbm.so.1", "")
    #expect(SDLKMSOutput.missingGLStack(under: root.path) == "no Mesa DRI driver (libgl1-mesa-dri)")
    _ = root.file(String(lib.dropFirst()) + "/dri/kms_swrast_dri.so", "")
    #expect(SDLKMSOutput.missingGLStack(under: root.path) == nil)
  }
}
