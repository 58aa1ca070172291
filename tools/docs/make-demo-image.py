#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws Config/splashd-demo.png, the bundled demo splash: a pair of panelled
doors with an emblem split down the middle. Standard library only, so the
picture can be remade anywhere: python3 tools/docs/make-demo-image.py OUT.png"""
import math
import struct
import sys
import zlib

W, H = 1920, 1080
CX = W // 2


def mix(a, b, t):
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


TOP, BOTTOM = (38, 70, 112), (12, 24, 44)
PANEL, BEVEL_LIGHT, BEVEL_DARK = (48, 88, 136), (92, 140, 196), (10, 20, 38)
GOLD, GOLD_DARK = (232, 176, 74), (150, 104, 30)

rows = []
for y in range(H):
    base = mix(TOP, BOTTOM, y / (H - 1))
    row = [base] * W
    rows.append(row)


def rect(x0, y0, x1, y1, color):
    for y in range(max(y0, 0), min(y1, H)):
        r = rows[y]
        for x in range(max(x0, 0), min(x1, W)):
            r[x] = color


def panel(x0, y0, x1, y1):
    bevel = 10
    rect(x0, y0, x1, y1, BEVEL_LIGHT)
    rect(x0 + bevel, y0 + bevel, x1, y1, BEVEL_DARK)
    for y in range(y0 + bevel, y1 - bevel):
        shade = mix(PANEL, mix(PANEL, BOTTOM, 0.5), (y - y0) / (y1 - y0))
        rect(x0 + bevel, y, x1 - bevel, y + 1, shade)


def disc(cx, cy, r_outer, r_inner, color):
    """An anti-aliased ring (or disc when r_inner is 0)."""
    for y in range(int(cy - r_outer - 2), int(cy + r_outer + 3)):
        for x in range(int(cx - r_outer - 2), int(cx + r_outer + 3)):
            d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
            cover = min(max(r_outer - d + 0.5, 0), 1) * min(max(d - r_inner + 0.5, 0), 1)
            if cover > 0:
                rows[y][x] = mix(rows[y][x], color, cover)


# Two leaves, each with an upper and a lower panel.
for x0 in (70, CX + 70):
    panel(x0, 80, x0 + CX - 140, 470)
    panel(x0, 610, x0 + CX - 140, H - 80)
# The emblem, cut in half by the seam.
disc(CX, 540, 200, 0, BOTTOM)
disc(CX, 540, 190, 160, GOLD)
disc(CX, 540, 150, 0, mix(GOLD, BOTTOM, 0.75))
disc(CX, 540, 70, 0, GOLD)
# Handles beside the seam.
for hx in (CX - 46, CX + 46):
    disc(hx, 800, 18, 0, GOLD_DARK)
    disc(hx, 798, 14, 0, GOLD)
# The seam.
rect(CX - 2, 0, CX + 2, H, BEVEL_DARK)

raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in rows)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
with open(sys.argv[1] if len(sys.argv) > 1 else "Config/splashd-demo.png", "wb") as f:
    f.write(png)
