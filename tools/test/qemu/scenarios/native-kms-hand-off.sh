#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The native KMS output on /dev/dri/card0, in both of its hand-offs. Exec:
# splashd holds the splash (the libraries it maps listed in
# /run/rig/libraries; screendump held, and splashctl's snapshot of it),
# plays the doors (screendump mid, a second into the transition), then
# becomes a program (same PID) that asks for screendump after before it
# draws anything, lists its open files in /run/rig/program-fds and ends with
# status 4 (in /run/rig/exec-status). Spawn: the program
# (native-kms-spawned.sh) starts first and reveals the splash with READY=1;
# splashd, its parent, keeps the card open after the transition, so the last
# frame stays; the program's status, 5, is the scenario's.
# Takes SPLASHD, SPLASHCTL (the binaries) and LEAVES (splashd's picture
# arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
"$SPLASHD" --config /dev/null --display kms --device /dev/dri/card0 $LEAVES --until-file /run/rig/go \
  --timeout 200 --duration 3 --easing linear --control /run/splashd.control \
  -- /bin/sh -c 'echo RIG-SCREENDUMP after; while [ ! -e /run/rig/after.done ]; do sleep 0.1; done; \
    ls -l /proc/$$/fd > /run/rig/program-fds; exit 4' \
  2>/run/rig/splashd.log &
await_first_frame 120
grep -E '[.]so' /proc/$pid/maps | awk '{print $6}' | sort -u > /run/rig/libraries
screendump held
"$SPLASHCTL" --control /run/splashd.control snapshot /run/rig/held-snapshot.png
touch /run/rig/go
wait_for 900 grep -q will-disappear /run/rig/splashd.log
sleep 1
screendump mid
wait $pid
echo "exit $?" > /run/rig/exec-status
"$SPLASHD" --config /dev/null --display kms --device /dev/dri/card0 $LEAVES --duration 0.3 \
  --ready notify -- /bin/sh "$(dirname "$0")/native-kms-spawned.sh" 2>/run/rig/spawn.log
