#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# splashd against psplash in one boot, with the programs, their libraries
# and the picture (/run/rig/photo.png) in a tmpfs: splashd's cache filled
# for fbdev and kms (--prepare: /run/rig/prepared, prepare.log), then 5
# interleaved rounds, each run watched by scanout-watch (built by the test
# from tools/test/qemu/scanout-watch.c into /run/rig): psplash on fbdev and with
# --drm, splashd on fbdev and kms, cold (no cache) and warm (the cache),
# and warm on kms in host mode (--host wayland, a program that never draws:
# the compositor loads behind the first frame; HOSTLIB is its shared object,
# or empty: no such runs), then 10 more rounds of kms warm and host mode.
# scanout-watch's lines go to /run/rig/sw.log, each run's log to
# /run/rig/LABEL.log.
# Takes SPLASHD (the binary measured), PSPLASH (psplash's binary, or
# empty: splashd alone) and HOSTLIB.
. "$(dirname "$0")/lib.sh"
T=/run/t
mkdir -p $T/lib $T/cache
cp /run/rig/scanout-watch /run/rig/photo.png $PSPLASH $T/
cp "$SPLASHD" $T/splashd
if [ -n "$HOSTLIB" ]; then cp "$HOSTLIB" $T/; fi
for b in $T/scanout-watch $T/splashd ${PSPLASH:+$T/psplash} ${HOSTLIB:+$T/$(basename "$HOSTLIB")}; do
  ldd $b | awk '/=>/ {print $3}' | while read l; do cp -n "$l" $T/lib/ 2>/dev/null; done
done
export LD_LIBRARY_PATH=$T/lib PSPLASH_FIFO_DIR=/run
splashd="$T/splashd --config /dev/null --image $T/photo.png"
for display in fbdev kms; do
  $splashd --display $display --prepare --cache $T/cache >> /run/rig/prepared 2>> /run/rig/prepare.log
done
watch() { label=$1; shift; $T/scanout-watch $label 500 8000 -- "$@" >> /run/rig/sw.log 2>> /run/rig/$label.log; }
for round in 1 2 3 4 5; do
  if [ -n "$PSPLASH" ]; then watch psplash-fbdev $T/psplash -n; fi
  watch splashd-fbdev-cold $splashd --display fbdev --hold 20 --duration 0 --cache none
  watch splashd-fbdev-warm $splashd --display fbdev --hold 20 --duration 0 --cache $T/cache
  if [ -n "$PSPLASH" ]; then watch psplash-kms $T/psplash -n --drm; fi
  watch splashd-kms-cold $splashd --display kms --hold 20 --duration 0 --cache none
  watch splashd-kms-warm $splashd --display kms --hold 20 --duration 0 --cache $T/cache
  if [ -n "$HOSTLIB" ]; then
    watch splashd-kms-host $splashd --display kms --hold 20 --duration 0 --cache $T/cache --host wayland -- /bin/sleep 60
  fi
done
# Host mode's first pixel against the plain splash's moves by a fifth from
# boot to boot over 5 rounds: 10 more of those two, interleaved (the plain
# ones as splashd-kms-again, kept out of the figures against psplash).
if [ -n "$HOSTLIB" ]; then
  for round in 1 2 3 4 5 6 7 8 9 10; do
    watch splashd-kms-again $splashd --display kms --hold 20 --duration 0 --cache $T/cache
    watch splashd-kms-host $splashd --display kms --hold 20 --duration 0 --cache $T/cache --host wayland -- /bin/sleep 60
  done
fi
