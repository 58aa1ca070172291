#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of the idle-inhibit protocol, as video players and browsers
are: on the Wayland display the environment names, it makes a surface and
asks that the screen not idle while it shows, then prints "inhibited" once
the compositor has taken the request. With "hold", it then keeps the
inhibitor until a line comes on its standard input, and exits (the
inhibitor goes with its connection).

    idle-inhibit.py [hold]

Exits 1 when the display lacks the protocol or refuses the request.
"""
import struct
import sys

from wire import Connection, run


def main():
    connection = Connection()
    compositor = connection.bind("wl_compositor", 4)
    manager = connection.bind("zwp_idle_inhibit_manager_v1", 1)
    surface = connection.new_id()
    connection.send(compositor, 0, struct.pack("<I", surface))  # create_surface
    inhibitor = connection.new_id()
    connection.send(manager, 1, struct.pack("<II", inhibitor, surface))  # create_inhibitor
    connection.roundtrip()
    print("inhibited", flush=True)
    if sys.argv[1:] == ["hold"]:
        sys.stdin.readline()


if __name__ == "__main__":
    run(main)
