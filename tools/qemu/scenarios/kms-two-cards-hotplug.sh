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
gpu=$(basename $(ls -d /sys/class/drm/card1/device/virtio*))
"$SPLASHD" --config /dev/null $LEAVES --until-file /run/rig/go --timeout 100 \
  --duration 0.3 --control /run/splashd.control 2>/run/rig/hotplug.log &
await_first_frame 120 /run/rig/hotplug.log
echo $gpu > /sys/bus/virtio/drivers/virtio_gpu/unbind
wait_for 300 grep -q "removed: the screens are now" /run/rig/hotplug.log
"$SPLASHCTL" --control /run/splashd.control status > /run/rig/unplugged-status 2>&1
screendump unplugged video1
echo $gpu > /sys/bus/virtio/drivers/virtio_gpu/bind
i=0; while [ "$(grep -c "the screens are now" /run/rig/hotplug.log)" -lt 2 ] && [ $i -lt 300 ]; do
  sleep 0.1; i=$((i+1))
done
"$SPLASHCTL" --control /run/splashd.control status > /run/rig/plugged-status 2>&1
screendump plugged video1
touch /run/rig/go
wait $pid
