#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Converts a PNG to a binary PPM (P6), as QEMU's screendump writes: the
tests compare splashctl's snapshots with screendumps through one reader."""
import sys

from PIL import Image

if len(sys.argv) != 3:
    sys.exit("usage: png-to-ppm.py IN.png OUT.ppm")
Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2], "PPM")
