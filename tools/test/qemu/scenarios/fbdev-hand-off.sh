#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kiosk path on the framebuffer (/dev/fb0), turned 90°: splashd holds
# the splash until revealed (screendump held, and splashctl's snapshot of
# it), plays the doors (screendump mid, a second into the transition), then
# hands off to a program in its own process, which asks for screendump
# after before it draws anything and ends with status 4. While it holds,
# splashctl screen off powers the framebuffer down and screen on brings it
# back (screen-power: each answer, and the CRTC's state after it).
# Takes SPLASHD, SPLASHCTL (the binaries) and LEAVES (splashd's picture
# arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
echo "kernel: $(cat /proc/cmdline) fb0: $(cat /sys/class/graphics/fb0/virtual_size)"
"$SPLASHD" --config /dev/null --display fbdev --rotate 90 $LEAVES --until-file /run/rig/go --timeout 120 --duration 4 \
  --easing linear --control /run/splashd.control \
  -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; exit 4' \
  2>/run/rig/splashd.log &
await_first_frame 90
screendump held
"$SPLASHCTL" --control /run/splashd.control snapshot /run/rig/held-snapshot.png
for state in off on; do
  "$SPLASHCTL" --control /run/splashd.control screen $state
  echo "active=$(crtc_active)"
done > /run/rig/screen-power 2>&1
touch /run/rig/go
wait_for 900 grep -q will-disappear /run/rig/splashd.log
sleep 1
screendump mid
wait $pid
