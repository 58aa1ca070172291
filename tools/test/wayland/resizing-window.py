#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A program's window that takes each size the compositor configures: an
xdg toplevel showing an opaque buffer of one colour (0x208040, or COLOUR)
at that size, answering each configure with a new buffer, and appending
"WIDTHxHEIGHT" to SIZES once it has committed it. Runs until the compositor goes.

    resizing-window.py SIZES [COLOUR]
"""
import struct
import sys

from wire import Connection, run, show


def main():
    sizes = sys.argv[1]
    colour = int(sys.argv[2], 16) if len(sys.argv) > 2 else 0x208040
    c = Connection()
    # It waits for configures as long as the compositor runs.
    c.socket.settimeout(None)
    compositor = c.bind("wl_compositor", 4)
    shm = c.bind("wl_shm", 1)
    wm_base = c.bind("xdg_wm_base", 1)
    c.handlers[wm_base] = lambda opcode, body: opcode == 0 and c.send(wm_base, 3, body[:4])  # pong
    surface = c.new_id()
    c.send(compositor, 0, struct.pack("<I", surface))
    xdg = c.new_id()
    c.send(wm_base, 2, struct.pack("<II", xdg, surface))
    toplevel = c.new_id()
    c.send(xdg, 1, struct.pack("<I", toplevel))
    c.send(surface, 6)
    width, height = 320, 240
    while True:
        target, opcode, body = c.event()
        if target == toplevel and opcode == 0:
            asked = struct.unpack_from("<ii", body)
            if asked[0] > 0 and asked[1] > 0:
                width, height = asked
        elif target == xdg and opcode == 0:
            c.send(xdg, 4, body[:4])  # ack_configure
            show(c, shm, surface, width, height, colour)
            with open(sizes, "a") as said:
                said.write("%dx%d\n" % (width, height))


if __name__ == "__main__":
    run(main)
