#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile Wayland clients for host mode's tests, each after one of the
ways a client once harmed its compositor (issue #41), on wire.py. Run as
the program (WAYLAND_SOCKET) or through WAYLAND_DISPLAY; each shows a
window of #208040 first (but conns and connections), does its harm, writes
what came of it to REPORT as `name: value` lines (the compositor's figures
among them, read from /proc: it is this client's parent, or HOST_PID), and
then stays (the program runs on) until a signal ends it.

    hostile-client.py nest REPORT LEVELS [leaf-first]
        LEVELS subsurfaces, each under the last (leaf-first: each over the
        last, the chain then put under the window), each committed, then
        the window committed: the synchronized nest applied at once.
    hostile-client.py popups REPORT LEVELS
        LEVELS popups, each the child of the last (the first the window's).
    hostile-client.py offscreen REPORT SUBSURFACES FRAMES
        SUBSURFACES subsurfaces of 64x64 at 2000,2000, outside the picture,
        then FRAMES frames of the window (each waited for); the
        compositor's memory after a tenth of them and at the end.
    hostile-client.py aliased REPORT MIB COUNT
        COUNT buffers, all at the start of one pool of MIB MiB that nothing
        was written to, shown at once (the window's and subsurfaces'), then
        every wl_buffer destroyed while shown.
    hostile-client.py wide REPORT WIDTH
        one buffer WIDTH pixels wide and 1 high, shown.
    hostile-client.py rects REPORT DAMAGE REGION
        DAMAGE disjoint damage rectangles (then as many damage_buffer), and
        a wl_region of REGION made the window's input and opaque regions,
        each committed; the compositor's CPU time for each.
    hostile-client.py pools REPORT MIB COUNT
        COUNT frames, each from a pool of its own of MIB MiB, no pool ever
        destroyed; the compositor's address space before and after.
    hostile-client.py window REPORT
        the window alone: a well-behaved program.
    hostile-client.py conns REPORT COUNT
        a connection to WAYLAND_DISPLAY that pins ~1,000 of the
        compositor's descriptors (sent with a message it never finishes),
        then COUNT more connections, all held open, no request sent.
    hostile-client.py connections REPORT COUNT
        COUNT connections from this one process, each asking for the
        registry: how many the compositor served, how many it refused.

`outcome` says how it ended: `served`, or `cut off: ` and the protocol
error (or the closed connection) that ended the client.
"""
import array
import mmap
import os
import socket
import struct
import sys
import time

from wire import Connection, Window, host_figures, report, stay

XRGB8888 = 1


def cpu_since(before):
    """The compositor's CPU seconds since `before` (its figures then), or
    why there are none."""
    after = host_figures()
    if before is None or after is None:
        return "the compositor is gone"
    return "%.3f" % (after["cpu_s"] - before["cpu_s"])


def cut_off(connection, error):
    """The outcome of a client cut off: the protocol error the compositor
    sent, if it is still there to read."""
    text = str(error)
    if "protocol error" not in text:
        text = connection.error()
    return "cut off: " + text


def nest(path, levels, leaf_first=False):
    c = Connection()
    window = Window(c)
    subcompositor = c.bind("wl_subcompositor", 1)
    c.roundtrip()
    surfaces = []
    for _ in range(levels):
        surface = c.new_id()
        c.queue(window.compositor, 0, struct.pack("<I", surface))
        surfaces.append(surface)
    started = time.monotonic()
    before = host_figures()
    outcome = "served"
    try:
        if leaf_first:
            # Each new surface the parent of the chain so far (a root then).
            links = [(surfaces[i - 1], surfaces[i]) for i in range(1, levels)]
            links.append((surfaces[-1], window.surface))
        else:
            links = [(surfaces[0], window.surface)] + [(surfaces[i], surfaces[i - 1]) for i in range(1, levels)]
        for child, parent in links:
            c.queue(subcompositor, 1, struct.pack("<III", c.new_id(), child, parent))
            c.queue(child, 6)  # commit: cached, the subsurface being synchronized
        c.queue(window.surface, 6)
        c.flush()
        c.roundtrip()
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    report(path, [("levels", levels), ("order", "leaf-first" if leaf_first else "top-down"),
                  ("seconds", "%.3f" % (time.monotonic() - started)), ("host_cpu_s", cpu_since(before)),
                  ("outcome", outcome)])


def popups(path, levels):
    c = Connection()
    window = Window(c)
    parent = window.xdg
    outcome = "served"
    try:
        for _ in range(levels):
            surface = c.new_id()
            c.queue(window.compositor, 0, struct.pack("<I", surface))
            xdg = c.new_id()
            c.queue(window.wm_base, 2, struct.pack("<II", xdg, surface))
            positioner = c.new_id()
            c.queue(window.wm_base, 1, struct.pack("<I", positioner))
            c.queue(positioner, 1, struct.pack("<ii", 10, 10))  # set_size
            c.queue(positioner, 2, struct.pack("<iiii", 0, 0, 1, 1))  # set_anchor_rect
            c.queue(xdg, 2, struct.pack("<III", c.new_id(), parent, positioner))  # get_popup
            c.queue(positioner, 0)
            c.queue(surface, 6)
            parent = xdg
        c.flush()
        c.roundtrip()
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    report(path, [("levels", levels), ("outcome", outcome)])


def offscreen(path, count, frames):
    c = Connection()
    window = Window(c)
    subcompositor = c.bind("wl_subcompositor", 1)
    memory = os.memfd_create("offscreen")
    os.ftruncate(memory, 64 * 64 * 4)
    pool = c.new_id()
    c.send(window.shm, 0, struct.pack("<Ii", pool, 64 * 64 * 4), fd=memory)
    os.close(memory)
    buffer = c.new_id()
    c.send(pool, 0, struct.pack("<IiiiiI", buffer, 0, 64, 64, 256, XRGB8888))
    for _ in range(count):
        surface = c.new_id()
        c.queue(window.compositor, 0, struct.pack("<I", surface))
        subsurface = c.new_id()
        c.queue(subcompositor, 1, struct.pack("<III", subsurface, surface, window.surface))
        c.queue(subsurface, 1, struct.pack("<ii", 2000, 2000))  # set_position: outside the picture
        c.queue(surface, 1, struct.pack("<Iii", buffer, 0, 0))
        c.queue(surface, 6)
    c.flush()
    c.roundtrip()
    outcome = "served"
    first = last = None
    shown = 0
    try:
        for shown in range(1, frames + 1):
            window.frame()
            if shown == max(1, frames // 10):
                first = host_figures()
        last = host_figures()
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    lines = [("subsurfaces", count), ("frames", shown), ("outcome", outcome)]
    if first and last:
        lines += [("first_frame_counted", max(1, frames // 10)), ("host_rss_first_kib", first["rss_kib"]),
                  ("host_rss_last_kib", last["rss_kib"]),
                  ("host_cpu_per_frame_ms", "%.3f" % ((last["cpu_s"] - first["cpu_s"]) * 1000 /
                                                      max(1, frames - frames // 10)))]
    report(path, lines)


def aliased(path, mib, count):
    c = Connection()
    window = Window(c)
    subcompositor = c.bind("wl_subcompositor", 1)
    size = mib << 20
    side = 1
    while (side * 2) * (side * 2) * 4 <= size:
        side *= 2
    memory = os.memfd_create("aliased")
    os.ftruncate(memory, size)  # sparse: nothing written
    pool = c.new_id()
    c.send(window.shm, 0, struct.pack("<Ii", pool, size), fd=memory)
    os.close(memory)
    surfaces = [window.surface]
    for _ in range(count - 1):
        surface = c.new_id()
        c.queue(window.compositor, 0, struct.pack("<I", surface))
        c.queue(subcompositor, 1, struct.pack("<III", c.new_id(), surface, window.surface))
        surfaces.append(surface)
    buffers = []
    for surface in surfaces:
        buffer = c.new_id()
        c.queue(pool, 0, struct.pack("<IiiiiI", buffer, 0, side, side, side * 4, XRGB8888))  # all at 0
        c.queue(surface, 1, struct.pack("<Iii", buffer, 0, 0))
        c.queue(surface, 2, struct.pack("<iiii", 0, 0, side, side))
        buffers.append(buffer)
    for surface in surfaces[1:]:
        c.queue(surface, 6)
    c.flush()
    outcome = "served"
    try:
        window.frame()  # the window and its subsurfaces shown
        before = host_figures()
        for buffer in buffers:
            c.queue(buffer, 0)  # wl_buffer.destroy, while shown
        c.flush()
        c.roundtrip()
        window.frame()
        after = host_figures()
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
        before = after = None
    lines = [("buffers", count), ("buffer_side", side), ("pool_mib", mib), ("outcome", outcome)]
    if before and after:
        lines += [("host_rss_before_kib", before["rss_kib"]), ("host_rss_after_kib", after["rss_kib"])]
    report(path, lines)


def wide(path, width):
    c = Connection()
    window = Window(c)
    memory = os.memfd_create("wide")
    os.ftruncate(memory, width * 4)
    pool = c.new_id()
    c.send(window.shm, 0, struct.pack("<Ii", pool, width * 4), fd=memory)
    os.close(memory)
    buffer = c.new_id()
    outcome = "served"
    try:
        c.send(pool, 0, struct.pack("<IiiiiI", buffer, 0, width, 1, width * 4, XRGB8888))
        c.send(window.surface, 1, struct.pack("<Iii", buffer, 0, 0))
        window.frame()
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    report(path, [("width", width), ("outcome", outcome)])


def rects(path, damage, region):
    c = Connection()
    window = Window(c)
    lines = []
    outcome = "served"

    def timed(name, requests):
        before = host_figures()
        started = time.monotonic()
        for target, opcode, arguments in requests:
            c.queue(target, opcode, arguments)
        c.flush()
        c.roundtrip()
        lines.append((name + "_seconds", "%.3f" % (time.monotonic() - started)))
        lines.append((name + "_host_cpu_s", cpu_since(before)))

    # Disjoint 1x1 rectangles on a diagonal: each a band of its own.
    def diagonal(target, opcode, count):
        return [(target, opcode, struct.pack("<iiii", 2 * i, 2 * i, 1, 1)) for i in range(count)]

    s = window.surface
    try:
        timed("damage", diagonal(s, 2, damage) + [(s, 6, b"")])
        timed("damage_buffer", diagonal(s, 9, damage) + [(s, 6, b"")])
        r = c.new_id()
        c.send(window.compositor, 1, struct.pack("<I", r))
        timed("region", diagonal(r, 1, region))
        timed("regions_set", [(s, 5, struct.pack("<I", r)), (s, 4, struct.pack("<I", r)), (s, 6, b"")])
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    report(path, [("damage_rects", damage), ("region_rects", region)] + lines + [("outcome", outcome)])


def pools(path, mib, count):
    c = Connection()
    window = Window(c)
    size = mib << 20
    before = host_figures()
    peak = before["vm_kib"]
    outcome = "served"
    made = 0
    try:
        for made in range(1, count + 1):
            memory = os.memfd_create("pool")
            os.ftruncate(memory, size)
            with mmap.mmap(memory, window.width * window.height * 4) as pixels:
                pixels.write(struct.pack("<I", 0x208040) * (window.width * window.height))
            pool = c.new_id()
            c.send(window.shm, 0, struct.pack("<Ii", pool, size), fd=memory)
            os.close(memory)
            buffer = c.new_id()
            c.queue(pool, 0, struct.pack("<IiiiiI", buffer, 0, window.width, window.height, window.width * 4,
                                         XRGB8888))
            c.queue(window.surface, 1, struct.pack("<Iii", buffer, 0, 0))
            window.frame()
            figures = host_figures()
            peak = max(peak, figures["vm_kib"] if figures else 0)
    except (OSError, ConnectionError) as error:
        outcome = cut_off(c, error)
    time.sleep(0.5)  # the compositor unmaps what the client had once it is gone
    after = host_figures()
    report(path, [("pool_mib", mib), ("pools_made", made), ("outcome", outcome),
                  ("host_vm_before_kib", before["vm_kib"]), ("host_vm_peak_kib", peak),
                  ("host_vm_after_kib", after["vm_kib"] if after else "the compositor is gone")])


def display_path():
    display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
    return display if display.startswith("/") else os.path.join(os.environ["XDG_RUNTIME_DIR"], display)


def window(path):
    Window(Connection())
    report(path, [("outcome", "served")])


def conns(path, count):
    held = []
    refused = 0
    # libwayland keeps the descriptors sent with a message until the
    # message is whole: 36 sends of one byte, 28 descriptors each (all it
    # reads at once), of a message 257 bytes long.
    pin = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    pin.connect(display_path())
    memory = os.memfd_create("pin")
    pinned = 0
    for _ in range(36):
        try:
            pin.sendmsg([b"\x01"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [memory] * 28))])
            pinned += 28
        except OSError:
            break
    os.close(memory)
    held.append(pin)
    for _ in range(count):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect(display_path())
            held.append(s)
        except (BlockingIOError, ConnectionRefusedError, OSError):
            refused += 1
            s.close()
    report(path, [("descriptors_sent", pinned), ("connections", len(held)), ("refused", refused)])
    stay()


def connections(path, count):
    held = []
    refused = 0
    for _ in range(count):
        try:
            c = Connection()
            c.roundtrip()
            held.append(c)
        except (OSError, ConnectionError):
            refused += 1
    # Once more on each: one cut off after its first round trip is refused too.
    served = 0
    for c in held:
        try:
            c.roundtrip()
            served += 1
        except (OSError, ConnectionError):
            refused += 1
    report(path, [("served", served), ("refused", refused)])
    stay()


def main():
    modes = {"nest": (nest, 1), "popups": (popups, 1), "offscreen": (offscreen, 2), "aliased": (aliased, 2), "wide": (wide, 1), "rects": (rects, 2),
             "pools": (pools, 2), "window": (window, 0), "conns": (conns, 1), "connections": (connections, 1)}
    if len(sys.argv) < 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    function, numbers = modes[sys.argv[1]]
    arguments = [int(value) for value in sys.argv[3:3 + numbers]]
    if sys.argv[1] == "nest":
        arguments.append(sys.argv[4:5] == ["leaf-first"])
    function(sys.argv[2], *arguments)
    stay()


if __name__ == "__main__":
    main()
