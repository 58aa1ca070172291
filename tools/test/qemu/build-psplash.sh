#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds psplash, Yocto's boot splash, from its source tarball as a peer to
# measure splashd against (psplash is GPL: it is built and run by the tests,
# never part of splashd). PICTURE replaces its logo and is shown full screen,
# without its progress bar or message, as splashd shows a picture.
#   tools/test/qemu/build-psplash.sh TARBALL PICTURE OUT   ->  OUT/psplash
# Needs autoconf, automake, gcc, libdrm-dev and gdk-pixbuf-csource
# (libgdk-pixbuf2.0-bin). Logs go to OUT/build.log.
set -eu
tarball=$(realpath "$1")
picture=$(realpath "$2")
out=$(realpath -m "$3")
rm -rf "$out/src"
mkdir -p "$out/src"
tar -xzf "$tarball" -C "$out/src" --strip-components=1
cd "$out/src"
{
  # Its configure.ac predates automake 1.13, which dropped this macro's old name.
  sed -i s/AM_CONFIG_HEADER/AC_CONFIG_HEADERS/ configure.ac
  cp "$picture" base-images/psplash-poky.png
  autoreconf -fi
  ./configure --enable-drm --enable-img-fullscreen --disable-progress-bar --disable-startup-msg
  make LIBS=-ldrm
} >"$out/build.log" 2>&1 || {
  tail -20 "$out/build.log" >&2
  exit 1
}
cp psplash "$out/psplash"
