#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host mode on two cards (QEMU's VGA, card0, and a virtio-gpu, card1):
# splashd hosts foot in the kiosk's colour, which draws once and then
# waits. Once the doors have opened (screendump program of video0), the
# second card's driver is unbound from the device (status in
# unplugged-status, screendump unplugged of video0) and bound again
# (plugged-status, screendumps plugged-first of video0 and plugged-second
# of video1): each screen left or come shows foot without foot drawing
# again (--screens mirror, the default). Ends splashd (and foot) with
# SIGTERM; its log is /run/rig/splashd.log. Then the same with --screens
# extend (see below).
# Takes SPLASHD, SPLASHCTL (the binaries) and LEAVES (splashd's picture
# arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
# foot's shell needs a pseudo-terminal; the rig mounts no devpts.
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
export LANG=C.UTF-8
"$SPLASHD" --config /dev/null $LEAVES --duration 0.3 --control /run/splashd.control --host wayland \
  -- foot --override=colors.background=2080c0 2>/run/rig/splashd.log &
await_first_frame 120
wait_for 1200 grep -q "did-disappear" /run/rig/splashd.log
screendump program video0
unplug_second_card /run/rig/splashd.log
screendump unplugged video0
plug_second_card_back /run/rig/splashd.log
screendump plugged-first video0
screendump plugged-second video1
kill $pid
wait $pid
# Then --screens extend: one window across both (log /run/rig/extend.log,
# screendumps extend-first and extend-second).
"$SPLASHD" --config /dev/null $LEAVES --duration 0.3 --control /run/splashd.control --host wayland \
  --screens extend -- foot --override=colors.background=2080c0 2>/run/rig/extend.log &
await_first_frame 120 /run/rig/extend.log
wait_for 1200 grep -q "did-disappear" /run/rig/extend.log
screendump extend-first video0
screendump extend-second video1
kill $pid
wait $pid
