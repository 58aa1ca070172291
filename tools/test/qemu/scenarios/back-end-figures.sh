#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The display back ends' figures, interleaved in one boot: 5 rounds of kms
# and fbdev, kmsdrm in the first 3. Each run holds the splash until its
# first frame is shown, then appends a line to /run/rig/figures:
#     BACK-END START-TICKS TICKS-PER-SECOND SHOWN-SECONDS PEAK-RSS-KIB LIBRARIES
# (its start time in clock ticks after boot, its first frame's monotonic
# time, its peak RSS and the shared libraries it maps while it holds).
# Takes SPLASHD (the binary) and LEAVES (splashd's picture arguments, split
# on spaces).
. "$(dirname "$0")/lib.sh"
ticks=$(getconf CLK_TCK)
measure() {
  rm -f /run/rig/go
  "$SPLASHD" --config /dev/null --display $1 $LEAVES --until-file /run/rig/go --timeout 200 \
    --duration 0 2>/run/rig/one.log &
  await_first_frame 180 /run/rig/one.log
  start=$(cut -d' ' -f22 /proc/$pid/stat)
  peak=$(grep VmHWM /proc/$pid/status | tr -s ' ' | cut -d' ' -f2)
  libraries=$(grep -E '[.]so' /proc/$pid/maps | awk '{print $6}' | sort -u | wc -l)
  shown=$(sed -n 's/.*first frame shown at monotonic \([0-9.]*\) s.*/\1/p' /run/rig/one.log)
  echo "$1 $start $ticks $shown $peak $libraries" >> /run/rig/figures
  touch /run/rig/go
  wait $pid
}
for round in 1 2 3 4 5; do
  measure kms; measure fbdev
  [ $round -le 3 ] && measure kmsdrm
done
