#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the trimmed, static SDL2, SDL2_image and SDL2_ttf (with FreeType)
# that splashd links, from Debian's own source packages (bookworm's libsdl2,
# libsdl2-image, libsdl2-ttf and freetype, Debian's patches applied):
#
#     tools/build-sdl.sh DIR
#
# Installs them into DIR/<versions>-<a hash of this script and of
# debian-source-build.sh, which it shares with its twin>/ and points
# DIR/current at it; make builds against DIR/current/lib/pkgconfig. A build
# already there for the same script is used as it is (no network); another
# version of this script builds afresh. Takes ~2 min on two cores.
#
# What is trimmed: SDL's audio, joystick, haptic, HIDAPI, sensor, power, D-Bus,
# input-method and udev support (splashd uses video and events only). What is
# loaded when first used instead of at every start: X11, Wayland (and
# libdecor), KMSDRM (libdrm, GBM), EGL and GL, and SDL_image's JPEG, TIFF and
# WebP libraries. PNG is linked (splashd links libpng itself). SDL's symbols
# stay inside splashd (hidden). The message's text: SDL2_ttf without
# HarfBuzz, on a FreeType with the outline formats of today's fonts alone
# (TrueType, CFF/OpenType, WOFF; no bitmap, Type 1 or SVG fonts), with no
# bzip2, PNG or Brotli behind it and the zlib libpng maps anyway, so that a
# splash showing text maps no library more than one without.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: tools/build-sdl.sh DIR" >&2
  exit 2
fi
. "$(dirname "$0")/debian-source-build.sh"
source_build_start "$0" "$1"
debian_sources bookworm
apt-get "${apt_options[@]}" update -qq
(cd "$src" && apt-get "${apt_options[@]}" source -qq --download-only libsdl2 libsdl2-image libsdl2-ttf freetype)
sdl_dsc=$(ls "$src"/libsdl2_*.dsc)
image_dsc=$(ls "$src"/libsdl2-image_*.dsc)
ttf_dsc=$(ls "$src"/libsdl2-ttf_*.dsc)
freetype_dsc=$(ls "$src"/freetype_*.dsc)
version() { basename "$1" .dsc | cut -d_ -f2; }
versions="sdl2-$(version "$sdl_dsc")-image-$(version "$image_dsc")-ttf-$(version "$ttf_dsc")"
prefix="$root/$versions-$script_hash"
rm -rf "$prefix"
# apt checked the files against the archive's signed index; dpkg-source
# would also check the uploader's signature, with a keyring not installed.
for dsc in "$sdl_dsc" "$image_dsc" "$ttf_dsc" "$freetype_dsc"; do
  dpkg-source -x "$dsc" "$src/$(basename "$dsc" | cut -d_ -f1 | sed 's/^lib//')" > "$src/unpack.log" 2>&1 \
    || { cat "$src/unpack.log" >&2; exit 1; }
done
jobs=$(nproc)
# DECLSPEC empty: SDL's functions are not exported from splashd. No -g: the
# archives are a quarter the size. Each function in a section of its own, so
# that the link can lay out what a start runs together (tools/text-order.txt).
export CFLAGS="-O2 -DDECLSPEC= -ffunction-sections"

echo "build-sdl.sh: SDL2 ($(basename "$sdl_dsc" .dsc)), trimmed and static, into $prefix"
(
  cd "$src/sdl2"
  ./configure --prefix="$prefix" --disable-shared --enable-static --with-pic --disable-rpath \
    --disable-audio --disable-libsamplerate --disable-joystick --disable-haptic --disable-hidapi --disable-sensor \
    --disable-power --disable-dbus --disable-ime --disable-ibus --disable-fcitx --disable-libudev \
    --disable-video-vulkan --disable-video-rpi --disable-video-vivante --disable-video-directfb \
    --enable-video-x11 --enable-x11-shared --enable-video-wayland --enable-wayland-shared \
    --enable-libdecor-shared --enable-video-kmsdrm --enable-kmsdrm-shared > "$src/sdl2.log" 2>&1 \
    || { tail -30 "$src/sdl2.log" >&2; exit 1; }
  make -j"$jobs" >> "$src/sdl2.log" 2>&1 && make install >> "$src/sdl2.log" 2>&1 \
    || { tail -30 "$src/sdl2.log" >&2; exit 1; }
)

