#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What the QEMU boot scenarios share, sourced by each:
#     . "$(dirname "$0")/lib.sh"
# A scenario runs in the guest of tools/test/qemu/rig.py, which mounts the host's /
# read-only (so this folder is where it is on the host) and the work folder
# at /run/rig; the test gives it its variables (rig.py --env). Also sets
# $guest, the folder of the fake devices and helpers (tools/test/qemu/guest).

guest=$(cd "$(dirname "$0")/../guest" && pwd)

# wait_for TENTHS COMMAND...: runs COMMAND every tenth of a second until it
# succeeds, TENTHS times at most.
wait_for() {
  tenths=$1
  shift
  i=0; while ! "$@" && [ $i -lt $tenths ]; do sleep 0.1; i=$((i+1)); done
}

# await_first_frame SECONDS [LOG]: for after splashd was started in the
# background with its log in LOG (/run/rig/splashd.log): keeps its PID as
# $pid and waits until it logs its first frame, it ends, or SECONDS pass.
await_first_frame() {
  pid=$!
  i=0; while ! grep -q appeared "${2:-/run/rig/splashd.log}" 2>/dev/null && kill -0 $pid && [ $i -lt $(($1 * 10)) ]; do
    sleep 0.1; i=$((i+1))
  done
}

# crtc_active: the first CRTC's `active` (1 or 0) as the kernel's DRM state
# has it (debugfs, mounted on first use); nothing without one.
crtc_active() {
  [ -e /sys/kernel/debug/dri ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
  cat /sys/kernel/debug/dri/*/state 2>/dev/null |
    awk '/^crtc\[/ {c = 1} c && /\tactive=/ {sub(/.*\tactive=/, ""); print; exit}'
}

# screendump NAME [DEVICE]: has the host take a screendump (of QMP device
# DEVICE's screen: video0, video1) into /run/rig/NAME.ppm, and waits for it.
screendump() {
  echo RIG-SCREENDUMP "$@"
  while [ ! -e /run/rig/$1.done ]; do sleep 0.1; done
}

# start_device SCRIPT READY: starts the fake input device $guest/SCRIPT
# (uinput) in the background and waits, 10 s at most, until it has made
# /run/rig/READY.
start_device() {
  python3 "$guest/$1" /run/rig &
  wait_for 100 [ -e /run/rig/$2 ]
}

# turn_held_splash FIRST ACT SECOND ARGUMENT...: for a fake device that
# turns a held splash: splashd on the framebuffer with the ARGUMENTs, held
# until revealed; screendump FIRST once it appeared, then touches
# /run/rig/ACT (the device changes), screendump SECOND once splashd turned;
# then reveals it, touches /run/rig/done (the device ends) and waits for
# splashd.
turn_held_splash() {
  first=$1 act=$2 second=$3
  shift 3
  "$SPLASHD" "$@" --display fbdev --until-file /run/rig/go --timeout 100 --duration 0.3 \
    2>/run/rig/splashd.log &
  await_first_frame 90
  screendump $first
  touch /run/rig/$act
  wait_for 300 grep -q "turned to" /run/rig/splashd.log
  screendump $second
  touch /run/rig/go /run/rig/done
  wait $pid
}

# unplug_second_card LOG: unbinds the virtio-gpu (card1, the second card)
# from its driver, as when an adapter is unplugged, and waits until splashd
# (logging to LOG) has let go of its screens; splashctl status (on
# /run/splashd.control) then in /run/rig/unplugged-status.
unplug_second_card() {
  second_card=$(basename $(ls -d /sys/class/drm/card1/device/virtio*))
  echo $second_card > /sys/bus/virtio/drivers/virtio_gpu/unbind
  wait_for 300 grep -q "removed: the screens are now" "$1"
  "$SPLASHCTL" --control /run/splashd.control status > /run/rig/unplugged-status 2>&1
}

# plug_second_card_back LOG: binds it again and waits until splashd has
# changed its screens a second time (the card back, under its old number or
# a new one); status then in /run/rig/plugged-status.
plug_second_card_back() {
  echo $second_card > /sys/bus/virtio/drivers/virtio_gpu/bind
  i=0; while [ "$(grep -c "the screens are now" "$1")" -lt 2 ] && [ $i -lt 300 ]; do
    sleep 0.1; i=$((i+1))
  done
  "$SPLASHCTL" --control /run/splashd.control status > /run/rig/plugged-status 2>&1
}
