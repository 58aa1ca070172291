#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A fake rotation switch ($guest/fake-switch.py, "rig switch") in tablet
# mode, mapped to 90° by the config: screendump tablet of the held splash;
# then the switch is docked (/run/rig/flip) and, once splashd turned back,
# screendump docked.
# Takes SPLASHD and LEAVES (splashd's picture arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
start_device fake-switch.py switch-ready
# The config names the switch's event device, found by its name.
for d in /sys/class/input/event*; do [ "$(cat $d/device/name)" = "rig switch" ] && device=/dev/input/${d##*/}; done
printf '[splash]\nrotate = auto\n[orientation]\nsources = switch cmdline\nswitch = %s\n' $device > /run/rig/splash.conf
echo 'switch-map = SW_TABLET_MODE=90, SW_DOCK=0' >> /run/rig/splash.conf
turn_held_splash tablet flip docked --config /run/rig/splash.conf $LEAVES
