// SPDX-License-Identifier: Apache-2.0
import CPNG
import CSDL2
import CSDL2Image

/// The versions of the libraries splashd runs with (those loaded now, and
/// the SDL2 it was built against), for `--version`: "SDL2 2.26.5, SDL2_image
/// 2.6.3, libpng 1.6.39".
public func libraryVersions() -> String {
  var linked = SDL_version()
  SDL_GetVersion(&linked)
  let image = IMG_Linked_Version().pointee
  let png = png_access_version_number()
  func text(_ v: SDL_version) -> String { "\(v.major).\(v.minor).\(v.patch)" }
  let built = SDL_version(
    major: UInt8(SDL_MAJOR_VERSION), minor: UInt8(SDL_MINOR_VERSION), patch: UInt8(SDL_PATCHLEVEL))
  let builtNote = text(built) == text(linked) ? "" : " (built with \(text(built)))"
  return
    "SDL2 \(text(linked))\(builtNote), SDL2_image \(text(image)), libpng \(png / 10000).\(png / 100 % 100).\(png % 100)"
}
