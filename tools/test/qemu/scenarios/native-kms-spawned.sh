#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The program native-kms-hand-off.sh's splashd spawns: READY=1 to splashd
# on $NOTIFY_SOCKET (an abstract socket's name starts with @), then, once
# the transition is done, screendump spawned, what its parent (splashd)
# holds open in /run/rig/spawn-fds, and status 5.
# Takes nothing but NOTIFY_SOCKET, from splashd.
. "$(dirname "$0")/lib.sh"
python3 -c 'import os, socket
name = os.environ["NOTIFY_SOCKET"]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.connect("\0" + name[1:] if name.startswith("@") else name)
s.send(b"READY=1")'
wait_for 600 grep -q did-disappear /run/rig/spawn.log
screendump spawned
ls -l /proc/$PPID/fd > /run/rig/spawn-fds
exit 5
