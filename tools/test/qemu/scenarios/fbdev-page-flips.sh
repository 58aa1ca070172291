#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A framebuffer driver that pans (vfb as /dev/fb1, its virtual screen made
# two pages tall by $guest/fb-pages.py): splashd holds the splash, then
# plays a short transition; the device's memory is dumped (with the row
# it is panned to) while the splash holds, as held.ppm, and after splashd
# ended, as after.ppm.
# Takes SPLASHD and LEAVES (splashd's picture arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
python3 "$guest/fb-pages.py" double /dev/fb1
"$SPLASHD" --config /dev/null --display fbdev --device /dev/fb1 $LEAVES --until-file /run/rig/go --timeout 100 \
  --duration 0.3 2>/run/rig/splashd.log &
await_first_frame 90
python3 "$guest/fb-pages.py" dump /dev/fb1 /run/rig/held.ppm
touch /run/rig/go
wait $pid
python3 "$guest/fb-pages.py" dump /dev/fb1 /run/rig/after.ppm
