#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds splashd_VERSION_ARCH.deb from binaries already built in BUILD_DIR
# (make build), with Debian's own tools: the tree staged by make install-built
# (PREFIX=/usr), Depends computed by dpkg-shlibdeps, the maintainer scripts
# and copyright of packaging/debian/, packed by dpkg-deb with root as owner.
#   tools/release/make-deb.sh BUILD_DIR OUT_DIR   ->  OUT_DIR/splashd_VERSION_ARCH.deb
set -eu
# The package's modes must not depend on the caller's umask (dpkg-deb refuses
# a control folder that is not 0755; a test process's umask can be 0777 for a
# moment while splashd's code in it makes a socket).
umask 022
build=$(realpath "$1")
out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")/../.." && pwd)
work="$here/.build/deb-staging"
root="$work/root"
rm -rf "$work"
mkdir -p "$root/DEBIAN" "$work/debian" "$out"
version=$("$build/splashd" --version | sed -n '1s/^splashd \([^ ]*\).*/\1/p')
commit=$(git -C "$here" describe --always --dirty --abbrev=12 2>/dev/null || echo "unknown")
arch=$(dpkg --print-architecture)
make -s -C "$here" install-built BUILD_DIR="$build" DESTDIR="$root" PREFIX=/usr SYSCONFDIR=/etc \
  UNITDIR=/usr/lib/systemd/system DOCS_DIR="$work/docs" >/dev/null
doc="$root/usr/share/doc/splashd"
gzip -9n "$root"/usr/share/man/man*/*
install -m 644 "$here/packaging/debian/copyright" "$doc/copyright"
install -D -m 644 "$here/packaging/debian/lintian-overrides" "$root/usr/share/lintian/overrides/splashd"
# A native package's changelog: this build.
date=$(git -C "$here" log -1 --format=%aD 2>/dev/null || date -R)
printf 'splashd (%s) unstable; urgency=medium\n\n  * Built from git %s.\n\n -- splashd developers <dev@splashd.invalid>  %s\n' \
  "$version" "$commit" "$date" | gzip -9n >"$doc/changelog.gz"
install -m 755 "$here/packaging/debian/postinst" "$here/packaging/debian/postrm" "$root/DEBIAN/"
echo /etc/splashd/splashd.conf >"$root/DEBIAN/conffiles"
# The initramfs is made again with splashd in it (or without, on removal):
# initramfs-tools and dracut both take the update-initramfs trigger.
echo "activate-noawait update-initramfs" >"$root/DEBIAN/triggers"
# dpkg-shlibdeps reads debian/control for the package's name.
printf 'Source: splashd\n\nPackage: splashd\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/splashd" "$root/usr/bin/splashctl" | sed -n 's/^shlibs:Depends=//p')
# Host mode's compositor (loaded only in host mode), with wlroots and
# libinput linked in (tools/build/build-wlroots.sh), needs libwayland-server,
# pixman, xkbcommon, libudev, libevdev, mtdev, libdrm, xcb and five of its
# extensions, and libinput-bin: the udev rules its libinput reads (its device
# quirks are the package's own, /usr/lib/splashd/libinput). Recommended, not required, so that a plain
# splash installs without them. Xwayland (xwayland = yes, for X11 programs)
# only suggested.
host=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/lib/splashd/libsplashd-wayland-host.so" \
  | sed -n 's/^shlibs:Depends=//p')
# Its GPU variant (loaded only on a card with a render node) adds EGL,
# GLESv2 and GBM: suggested, for a kiosk whose program renders on the GPU.
gpu=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/lib/splashd/libsplashd-wayland-host-gpu.so" \
  | sed -n 's/^shlibs:Depends=//p')
gpu=$(printf '%s\n' "$gpu" | tr ',' '\n' | sed 's/^ *//' | grep -E '^lib(egl|gles|gbm)' | paste -sd, | sed 's/,/, /g')
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: splashd
Version: $version
Architecture: $arch
Maintainer: splashd developers <dev@splashd.invalid>
Installed-Size: $size
Depends: $depends
Recommends: fonts-dejavu-core, $host, libinput-bin
Suggests: xwayland${gpu:+, $gpu}
Section: admin
Priority: optional
Homepage: https://splashd.invalid/
Description: boot splash for kiosks and embedded displays
 splashd puts a picture on the screen moments after boot (KMS, fbdev or a
 desktop window), holds it while the system comes up, plays a door-open or
 cross-fade transition paced to the display's vsync, then hands the screen
 to the kiosk program. It reads the display's rotation from its config or a
 sensor, answers psplash-write and plymouth, and can never keep the machine
 from its program.
EOF
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
fakeroot dpkg-deb --build -Zxz --root-owner-group "$root" "$out/splashd_${version}_${arch}.deb" >/dev/null
echo "$out/splashd_${version}_${arch}.deb"
