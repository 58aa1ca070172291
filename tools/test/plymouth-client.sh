#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Unpacks Debian's own `plymouth` client program (and the libraries it
# links) into DIR, without installing plymouthd or its boot hooks, for the
# tests that drive splashd's Plymouth socket with the real client. Prints
# the client's path; run it as LD_LIBRARY_PATH=DIR/usr/lib/x86_64-linux-gnu.
# Kept once made (the tests pass .build/plymouth-client).
#
#   tools/test/plymouth-client.sh DIR
set -eu
dir=$1
client="$dir/usr/bin/plymouth"
if [ ! -x "$client" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download -q plymouth libplymouth5 >/dev/null 2>&1) || {
    apt-get update -qq && (cd "$work" && apt-get download -q plymouth libplymouth5 >/dev/null)
  }
  mkdir -p "$dir"
  for deb in "$work"/*.deb; do dpkg -x "$deb" "$dir"; done
fi
echo "$client"
