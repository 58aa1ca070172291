#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# KMS through SDL's KMSDRM driver and Mesa on /dev/dri/card0: splashd holds
# the splash (screendump held, and splashctl's snapshot of it), then
# crossfades and hands off to a program in its own process, which asks for
# screendump after before it draws anything and ends with status 4.
# Takes SPLASHD, SPLASHCTL (the binaries) and LEAVES (splashd's picture
# arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
"$SPLASHD" --config /dev/null --display kmsdrm --device /dev/dri/card0 $LEAVES --transition crossfade \
  --until-file /run/rig/go --timeout 200 --duration 0.3 --control /run/splashd.control \
  -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; exit 4' \
  2>/run/rig/splashd.log &
await_first_frame 180
screendump held
"$SPLASHCTL" --control /run/splashd.control snapshot /run/rig/held-snapshot.png
touch /run/rig/go
wait $pid
