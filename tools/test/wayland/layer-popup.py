#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A hostile client of wlr-layer-shell's popups: on the Wayland display the
environment names, it shows a layer surface (a band at the bottom), makes
an xdg popup without a parent and gives it to the band
(zwlr_layer_surface_v1.get_popup), then, by CASE:

    layer-popup.py twice    gives it to the band a second time
    layer-popup.py inert    unmaps the band (which destroys the popup) and
                            gives the inert popup to the band again
    layer-popup.py orphan   gives a second popup to a second layer surface
                            that is never mapped, destroys that surface,
                            then the popup
    layer-popup.py orphan-child
                            gives a second popup to a second layer surface
                            that is never mapped, destroys that surface,
                            then makes and commits a popup of that popup

and prints the protocol error the compositor answered with ("refused:
..."), or "served" when it answered none. Or

    layer-popup.py offscreen
                            gives the band a popup (40x20, 4080FF) placed
                            under its bottom edge, flippable above, and
                            that popup a popup (FF40C0) placed 10 rows
                            under its own bottom edge, flippable too;
                            prints "shown X,Y" and "nested X,Y", where
                            the compositor put each (relative to its
                            parent), and keeps them until its standard
                            input has a line or ends.

Exits 1 when the connection fails otherwise.
"""
import struct
import sys

from wire import Connection, encode_string, run, show


def main():
    case = sys.argv[1]
    c = Connection()
    compositor = c.bind("wl_compositor", 4)
    shm = c.bind("wl_shm", 1)
    wm_base = c.bind("xdg_wm_base", 1)
    shell = c.bind("zwlr_layer_shell_v1", 4)

    def layer_surface():
        surface = c.new_id()
        c.send(compositor, 0, struct.pack("<I", surface))
        layer = c.new_id()
        c.send(shell, 0, struct.pack("<IIII", layer, surface, 0, 2) + encode_string("hostile"))
        c.send(layer, 0, struct.pack("<II", 0, 60))  # set_size
        c.send(layer, 1, struct.pack("<I", 2 | 4 | 8))  # set_anchor: bottom, left, right
        return surface, layer

    def popup(below=None, parent=0):
        """A popup 40x20; with `below` (Y), placed under the anchor
        rectangle (0, Y, 10, 10) and flipped above it when it does not fit;
        `parent` its parent's xdg_surface (0: none). Its ids."""
        surface = c.new_id()
        c.send(compositor, 0, struct.pack("<I", surface))
        xdg = c.new_id()
        c.send(wm_base, 2, struct.pack("<II", xdg, surface))  # get_xdg_surface
        positioner = c.new_id()
        c.send(wm_base, 1, struct.pack("<I", positioner))  # create_positioner
        c.send(positioner, 1, struct.pack("<ii", 40, 20))  # set_size
        c.send(positioner, 2, struct.pack("<iiii", 0, below or 0, 10, 10))  # set_anchor_rect
        if below is not None:
            c.send(positioner, 3, struct.pack("<I", 6))  # set_anchor: bottom_left
            c.send(positioner, 4, struct.pack("<I", 8))  # set_gravity: bottom_right
            c.send(positioner, 5, struct.pack("<I", 8))  # set_constraint_adjustment: flip_y
        made = c.new_id()
        c.send(xdg, 2, struct.pack("<III", made, parent, positioner))  # get_popup
        return made, xdg, surface

    def shown(popup_ids, colour):
        """Commits a popup, answers its configure and shows it in `colour`;
        its place (x, y) as the compositor configured it."""
        made, xdg, surface = popup_ids
        place = []
        serials = []
        c.handlers[made] = lambda opcode, body: opcode == 0 and place.append(struct.unpack_from("<ii", body))
        c.handlers[xdg] = lambda opcode, body: opcode == 0 and serials.append(struct.unpack_from("<I", body)[0])
        c.send(surface, 6)  # commit: configure me
        while not serials:
            c.roundtrip()
        c.send(xdg, 4, struct.pack("<I", serials[-1]))  # ack_configure
        show(c, shm, surface, 40, 20, colour)
        c.roundtrip()
        return place[-1]

    surface, band = layer_surface()
    configured = []
    c.handlers[band] = lambda opcode, body: opcode == 0 and configured.append(struct.unpack_from("<III", body))
    c.send(surface, 6)
    while not configured:
        c.roundtrip()
    serial, width, height = configured[-1]
    c.send(band, 6, struct.pack("<I", serial))  # ack_configure
    show(c, shm, surface, width, height, 0xC08020)
    if case == "offscreen":
        # Under the band's bottom (its 60th row), off the screen unless flipped.
        menu = popup(below=50)
        c.send(band, 5, struct.pack("<I", menu[0]))  # get_popup
        print("shown %d,%d" % shown(menu, 0x4080FF), flush=True)
        # A menu of that menu, its anchor 10 rows above the menu's bottom.
        submenu = popup(below=10, parent=menu[1])
        print("nested %d,%d" % shown(submenu, 0xFF40C0), flush=True)
        sys.stdin.readline()
        return
    first = popup()[0]
    c.send(band, 5, struct.pack("<I", first))  # get_popup
    c.roundtrip()
    try:
        if case == "twice":
            c.send(band, 5, struct.pack("<I", first))
        elif case == "inert":
            c.send(surface, 1, struct.pack("<Iii", 0, 0, 0))  # attach no buffer: unmapped
            c.send(surface, 6)
            c.roundtrip()
            c.send(band, 5, struct.pack("<I", first))
        elif case == "orphan":
            _, unmapped = layer_surface()
            second = popup()[0]
            c.send(unmapped, 5, struct.pack("<I", second))
            c.send(unmapped, 7)  # destroy
            c.send(second, 0)  # the popup's destroy
        elif case == "orphan-child":
            _, unmapped = layer_surface()
            second = popup()
            c.send(unmapped, 5, struct.pack("<I", second[0]))  # get_popup
            c.send(unmapped, 7)  # destroy
            c.roundtrip()
            child = popup(parent=second[1])
            c.send(child[2], 6)  # commit
        c.roundtrip()
        c.roundtrip()
    except ConnectionError as error:
        print("refused: %s" % error, flush=True)
        return
    print("served", flush=True)


if __name__ == "__main__":
    run(main)
