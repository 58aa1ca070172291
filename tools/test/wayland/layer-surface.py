#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of wlr-layer-shell, as on-screen keyboards, bars and overlays
are: on the Wayland display the environment names, it makes layer surfaces
of one colour and shows each at the size the compositor configures,
printing "shown WIDTHxHEIGHT" for each (or "closed" for one the compositor
closed instead). Then it reads its standard input, a line at a time:
"hide" unmaps the surfaces (a commit without a buffer: "hidden"), "show"
shows them again ("shown ..." once configured), "keyboard MODE" commits
that interactivity (none, exclusive or on_demand: "keyboard MODE" once
committed), and the end of the input
or "quit" ends it (its surfaces go with its connection). With --keys, it
takes the seat's keyboard and appends to LOG a line for each of its
events on the surfaces: "enter", "leave" and "key CODE" (a press), the
keyboard taken whenever the seat has one.

    layer-surface.py [--layer background|bottom|top|overlay] [--anchor EDGES]
                     [--size WIDTHxHEIGHT] [--zone PIXELS] [--margin PIXELS]
                     [--keyboard none|exclusive|on_demand] [--colour RRGGBB] [--count N]
                     [--keys LOG]

EDGES is a comma-separated list of top, bottom, left and right (by default
bottom,left,right); the size is 0x60 by default (0: stretched between the
anchors across it), the zone the height, the colour C08020.
Exits 1 when the display lacks the protocol or sends a protocol error.
"""
import argparse
import os
import select
import struct
import sys

from wire import Connection, encode_string, run, show

LAYERS = {"background": 0, "bottom": 1, "top": 2, "overlay": 3}
EDGES = {"top": 1, "bottom": 2, "left": 4, "right": 8}
KEYBOARD = {"none": 0, "exclusive": 1, "on_demand": 2}


class LayerSurface:
    """One layer surface: its wl_surface and zwlr_layer_surface_v1, the
    size it was last configured to, and whether it was closed."""

    def __init__(self, c, compositor, shell, options):
        self.c = c
        self.surface = c.new_id()
        c.send(compositor, 0, struct.pack("<I", self.surface))  # create_surface
        self.layer = c.new_id()
        arguments = struct.pack("<III", self.layer, self.surface, 0) + struct.pack("<I", LAYERS[options.layer])
        c.send(shell, 0, arguments + encode_string("splashd-test"))  # get_layer_surface, on no output
        width, height = options.size
        c.send(self.layer, 0, struct.pack("<II", width, height))  # set_size
        anchor = sum(EDGES[edge] for edge in options.anchor.split(",") if edge)
        c.send(self.layer, 1, struct.pack("<I", anchor))  # set_anchor
        zone = options.zone if options.zone is not None else height
        c.send(self.layer, 2, struct.pack("<i", zone))  # set_exclusive_zone
        margin = options.margin
        c.send(self.layer, 3, struct.pack("<iiii", margin, margin, margin, margin))  # set_margin
        c.send(self.layer, 4, struct.pack("<I", KEYBOARD[options.keyboard]))  # set_keyboard_interactivity
        self.configured = None
        self.closed = False
        c.handlers[self.layer] = self.event

    def event(self, opcode, body):
        if opcode == 0:
            serial, width, height = struct.unpack_from("<III", body)
            self.c.send(self.layer, 6, struct.pack("<I", serial))  # ack_configure
            self.configured = (width, height)
        elif opcode == 1:
            self.closed = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layer", choices=LAYERS, default="top")
    parser.add_argument("--anchor", default="bottom,left,right")
    parser.add_argument("--size", default="0x60", type=lambda text: tuple(int(n) for n in text.split("x")))
    parser.add_argument("--zone", type=int)
    parser.add_argument("--margin", type=int, default=0)
    parser.add_argument("--keyboard", choices=KEYBOARD, default="none")
    parser.add_argument("--colour", default="C08020", type=lambda text: int(text, 16))
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--keys", metavar="LOG")
    options = parser.parse_args()
    c = Connection()
    compositor = c.bind("wl_compositor", 4)
    shm = c.bind("wl_shm", 1)
    shell = c.bind("zwlr_layer_shell_v1", 4)
    surfaces = [LayerSurface(c, compositor, shell, options) for _ in range(options.count)]
    if options.keys:
        def say(line):
            with open(options.keys, "a") as log:
                log.write(line + "\n")

        def keyboard_event(opcode, body):
            if opcode == 1:
                say("enter")
            elif opcode == 2:
                say("leave")
            elif opcode == 3 and struct.unpack_from("<IIII", body)[3] == 1:
                say("key %d" % struct.unpack_from("<IIII", body)[2])

        seat = c.bind("wl_seat", 5)
        keyboard = None

        def seat_event(opcode, body):
            # The seat's keyboard taken whenever it has one (asked for
            # before, it is a protocol error), let go of when it has none.
            nonlocal keyboard
            if opcode != 0:
                return
            has_keyboard = struct.unpack_from("<I", body)[0] & 2 != 0
            if has_keyboard and keyboard is None:
                keyboard = c.new_id()
                c.send(seat, 1, struct.pack("<I", keyboard))  # get_keyboard
                c.handlers[keyboard] = keyboard_event
            elif not has_keyboard and keyboard is not None:
                c.send(keyboard, 0)  # release
                keyboard = None

        c.handlers[seat] = seat_event

    def show_all():
        # A configure may have come since the surfaces were unmapped
        # (answering the commit that unmapped them); else this commit
        # asks for one.
        for each in surfaces:
            if each.configured is None:
                c.send(each.surface, 6)
        c.roundtrip()
        for each in surfaces:
            if each.closed:
                print("closed", flush=True)
                continue
            while each.configured is None:
                c.roundtrip()
            width, height = each.configured
            show(c, shm, each.surface, width, height, options.colour)
        c.roundtrip()
        for each in surfaces:
            if not each.closed:
                print("shown %dx%d" % each.configured, flush=True)

    def lines():
        """Standard input's lines, the display's events read meanwhile."""
        pending = b""
        while True:
            # The events already read whole (by a roundtrip, or with the last).
            while len(c.received) >= 8 and len(c.received) >= struct.unpack_from("<HH", c.received, 4)[1]:
                c.event()
            readable, _, _ = select.select([sys.stdin.fileno(), c.socket], [], [])
            if c.socket in readable:
                c.event()
            if sys.stdin.fileno() in readable:
                chunk = os.read(sys.stdin.fileno(), 4096)
                if not chunk:
                    return
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    yield line.decode()

    show_all()
    for line in lines():
        command = line.strip()
        if command == "hide":
            for each in surfaces:
                each.configured = None
                if not each.closed:
                    c.send(each.surface, 1, struct.pack("<Iii", 0, 0, 0))  # attach no buffer
                    c.send(each.surface, 6)
            c.roundtrip()
            print("hidden", flush=True)
        elif command == "show":
            show_all()
        elif command.startswith("keyboard ") and command[9:] in KEYBOARD:
            for each in surfaces:
                if not each.closed:
                    c.send(each.layer, 4, struct.pack("<I", KEYBOARD[command[9:]]))  # set_keyboard_interactivity
                    c.send(each.surface, 6)  # commit
            c.roundtrip()
            print(command, flush=True)
        elif command == "quit":
            break


if __name__ == "__main__":
    run(main)
