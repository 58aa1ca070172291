#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The real display driver replacing the firmware's framebuffer while the
# splash holds: splashd starts on vesafb (/proc/fb in /run/rig/fb-before),
# then virtio-gpu is loaded (/proc/fb in fb-after, splashctl status in
# splash-status, splashd's open files in fds); a program that fills the
# card black ($guest's kiosk-colour, built by the test into
# /run/rig/kiosk-colour; its log in kiosk.log) tries to take the screen:
# screendump compositor. Then the reveal: screendump mid, a second into the
# transition.
# Takes SPLASHD, SPLASHCTL (the binaries), LEAVES (splashd's picture
# arguments, split on spaces) and MOVE: yes, splashd may move to the new
# card (waited for 30 s); no, --display fbdev keeps it on the framebuffer
# (and the move it does not make is waited for 3 s).
. "$(dirname "$0")/lib.sh"
if [ "$MOVE" = yes ]; then stay="" move_wait=300; else stay="--display fbdev" move_wait=30; fi
cat /proc/fb > /run/rig/fb-before
"$SPLASHD" --config /dev/null $stay $LEAVES --until-file /run/rig/go \
  --timeout 150 --duration 3 --easing linear --control /run/splashd.control 2>/run/rig/splashd.log &
await_first_frame 90
modprobe virtio-gpu
wait_for 300 [ -e /dev/dri/card0 ]
wait_for $move_wait grep -q "display: moved" /run/rig/splashd.log
cat /proc/fb > /run/rig/fb-after
"$SPLASHCTL" --control /run/splashd.control status > /run/rig/splash-status 2>&1
ls -l /proc/$pid/fd > /run/rig/fds
/run/rig/kiosk-colour 000000 /run/rig/kiosk.drawn > /run/rig/kiosk.log 2>&1 &
kiosk=$!
wait_for 600 [ -e /run/rig/kiosk.drawn ]
screendump compositor
kill $kiosk
touch /run/rig/go
wait_for 900 grep -q will-disappear /run/rig/splashd.log
sleep 1
screendump mid
wait $pid
