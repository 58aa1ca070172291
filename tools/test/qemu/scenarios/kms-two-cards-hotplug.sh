#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two cards (QEMU's VGA, card0, and a virtio-gpu, card1) in one boot. A
# splash on both, the second screen turned by its [screen Virtual-2]
# section: splashctl status in /run/rig/splash-status, screendumps first
# (video0) and second (video1). Then another splash (its log
# /run/rig/hotplug.log) while the second card's driver is unbound from the
# device (status in unplugged-status, screendump unplugged of video1) and
# bound again (plugged-status, screendump plugged).
# Takes SPLASHD, SPLASHCTL (the binaries) and LEAVES (splashd's picture
# arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
printf '[screen Virtual-2]\nrotate = 90\n' > /run/rig/screens.conf
"$SPLASHD" --config /run/rig/screens.conf $LEAVES --until-file /run/rig/go --timeout 100 \
  --duration 0.3 --control /run/splashd.control 2>/run/rig/splashd.log &
await_first_frame 120
"$SPLASHCTL" --control /run/splashd.control status > /run/rig/splash-status 2>&1
screendump first video0
screendump second video1
touch /run/rig/go
wait $pid
rm /run/rig/go
"$SPLASHD" --config /dev/null $LEAVES --until-file /run/rig/go --timeout 100 \
  --duration 0.3 --control /run/splashd.control 2>/run/rig/hotplug.log &
await_first_frame 120 /run/rig/hotplug.log
unplug_second_card /run/rig/hotplug.log
screendump unplugged video1
plug_second_card_back /run/rig/hotplug.log
screendump plugged video1
touch /run/rig/go
wait $pid
