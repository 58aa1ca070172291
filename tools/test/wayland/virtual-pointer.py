#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of the wlr-virtual-pointer protocol, as remote-control tools
(wayvnc) are: on the Wayland display the environment names, it makes a
virtual pointer, says "ready" on standard output, and when a line comes on
standard input moves the pointer to a point of the screen and clicks there.

    virtual-pointer.py [--hold | --approach] U V [BUTTON]

U and V are fractions of the screen's width and height (as a screenshot of
it shows it); BUTTON a Linux button code (272, BTN_LEFT, by default). The
line lets the caller wait until the program has taken the seat's new
pointer (a client asks for it only once told of it). It speaks the wire
protocol itself (wire.py); exits 0 once the compositor has taken every
request, 1 when the display lacks the protocol or the connection fails.
With --hold the button is pressed where the pointer already is, without
moving it, and stays down until a second line comes (a finger held on it
while the screen wakes); then the pointer moves to U, V and the button is
let go of there. With --approach the pointer comes to U, V from a step
beside it, as a mouse arrives (wvkbd 0.12 takes a key's place from the
pointer's motion alone, never from where it entered).
"""
import struct
import sys

from wire import Connection, run

MANAGER = "zwlr_virtual_pointer_manager_v1"
EXTENT = 10000


def main():
    arguments = sys.argv[1:]
    hold = arguments[:1] == ["--hold"]
    approach = arguments[:1] == ["--approach"]
    if hold or approach:
        arguments = arguments[1:]
    if len(arguments) not in (2, 3):
        sys.exit(__doc__)
    u, v = float(arguments[0]), float(arguments[1])
    button = int(arguments[2]) if len(arguments) == 3 else 272
    connection = Connection()
    seat = connection.bind("wl_seat", 1)
    manager = connection.bind(MANAGER, 1)
    pointer = connection.new_id()
    connection.send(manager, 0, struct.pack("<II", seat, pointer))
    connection.roundtrip()
    print("ready", flush=True)
    sys.stdin.readline()
    x, y = round(u * EXTENT), round(v * EXTENT)
    # motion_absolute, frame; button pressed, frame; released, frame. Held:
    # pressed where the pointer is, frame; then moved, frame; released.
    if approach:
        connection.send(pointer, 1, struct.pack("<IIIII", 0, max(x - 10, 0), y, EXTENT, EXTENT))
        connection.send(pointer, 4)
    if not hold:
        connection.send(pointer, 1, struct.pack("<IIIII", 1, x, y, EXTENT, EXTENT))
        connection.send(pointer, 4)
    connection.send(pointer, 2, struct.pack("<III", 2, button, 1))
    connection.send(pointer, 4)
    if hold:
        connection.roundtrip()
        sys.stdin.readline()
        connection.send(pointer, 1, struct.pack("<IIIII", 3, x, y, EXTENT, EXTENT))
        connection.send(pointer, 4)
    connection.send(pointer, 2, struct.pack("<III", 4, button, 0))
    connection.send(pointer, 4)
    connection.roundtrip()
    # destroy the pointer, then make sure the compositor took it.
    connection.send(pointer, 8)
    connection.roundtrip()


if __name__ == "__main__":
    run(main)
