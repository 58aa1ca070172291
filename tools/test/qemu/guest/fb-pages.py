#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Framebuffer helpers for the QEMU rig's guest.

    fb-pages.py double DEVICE        make the virtual screen two pages tall
                                     (FBIOPUT_VSCREENINFO), as fbset -vyres would
    fb-pages.py dump DEVICE OUT.ppm  write the whole virtual screen as a PPM (by
                                     the mode's bitfields, 32 bpp) and the row
                                     shown to OUT.ppm.row
"""
import fcntl, struct, sys

FBIOGET_VSCREENINFO, FBIOPUT_VSCREENINFO, FBIOGET_FSCREENINFO = 0x4600, 0x4601, 0x4602
command, device = sys.argv[1], sys.argv[2]
f = open(device, "rb")
var = bytearray(160)
fcntl.ioctl(f, FBIOGET_VSCREENINFO, var)
xres, yres, xvirtual, yvirtual, xoffset, yoffset, bpp = struct.unpack_from("7I", var)
if command == "double":
    struct.pack_into("I", var, 12, 2 * yres)
    fcntl.ioctl(f, FBIOPUT_VSCREENINFO, var)
elif command == "dump":
    fields = [struct.unpack_from("2I", var, 32 + 12 * i) for i in range(3)]
    fix = bytearray(80)
    fcntl.ioctl(f, FBIOGET_FSCREENINFO, fix)
    line = struct.unpack_from("I", fix, 48)[0]
    data = f.read(line * yvirtual)
    out = bytearray()
    for y in range(yvirtual):
        for x in range(xvirtual):
            pixel = int.from_bytes(data[y * line + x * 4:y * line + x * 4 + 4], "little")
            out += bytes((pixel >> offset) & 0xFF for offset, _ in fields)
    open(sys.argv[3], "wb").write(b"P6\n%d %d\n255\n" % (xvirtual, yvirtual) + out)
    open(sys.argv[3] + ".row", "w").write("%d\n" % yoffset)
else:
    sys.exit(__doc__)
