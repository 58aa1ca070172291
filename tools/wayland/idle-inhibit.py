#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of the idle-inhibit protocol, as video players and browsers
are: on the Wayland display the environment names, it makes a surface and
asks that the screen not idle while it shows, then prints "inhibited" once
the compositor has taken the request.

    idle-inhibit.py

Exits 1 when the display lacks the protocol or refuses the request.
"""
import struct
import sys

from wire import Connection

MANAGER = "zwp_idle_inhibit_manager_v1"


def main():
    connection = Connection()
    compositor = connection.bind("wl_compositor", 4)
    manager = connection.bind(MANAGER, 1)
    if compositor is None or manager is None:
        print("idle-inhibit.py: the display offers no %s" % MANAGER, file=sys.stderr)
        sys.exit(1)
    surface = connection.new_id()
    connection.send(compositor, 0, struct.pack("<I", surface))  # create_surface
    inhibitor = connection.new_id()
    connection.send(manager, 1, struct.pack("<II", inhibitor, surface))  # create_inhibitor
    connection.roundtrip()
    print("inhibited", flush=True)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ConnectionError) as error:
        print("idle-inhibit.py: %s" % error, file=sys.stderr)
        sys.exit(1)
