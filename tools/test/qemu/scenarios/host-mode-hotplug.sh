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
# extend, and a touch panel on each screen (see below); then pinned to the
# second screen by its name.
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
# udev runs from now on (libinput, splashd's input, takes the devices udev
# has seen), so that each screen can have a touch panel of its own.
/lib/systemd/systemd-udevd --daemon
"$SPLASHD" --config /dev/null $LEAVES --duration 0.3 --control /run/splashd.control --host wayland \
  --screens extend -- foot --override=colors.background=2080c0 2>/run/rig/extend.log &
await_first_frame 120 /run/rig/extend.log
wait_for 1200 grep -q "did-disappear" /run/rig/extend.log
screendump extend-first video0
screendump extend-second video1
# A touch panel on each screen (fake-pointer-and-touch, 800x600 units: a
# pixel each), put there as integrators do, by udev's WL_OUTPUT property
# naming the screen as splashctl's status does. input-probe is a second
# window (320x240, centred on the 1600x600 window: at 640,180); the left
# panel is touched at 700,300 and the right one at 100,300: the window's
# 700,300 and 900,300, the probe's 60,120 and 260,120. Its lines in
# touch-probe.log.
screens=$("$SPLASHCTL" --control /run/splashd.control status | sed -n 's/.* screens=\([^ ]*\).*/\1/p')
mkdir -p /run/udev/rules.d
for side in left right; do
  [ $side = left ] && field=1 || field=2
  echo "SUBSYSTEM==\"input\", ATTRS{name}==\"$side touch screen\"," \
    "ENV{WL_OUTPUT}=\"$(echo "$screens" | cut -d, -f$field | cut -d: -f1)\""
done > /run/udev/rules.d/70-rig-touch.rules
udevadm control --reload
foot=$(for c in /proc/[0-9]*/comm; do [ "$(cat "$c" 2>/dev/null)" = foot ] && basename "${c%/comm}"; done | head -n 1)
env $(tr '\0' '\n' < "/proc/$foot/environ" | grep -E '^(WAYLAND_DISPLAY|XDG_RUNTIME_DIR)=') /run/rig/input-probe \
  > /run/rig/touch-probe.log 2>&1 &
for side in left right; do
  mkdir -p /run/rig/$side
  /run/rig/fake-pointer-and-touch /run/rig/$side 800 600 $side &
  wait_for 100 test -e /run/rig/$side/input-ready
  # Its event node, once splashd holds it open.
  node=$(awk -v name="N: Name=\"$side touch screen\"" '$0 == name {found=1} found && /^H: Handlers=/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^event/) print $i; exit }' /proc/bus/input/devices)
  wait_for 200 sh -c "ls -l /proc/$pid/fd | grep -q '/dev/input/$node\$'"
  udevadm info "/dev/input/$node" > /run/rig/$side-touch-udev 2>&1
done
wait_for 200 grep -q '^shown' /run/rig/touch-probe.log
echo 700 300 > /run/rig/left/touch
wait_for 100 grep -qx 'presented touch' /run/rig/touch-probe.log
echo 100 300 > /run/rig/right/touch
wait_for 100 test "$(grep -cx 'presented touch' /run/rig/touch-probe.log)" -ge 2
touch /run/rig/left/done /run/rig/right/done
kill $pid
wait $pid
# Then --screens NAME: the second screen as the extended run's status
# listed it (card2-Virtual-3 once its card was bound again) called by its
# connector's name alone (in pinned-name); the window is its canvas, shown
# there alone (log /run/rig/pinned.log; screendumps pinned-first and
# pinned-second).
echo "$screens" | cut -d, -f2 | cut -d: -f1 | sed 's/^card[0-9]*-//' > /run/rig/pinned-name
"$SPLASHD" --config /dev/null $LEAVES --duration 0.3 --control /run/splashd.control --host wayland \
  --screens "$(cat /run/rig/pinned-name)" -- foot --override=colors.background=2080c0 2>/run/rig/pinned.log &
await_first_frame 120 /run/rig/pinned.log
wait_for 1200 grep -q "did-disappear" /run/rig/pinned.log
screendump pinned-first video0
screendump pinned-second video1
kill $pid
wait $pid
