#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes tools/build/text-order.txt, the order in which make build lays out
# splashd's code (gold's --section-ordering-file): the functions a splash
# runs, found by running the release build's splashd under valgrind's
# callgrind, first; then SplashRender, SplashSystem, SplashDevices and
# SplashWaylandHost whole (the screens' code, which cannot run offscreen here).
#
#     tools/build/text-order.sh [BUILD_DIR]      (make text-order)
#
# Why: the kernel maps a binary's code 64 KiB at a time around each page
# that faults (fault-around), so code that runs, scattered across ~9 MB,
# made ~5 MB of splashd resident at the first frame; laid out together it
# is a few hundred KiB (docs/performance.md). Functions the file no longer
# names are laid out after it, as before: the file going stale costs
# memory, never correctness. Run it again after large changes. Needs
# valgrind (apt install valgrind) and a built splashd (make build); takes
# about a minute.
#
# The runs, offscreen at 800x480 with the demo picture: a first start (the
# cache made) and a second (the cache read), each through the doors; a
# cross-fade; a message and progress through splashctl, then a reveal; and,
# when foot is installed, host mode revealing foot, then stopped.
set -eu
dir=${1:-.build/release}
out=$(dirname "$0")/text-order.txt
command -v valgrind > /dev/null || { echo "text-order.sh: needs valgrind (apt install valgrind)" >&2; exit 2; }
[ -x "$dir/splashd" ] || { echo "text-order.sh: no $dir/splashd (make build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the toolchain's DWARF 5: it profiles a copy
# without debug information (the symbols stay).
objcopy --strip-debug "$dir/splashd" "$work/splashd"
# Host mode's compositor is looked for beside the executable.
if [ -f "$dir/libsplashd-wayland-host.so" ]; then
  objcopy --strip-debug "$dir/libsplashd-wayland-host.so" "$work/libsplashd-wayland-host.so"
fi
picture=$(dirname "$0")/../../Config/splashd-demo.png
mkdir -p "$work/runtime" "$work/cache"
export XDG_RUNTIME_DIR="$work/runtime"
# profile NAME OPTION...: one run, its profile in $work/NAME.out.
profile() {
  name=$1
  shift
  valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.out" \
    "$work/splashd" --config /dev/null --display offscreen --size 800x480 --image "$picture" \
    --cache "$work/cache" "$@" > "$work/$name.log" 2>&1
}
profile cache-made --hold 0.3
profile cache-read --hold 0.3
profile crossfade --hold 0.3 --transition crossfade
# A message and the progress, sent once the control socket is there, then
# the reveal the splash waits for.
control="$work/runtime/control"
waitForControl() {
  i=0
  while [ ! -S "$control" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
profile message --control "$control" --until-reveal --timeout 60 --message "Starting" &
splash=$!
waitForControl
"$dir/splashctl" --control "$control" message "Loading the kiosk"
"$dir/splashctl" --control "$control" progress 40
"$dir/splashctl" --control "$control" reveal
wait $splash
if command -v foot > /dev/null && [ -f "$dir/libsplashd-wayland-host.so" ]; then
  rm -f "$control"
  profile host-mode --control "$control" --host wayland --ready first-frame --timeout 60 --hold 0.3 -- foot &
  splash=$!
  waitForControl
  "$dir/splashctl" --control "$control" wait did-disappear
  # The splash is over (its control socket with it); splashd stays on as
  # foot's compositor until it is stopped.
  pkill -TERM -f -- "--callgrind-out-file=$work/host-mode.out"
  wait $splash || true
  grep -q "host mode: the program's first frame" "$work/host-mode.log" || {
    echo "text-order.sh: host mode showed no frame of foot under valgrind:" >&2
    cat "$work/host-mode.log" >&2
    exit 1
  }
fi
# The names of the functions that ran: callgrind names each at its first
# use, as fn=(ID) NAME or cfn=(ID) NAME.
cat "$work"/*.out | sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' | LC_ALL=C sort -u > "$work/ran"
nm --defined-only "$dir/splashd" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | LC_ALL=C sort -u > "$work/defined"
{
  LC_ALL=C comm -12 "$work/ran" "$work/defined" | sed 's/^/.text./'
  echo '.text.startup'
  for module in 12SplashRender 12SplashSystem 13SplashDevices 10SplashHost; do echo ".text.\$s$module*"; done
} > "$out"
echo "text-order.sh: $(grep -c . "$out") entries in $out"