echo "build-sdl.sh: SDL2_image ($(basename "$image_dsc" .dsc)), static, into $prefix"
(
  cd "$src/sdl2-image"
  # Debian's source leaves configure to be generated, as its own build does.
  AUTOMAKE="automake --foreign" autoreconf -fi > "$src/sdl2-image.log" 2>&1
  # PKG_CONFIG: Debian's sdl2-config finds the library through pkg-config.
  PKG_CONFIG=pkg-config PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ./configure --prefix="$prefix" \
    --disable-shared --enable-static --with-pic --with-sdl-prefix="$prefix" \
    --disable-stb-image --disable-avif --disable-jxl --disable-svg --enable-png --disable-png-shared \
    --enable-jpg --enable-jpg-shared --enable-tif --enable-tif-shared --enable-webp --enable-webp-shared \
    >> "$src/sdl2-image.log" 2>&1 || { tail -30 "$src/sdl2-image.log" >&2; exit 1; }
  make -j"$jobs" >> "$src/sdl2-image.log" 2>&1 && make install >> "$src/sdl2-image.log" 2>&1 \
    || { tail -30 "$src/sdl2-image.log" >&2; exit 1; }
)

echo "build-sdl.sh: FreeType ($(basename "$freetype_dsc" .dsc)), trimmed and static, into $prefix"
(
  cd "$src/freetype"
  # The outline formats alone: no bitmap fonts (PCF, BDF, Windows FNT), no
  # Type 1, CID, PFR or Type 42, no SVG glyphs, SDF, cache or validators, no
  # LZW or bzip2. Its gzip stays (WOFF fonts), on the system's zlib, which
  # libpng maps anyway.
  sed -i -E '/^[A-Z_]+_MODULES \+= (type1|cid|pfr|type42|winfonts|pcf|bdf|svg|sdf|cache|gxvalid|otvalid|lzw|bzip2)$/d' \
    modules.cfg
  ./configure --prefix="$prefix" --disable-shared --enable-static --with-pic --with-zlib=yes --with-bzip2=no \
    --with-png=no --with-harfbuzz=no --with-brotli=no > "$src/freetype.log" 2>&1 \
    || { tail -30 "$src/freetype.log" >&2; exit 1; }
  make -j"$jobs" >> "$src/freetype.log" 2>&1 && make install >> "$src/freetype.log" 2>&1 \
    || { tail -30 "$src/freetype.log" >&2; exit 1; }
)

echo "build-sdl.sh: SDL2_ttf ($(basename "$ttf_dsc" .dsc)), without HarfBuzz, static, into $prefix"
(
  # One source file: compiled as SDL2_ttf's own build would, without HarfBuzz.
  cd "$src/sdl2-ttf"
  # shellcheck disable=SC2086 # CFLAGS is a list of flags.
  cc $CFLAGS -fPIC -I"$prefix/include/SDL2" -I"$prefix/include/freetype2" -c SDL_ttf.c -o SDL_ttf.o \
    > "$src/sdl2-ttf.log" 2>&1 || { cat "$src/sdl2-ttf.log" >&2; exit 1; }
  ar rcs "$prefix/lib/libsplashd-sdl2-ttf.a" SDL_ttf.o
  install -m 644 SDL_ttf.h "$prefix/include/SDL2/"
)

# SwiftPM's pkg-config files (Package.swift's CSDL2 and CSDL2Image): SDL's
# own name -D_REENTRANT, a flag SwiftPM refuses. The archives get names of
# their own: the linker looks in the system's folders first (libpng's
# pkg-config names one), where Debian's libsdl2-dev may have put its own.
mv "$prefix/lib/libSDL2.a" "$prefix/lib/libsplashd-sdl2.a"
mv "$prefix/lib/libSDL2_image.a" "$prefix/lib/libsplashd-sdl2-image.a"
mv "$prefix/lib/libfreetype.a" "$prefix/lib/libsplashd-freetype.a"
cat > "$prefix/lib/pkgconfig/splashd-sdl2.pc" <<PC
Name: splashd-sdl2
Description: SDL2 as tools/build-sdl.sh builds it for splashd (static, trimmed)
Version: $(pkg-config --modversion "$prefix/lib/pkgconfig/sdl2.pc")
Cflags: -I$prefix/include
Libs: -L$prefix/lib -lsplashd-sdl2 -lm
PC
cat > "$prefix/lib/pkgconfig/splashd-sdl2-image.pc" <<PC
Name: splashd-sdl2-image
Description: SDL2_image as tools/build-sdl.sh builds it for splashd (static)
Version: $(pkg-config --modversion "$prefix/lib/pkgconfig/SDL2_image.pc")
Cflags: -I$prefix/include
Libs: -L$prefix/lib -lsplashd-sdl2-image -lpng16
PC
cat > "$prefix/lib/pkgconfig/splashd-sdl2-ttf.pc" <<PC
Name: splashd-sdl2-ttf
Description: SDL2_ttf and FreeType as tools/build-sdl.sh builds them for splashd (static, trimmed)
Version: $(version "$ttf_dsc")
Cflags: -I$prefix/include
Libs: -L$prefix/lib -lsplashd-sdl2-ttf -lsplashd-freetype -lz
PC
echo "$versions" > "$prefix/done"
ln -sfn "$(basename "$prefix")" "$root/current"
rm -rf "$src"
