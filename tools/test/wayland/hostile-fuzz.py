#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A seeded random walk of hostile requests against host mode's compositor,
for a bounded time (issue #41's stress test), on wire.py.

    hostile-fuzz.py SEED SECONDS REPORT

Run as the program: its own connection (WAYLAND_SOCKET) is well behaved, a
full-screen window of #208040 that draws a frame between batches and
answers pings, and must be there at the end. The walk runs on connections
of its own through WAYLAND_DISPLAY: surfaces and subsurfaces (chains, the
deepest often picked, leaf-first links, positions far outside the
picture, siblings re-stacked, sync and desync), pools (4 KiB to 64 MiB,
sparse; grown, destroyed early, their memory cut under the compositor),
buffers (random geometry, aliased offsets, destroyed while shown), damage
and regions in bursts of up to 50,000 and 100,000 rectangles, popups
(chains, role-less parents), layer surfaces (any layer, anchors, size,
zone and margins, the keyboard asked for, configures answered or not,
popups given to them, once or twice, moved between layers, destroyed),
frame callbacks and commits; in batches, each
ended by a round trip. A protocol error ends a walk's connection (the walk
asks for many things a client may not do, on purpose: each is counted by
its message) and a new one takes its place.

When SECONDS are over, the walk's connection is closed, the window draws
once more, and REPORT gets `name: value` lines: the seed, the requests
tried, commits, connections cut off (and by what), hangs (round trips of
more than 10 s), whether the program's window was lost and whether the
compositor crashed, and the compositor's figures (from /proc: this
program's parent): RSS before, after and at most, CPU time, CPU per commit.
Then it stays (the program runs on) until a signal ends it.
"""
import collections
import os
import random
import socket
import struct
import sys
import time

from wire import Connection, Window, encode_string, host_figures, report, stay

ARGB8888, XRGB8888 = 0, 1


class Walk:
    """One connection's random walk: the objects it made, by kind."""

    def __init__(self, rng):
        self.rng = rng
        self.c = Connection()
        self.c.socket.settimeout(10)
        self.compositor = self.c.bind("wl_compositor", 4)
        self.subcompositor = self.c.bind("wl_subcompositor", 1)
        self.shm = self.c.bind("wl_shm", 1)
        self.wm_base = self.c.bind("xdg_wm_base", 2)
        self.c.handlers[self.wm_base] = lambda opcode, body: opcode == 0 and self.c.queue(self.wm_base, 3, body[:4])
        self.layer_shell = self.c.bind("zwlr_layer_shell_v1", 4)
        self.surfaces = []          # wl_surface ids
        self.parent = {}            # subsurface's surface -> its parent surface
        self.subsurfaces = {}       # surface -> its wl_subsurface
        self.role = {}              # surface -> "sub", "xdg"
        self.xdg = {}               # surface -> its xdg_surface
        self.popups = []            # xdg_surface ids that are popups or toplevels
        self.popup_objects = []     # xdg_popup ids
        self.layers = {}            # surface -> its zwlr_layer_surface_v1
        self.roleless = set()       # surfaces whose xdg_surface has no role
        self.configured = set()     # xdg_surface ids configured (and acknowledged)
        self.attached = set()       # surfaces a buffer was attached to
        self.pools = []             # (pool id, memfd, size)
        self.buffers = []           # wl_buffer ids
        self.regions = []
        self.requests = 0
        self.commits = 0

    def send(self, target, opcode, arguments=b""):
        self.c.queue(target, opcode, arguments)
        self.requests += 1

    def new(self):
        return self.c.new_id()

    def pick(self, items):
        return self.rng.choice(items) if items else None

    def drawable(self):
        """A surface to draw on: mostly one that may be drawn on (not an
        xdg_surface without a role, nor one not configured yet)."""
        if self.rng.random() < 0.03:
            return self.pick(self.surfaces)
        return self.pick([s for s in self.surfaces
                          if s not in self.roleless and (s not in self.xdg or self.xdg[s] in self.configured)
                          and (s not in self.layers or self.layers[s] in self.configured)])

    def depth(self, surface):
        levels = 0
        while surface in self.parent and levels < 100:
            surface = self.parent[surface]
            levels += 1
        return levels

    # The actions, each a few requests (or a burst).

    def create_surface(self):
        surface = self.new()
        self.send(self.compositor, 0, struct.pack("<I", surface))
        self.surfaces.append(surface)

    def destroy_surface(self):
        surface = self.pick(self.surfaces)
        if surface is None:
            return
        if surface in self.subsurfaces:
            self.send(self.subsurfaces.pop(surface), 0)
        self.send(surface, 0)
        self.surfaces.remove(surface)
        self.parent.pop(surface, None)
        self.role.pop(surface, None)

    def subsurface(self):
        free = [s for s in self.surfaces if s not in self.role]
        if len(free) < 1 or len(self.surfaces) < 2:
            return
        child = self.pick(free)
        if self.rng.random() < 0.2 and self.parent:
            parent = max(self.parent, key=self.depth)  # the deepest
        else:
            parent = self.pick([s for s in self.surfaces if s != child])
        # Now and then a link that is not allowed (a cycle, a second role): on purpose.
        ancestor, levels = parent, 0
        while ancestor in self.parent and ancestor != child and levels < 100:
            ancestor = self.parent[ancestor]
            levels += 1
        if ancestor == child and self.rng.random() < 0.9:
            return
        subsurface = self.new()
        self.send(self.subcompositor, 1, struct.pack("<III", subsurface, child, parent))
        self.subsurfaces[child] = subsurface
        self.parent[child] = parent
        self.role[child] = "sub"

    def move(self):
        surface = self.pick(list(self.subsurfaces))
        if surface is None:
            return
        x, y = self.rng.choice([(2000, 2000), (-2000, 5), (1 << 30, -(1 << 30)), (self.rng.randint(-400, 400),
                                                                                   self.rng.randint(-400, 400))])
        self.send(self.subsurfaces[surface], 1, struct.pack("<ii", x, y))

    def restack(self):
        surface = self.pick(list(self.subsurfaces))
        if surface is None:
            return
        siblings = [s for s, p in self.parent.items() if p == self.parent[surface] and s != surface]
        sibling = self.pick(siblings + [self.parent[surface]])
        if self.rng.random() < 0.05:
            sibling = self.pick(self.surfaces)  # perhaps no sibling: on purpose
        self.send(self.subsurfaces[surface], self.rng.choice([2, 3]), struct.pack("<I", sibling))

    def sync(self):
        surface = self.pick(list(self.subsurfaces))
        if surface is not None:
            self.send(self.subsurfaces[surface], self.rng.choice([4, 5]))

    def pool(self):
        if len(self.pools) >= 24:
            self.destroy_pool()
        size = self.rng.choice([4096, 65536, 1 << 20, 8 << 20, 64 << 20])
        memory = os.memfd_create("fuzz")
        os.ftruncate(memory, size)  # sparse
        pool = self.new()
        self.c.flush()
        self.c.send(self.shm, 0, struct.pack("<Ii", pool, size), fd=memory)
        self.requests += 1
        self.pools.append((pool, memory, size))

    def destroy_pool(self):
        if not self.pools:
            return
        entry = self.pick(self.pools)
        self.pools.remove(entry)
        self.send(entry[0], 1)
        os.close(entry[1])

    def grow_pool(self):
        if not self.pools:
            return
        index = self.rng.randrange(len(self.pools))
        pool, memory, size = self.pools[index]
        grown = min(size * 2, 128 << 20)
        os.ftruncate(memory, grown)
        self.send(pool, 2, struct.pack("<i", grown))
        self.pools[index] = (pool, memory, grown)

    def cut_pool(self):
        # The memory under a pool cut to nothing: a read of it faults
        # (wl_shm catches it, and cuts the client off).
        if self.pools and self.rng.random() < 0.3:
            pool, memory, size = self.pick(self.pools)
            os.ftruncate(memory, 0)

    def buffer(self):
        if not self.pools:
            self.pool()
        pool, _, size = self.pick(self.pools)
        width = self.rng.choice([1, 16, 64, 320, 700, 2048, 16385 if self.rng.random() < 0.02 else 8])
        if width <= 16384:
            width = min(width, size // 4)
        stride = width * 4
        height = max(1, min(self.rng.choice([1, 16, 64, 240, 1024]), size // max(stride, 1)))
        offset = self.rng.choice([0, 0, 0, max(0, size - stride * height)])  # mostly aliased at 0
        buffer = self.new()
        self.send(pool, 0, struct.pack("<IiiiiI", buffer, offset, width, height, stride,
                                       self.rng.choice([ARGB8888, XRGB8888])))
        self.buffers.append(buffer)

    def destroy_buffer(self):
        buffer = self.pick(self.buffers)
        if buffer is not None:
            self.buffers.remove(buffer)
            self.send(buffer, 0)

    def attach(self):
        surface = self.drawable()
        if surface is None:
            return
        buffer = self.pick(self.buffers) if self.rng.random() < 0.9 else 0
        self.send(surface, 1, struct.pack("<Iii", buffer or 0, 0, 0))
        self.send(surface, 2, struct.pack("<iiii", 0, 0, 1 << 20, 1 << 20))
        self.attached.add(surface)
        self.commit(surface)

    def commit(self, surface=None):
        surface = surface or self.drawable()
        if surface is not None:
            if self.rng.random() < 0.3:
                self.send(surface, 3, struct.pack("<I", self.new()))  # frame
            self.send(surface, 6)
            self.commits += 1

    def damage(self):
        surface = self.drawable()
        if surface is None:
            return
        opcode = self.rng.choice([2, 9])
        count = self.rng.choice([1, 10, 1000, 50000])
        disjoint = self.rng.random() < 0.5
        for i in range(count):
            if disjoint:
                rect = (2 * i, 2 * i, 1, 1)
            else:
                rect = (self.rng.randint(-100, 400), self.rng.randint(-100, 400), self.rng.randint(0, 300),
                        self.rng.randint(0, 300))
            self.send(surface, opcode, struct.pack("<iiii", *rect))
        self.commit(surface)

    def region(self):
        region = self.new()
        self.send(self.compositor, 1, struct.pack("<I", region))
        count = self.rng.choice([1, 100, 10000, 100000])
        for i in range(count):
            self.send(region, self.rng.choice([1, 1, 2]), struct.pack("<iiii", 3 * i % 2000, 2 * i, 1, 1))
        surface = self.pick(self.surfaces)
        if surface is not None:
            self.send(surface, self.rng.choice([4, 5]), struct.pack("<I", region))
            self.commit(surface)
        self.send(region, 0)

    def configure(self, xdg, opcode, body):
        if opcode == 0:  # configure: acknowledged
            self.c.queue(xdg, 4, body[:4])
            self.configured.add(xdg)

    def popup(self):
        free = [s for s in self.surfaces if s not in self.role and (s not in self.attached or self.rng.random() < 0.03)]
        if not free:
            return
        surface = self.pick(free)
        xdg = self.new()
        self.send(self.wm_base, 2, struct.pack("<II", xdg, surface))
        self.c.handlers[xdg] = (lambda xdg: lambda opcode, body: self.configure(xdg, opcode, body))(xdg)
        self.role[surface] = "xdg"
        self.xdg[surface] = xdg
        # Role-less ones too (leaf-first chains), and now and then none: on purpose.
        parents = self.popups + [x for s, x in self.xdg.items() if x != xdg and s in self.roleless]
        if self.rng.random() < 0.1 and len(self.popups) < 4:
            self.send(xdg, 1, struct.pack("<I", self.new()))  # a toplevel
        elif (parents or self.rng.random() < 0.03) and self.rng.random() < 0.8:
            positioner = self.new()
            self.send(self.wm_base, 1, struct.pack("<I", positioner))
            self.send(positioner, 1, struct.pack("<ii", self.rng.randint(1, 400), self.rng.randint(1, 400)))
            self.send(positioner, 2, struct.pack("<iiii", self.rng.randint(-50, 300), self.rng.randint(-50, 300),
                                                 self.rng.randint(1, 50), self.rng.randint(1, 50)))
            parent = self.pick(parents) or 0
            if self.rng.random() < 0.3 and self.popups:
                parent = self.popups[-1]  # the chain's end
            popup = self.new()
            self.send(xdg, 2, struct.pack("<III", popup, parent, positioner))
            self.send(positioner, 0)
            self.popup_objects.append(popup)
        else:
            self.roleless.add(surface)  # a parent for a later popup
            return
        self.roleless.discard(surface)
        self.popups.append(xdg)
        self.commit(surface)

    def layer_configure(self, layer, opcode, body):
        if opcode == 0 and self.rng.random() < 0.95:  # configure: mostly acknowledged
            self.c.queue(layer, 6, body[:4])
            self.configured.add(layer)

    def layer(self):
        free = [s for s in self.surfaces if s not in self.role and s not in self.attached]
        if not free or len(self.layers) > 40:
            return
        surface = self.pick(free)
        layer = self.new()
        which = self.rng.choice([0, 1, 2, 3, 2, 3, 4 if self.rng.random() < 0.05 else 2])
        self.send(self.layer_shell, 0, struct.pack("<IIII", layer, surface, 0, which) + encode_string("walk"))
        self.c.handlers[layer] = (lambda layer: lambda opcode, body: self.layer_configure(layer, opcode, body))(layer)
        self.role[surface] = "layer"
        self.layers[surface] = layer
        self.layer_state(layer)
        self.commit(surface)

    def layer_state(self, layer=None):
        """Sets a layer surface's size, anchors, zone, margins and keyboard
        interactivity (each now and then out of bounds)."""
        layer = layer or self.pick(list(self.layers.values()))
        if layer is None:
            return
        big = [1, 60, 400, 5000, (1 << 31) - 1]
        width, height = self.rng.choice(big), self.rng.choice(big)
        if self.rng.random() < 0.4:
            width, height = 0, 0  # stretched: anchored all round, mostly
        self.send(layer, 0, struct.pack("<II", width, height))  # set_size
        anchor = 15 if width == 0 and self.rng.random() < 0.9 else self.rng.randint(0, 15)
        self.send(layer, 1, struct.pack("<I", anchor if self.rng.random() < 0.97 else 255))
        self.send(layer, 2, struct.pack("<i", self.rng.choice([-1, 0, 30, 60, 10000, (1 << 31) - 1, -(1 << 31)])))
        margins = [0, 5, -5, 10000, -(1 << 31), (1 << 31) - 1]
        self.send(layer, 3, struct.pack("<iiii", *[self.rng.choice(margins) for _ in range(4)]))
        self.send(layer, 4, struct.pack("<I", self.rng.choice([0, 1, 2, 0, 3 if self.rng.random() < 0.05 else 0])))
        if self.rng.random() < 0.3:
            self.send(layer, 8, struct.pack("<I", self.rng.randint(0, 3)))  # set_layer

    def layer_popup(self):
        layer = self.pick(list(self.layers.values()))
        popup = self.pick(self.popup_objects)
        if layer is None or popup is None:
            return
        self.send(layer, 5, struct.pack("<I", popup))  # get_popup: now and then one given before

    def destroy_layer(self):
        surface = self.pick(list(self.layers))
        if surface is None:
            return
        self.send(self.layers.pop(surface), 7)

    def batch(self, size):
        """`size` actions, queued and sent; then a round trip."""
        actions = [(self.create_surface, 12), (self.destroy_surface, 3), (self.subsurface, 10), (self.move, 4),
                   (self.restack, 2), (self.sync, 2), (self.pool, 2), (self.destroy_pool, 1), (self.grow_pool, 1),
                   (self.cut_pool, 1), (self.buffer, 5), (self.destroy_buffer, 2), (self.attach, 8),
                   (self.commit, 8), (self.damage, 2), (self.region, 1), (self.popup, 3), (self.layer, 2),
                   (self.layer_state, 2), (self.layer_popup, 1), (self.destroy_layer, 1)]
        functions = [a for a, _ in actions]
        weights = [w for _, w in actions]
        for action in self.rng.choices(functions, weights, k=size):
            action()
            if self.requests > 200000:
                break
        self.c.flush()
        self.c.roundtrip()

    def close(self):
        for _, memory, _ in self.pools:
            os.close(memory)
        self.c.socket.close()


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    seed, seconds, path = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    program = Connection()
    window = Window(program)
    before = host_figures()
    highest = before["rss_kib"]
    started = time.monotonic()
    requests = commits = frames = hangs = walks = 0
    cuts = collections.Counter()
    lost = crashed = False
    walk = None
    while time.monotonic() - started < seconds:
        try:
            if walk is None:
                walk = Walk(rng)
                walks += 1
            sent, committed = walk.requests, walk.commits
            try:
                walk.batch(rng.choice([20, 100, 300]))
            finally:
                requests += walk.requests - sent
                commits += walk.commits - committed
        except socket.timeout:
            hangs += 1
            if walk is not None:
                walk.close()
            walk = None
        except (OSError, ConnectionError) as error:
            text = str(error)
            if "protocol error" not in text and walk is not None:
                text = walk.c.error()
            # The message without its object ids: what it was cut off for.
            reason = text.split(": ", 1)[-1] if "protocol error" in text else "closed: " + text
            cuts["".join(ch for ch in reason if not ch.isdigit())[:90]] += 1
            if walk is not None:
                walk.close()
            walk = None
        figures = host_figures()
        if figures is None:
            crashed = True
            break
        highest = max(highest, figures["rss_kib"])
        try:
            window.frame()
            frames += 1
        except (OSError, ConnectionError):
            lost = True
            break
    if walk is not None:
        walk.close()
    if not lost and not crashed:
        try:
            window.frame()
            window.frame()
            frames += 2
        except (OSError, ConnectionError):
            lost = True
    after = host_figures()
    crashed = crashed or after is None
    lines = [("seed", seed), ("seconds", "%.1f" % (time.monotonic() - started)), ("inputs_tried", requests),
             ("commits", commits + frames), ("walks", walks), ("cut_off", sum(cuts.values())), ("hangs", hangs),
             ("programs_lost", int(lost)), ("crashes", int(crashed))]
    if not crashed:
        cpu = after["cpu_s"] - before["cpu_s"]
        lines += [("host_rss_before_kib", before["rss_kib"]), ("host_rss_after_kib", after["rss_kib"]),
                  ("host_rss_most_kib", highest), ("host_cpu_s", "%.2f" % cpu),
                  ("host_cpu_per_commit_ms", "%.3f" % (cpu * 1000 / max(1, commits + frames)))]
    lines += [("cut_for", "%d x %s" % (count, reason)) for reason, count in cuts.most_common()]
    report(path, lines)
    stay()


if __name__ == "__main__":
    main()
