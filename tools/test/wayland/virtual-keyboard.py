#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of the virtual-keyboard protocol (zwp_virtual_keyboard_v1), as
on-screen keyboards and remote-control tools are: on the Wayland display
the environment names, it makes a virtual keyboard with a US layout
(compiled by the compositor from XKB's data), says "ready" on standard
output, then at each line on standard input presses the key KEY (a Linux
key code, such as 30: KEY_A) and at the next lets it go, COUNT times in
all (a press or a release each), then ends.

    virtual-keyboard.py KEY COUNT

A key held between two lines stays down meanwhile (what a finger on a
key does while the screen wakes). It speaks the wire protocol itself
(wire.py); exits 0 once the compositor has taken every request, 1 when
the display lacks the protocol or the connection fails.
"""
import os
import struct
import sys

from wire import Connection, run

MANAGER = "zwp_virtual_keyboard_manager_v1"
KEYMAP = """xkb_keymap {
  xkb_keycodes { include "evdev+aliases(qwerty)" };
  xkb_types { include "complete" };
  xkb_compat { include "complete" };
  xkb_symbols { include "pc+us+inet(evdev)" };
};
"""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    key, count = int(sys.argv[1]), int(sys.argv[2])
    connection = Connection()
    seat = connection.bind("wl_seat", 1)
    manager = connection.bind(MANAGER, 1)
    keyboard = connection.new_id()
    connection.send(manager, 0, struct.pack("<II", seat, keyboard))
    # keymap: format 1 (xkb_v1), the keymap's descriptor and size (with its NUL).
    text = KEYMAP.encode() + b"\0"
    keymap = os.memfd_create("virtual-keyboard-keymap")
    os.write(keymap, text)
    connection.send(keyboard, 0, struct.pack("<II", 1, len(text)), fd=keymap)
    os.close(keymap)
    connection.roundtrip()
    print("ready", flush=True)
    for time in range(1, count + 1):
        sys.stdin.readline()
        # key: time, key, state (1 pressed, 0 released): pressed first.
        connection.send(keyboard, 1, struct.pack("<III", time, key, time % 2))
        connection.roundtrip()
    # destroy, then make sure the compositor took it.
    connection.send(keyboard, 3)
    connection.roundtrip()


if __name__ == "__main__":
    run(main)
