#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A program that stops answering: on the display host mode hands it
(WAYLAND_SOCKET), a full-screen window of one colour whose client answers
xdg_wm_base's pings while it reads its connection, until the file FREEZE
exists; then it removes the file (a start after it answers) and reads
nothing more (its pings go unanswered) but runs on, until a signal ends it. Each start says "start N" on standard error, and
"frozen" once it stops reading.

    frozen-client.py FREEZE COLOUR

COLOUR is 0xRRGGBB.
"""
import os
import select
import sys
import time

from wire import Connection, Window, run


def main():
    freeze, colour = sys.argv[1], int(sys.argv[2], 16)
    print("start %d" % os.getpid(), file=sys.stderr, flush=True)
    connection = Connection()
    Window(connection, colour)
    # Reads (and so answers pings) while the file is not there.
    while not os.path.exists(freeze):
        ready, _, _ = select.select([connection.socket], [], [], 0.1)
        if ready:
            connection.event()
    os.remove(freeze)
    print("frozen", file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    run(main)
