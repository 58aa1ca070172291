#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Pictures made to break a picture reader, for splashd's reliability tests.

    make-hostile-pictures.py DIR

Writes into DIR a valid small picture in every format splashd decodes (PNG,
JPEG, GIF, BMP, TIFF, TGA, WebP, QOI, PNM, PCX), and for each of them
hostile variants: cut short (at half, and just after the header), bit-flipped
(three seeded ways), and lying headers (declaring 16384x16384, 0x0, a size
within the budget that the data does not fill). Then the cases found by
hand: a BMP whose width is 0x80000000, a 1x1 picture, a legal 16384x16384
PNG, a 128-byte PNG declaring 16384x16384, a JPEG and a TIFF declaring
16384x16384, and files that are pictures of nothing. Prints one line per
file: NAME TAB EXPECTED, EXPECTED being "shows" (it must show), or "refused"
(it must be refused with a clear line) or "either" (corrupt data a decoder
may still make something of). Needs Pillow (Debian's python3-pil) for JPEG,
GIF, TIFF and WebP; everything is seeded, so the set is the same each time.
"""
import io
import os
import random
import struct
import sys
import zlib

from PIL import Image

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
listing = []


def put(name, data, expected):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    listing.append((name, expected))


def picture(width=48, height=32):
    image = Image.new("RGB", (width, height))
    image.putdata([((x * 5) & 255, (y * 7) & 255, (x + y) & 255) for y in range(height) for x in range(width)])
    return image


def saved(image, format, **options):
    buffer = io.BytesIO()
    image.save(buffer, format=format, **options)
    return buffer.getvalue()


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, rows=None):
    """An 8-bit RGB PNG; `rows` the raw filtered rows (all black by default), streamed."""
    compressor = zlib.compressobj(6)
    body = b""
    if rows is None:
        row = b"\0" + b"\0" * (3 * width)
        for _ in range(height):
            body += compressor.compress(row)
    else:
        body = compressor.compress(rows)
    body += compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", body) + png_chunk(b"IEND", b"")


def qoi(image):
    """QOI, written with QOI_OP_RGB chunks only."""
    width, height = image.size
    data = b"qoif" + struct.pack(">IIBB", width, height, 3, 0)
    for r, g, b in image.getdata():
        data += bytes([0xFE, r, g, b])
    return data + b"\0" * 7 + b"\1"


def pcx(image):
    """An 8-bit, three-plane PCX, run-length encoded as the format demands."""
    width, height = image.size
    header = struct.pack("<BBBBHHHHHH", 10, 5, 1, 8, 0, 0, width - 1, height - 1, 72, 72)
    header += b"\0" * 48 + bytes([0, 3]) + struct.pack("<HH", width + (width & 1), 1) + b"\0" * 58
    body = b""
    pixels = list(image.getdata())
    for y in range(height):
        for plane in range(3):
            for x in range(width + (width & 1)):
                value = pixels[y * width + x][plane] if x < width else 0
                body += bytes([0xC1, value]) if value >= 0xC0 else bytes([value])
    return header + body


base = picture()
valid = {
    "png": png(48, 32, b"".join(b"\0" + bytes(v for p in list(base.getdata())[y * 48:(y + 1) * 48] for v in p)
                                   for y in range(32))),
    "jpg": saved(base, "JPEG", quality=90),
    "gif": saved(base.convert("P"), "GIF"),
    "bmp": saved(base, "BMP"),
    "tif": saved(base, "TIFF"),
    "tga": saved(base, "TGA"),
    "webp": saved(base, "WEBP", lossless=True),
    "qoi": qoi(base),
    "pnm": saved(base, "PPM"),
    "pcx": pcx(base),
}
for ext, data in valid.items():
    put("valid." + ext, data, "shows")

# Where each format keeps its size, to lie with (offset, packer).
def size_setter(ext, data):
    def be32(offset):
        return lambda d, w, h: d[:offset] + struct.pack(">II", w, h) + d[offset + 8:]

    if ext == "png":
        def set_png(d, w, h):
            header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
            return d[:8] + png_chunk(b"IHDR", header) + d[33:]
        return set_png
    if ext == "qoi":
        return be32(4)
    if ext == "bmp":
        return lambda d, w, h: d[:18] + struct.pack("<ii", w, h) + d[26:]
    if ext == "gif":
        return lambda d, w, h: d[:6] + struct.pack("<HH", min(w, 65535), min(h, 65535)) + d[10:]
    if ext == "tga":
        return lambda d, w, h: d[:12] + struct.pack("<HH", min(w, 65535), min(h, 65535)) + d[16:]
    if ext == "pcx":
        # xmin, ymin, xmax, ymax: a side is max - min + 1 (0 when min = 1, max = 0).
        return lambda d, w, h: d[:4] + struct.pack(
            "<HHHH", 0 if w else 1, 0 if h else 1, max(w - 1, 0) & 0xFFFF, max(h - 1, 0) & 0xFFFF) + d[12:]
    if ext == "jpg":
        def set_jpeg(d, w, h):
            i = 2
            while i + 9 < len(d):
                marker = d[i + 1]
                if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                    return d[:i + 5] + struct.pack(">HH", min(h, 65535), min(w, 65535)) + d[i + 9:]
                i += 2 + struct.unpack(">H", d[i + 2:i + 4])[0]
            return d
        return set_jpeg
    if ext == "webp":
        return lambda d, w, h: d[:21] + struct.pack("<I", ((max(w, 1) - 1) & 0x3FFF) | (((max(h, 1) - 1) & 0x3FFF) << 14)
                                                   | (struct.unpack("<I", d[21:25])[0] & 0xF0000000)) + d[25:]
    if ext == "pnm":
        return lambda d, w, h: b"P6\n%d %d\n255\n" % (w, h) + d[d.index(b"255\n") + 4:]
    if ext == "tif":
        def set_tiff(d, w, h):
            little = d[:2] == b"II"
            e = "<" if little else ">"
            (ifd,) = struct.unpack(e + "I", d[4:8])
            (count,) = struct.unpack(e + "H", d[ifd:ifd + 2])
            d = bytearray(d)
            for n in range(count):
                entry = ifd + 2 + 12 * n
                tag, kind = struct.unpack(e + "HH", d[entry:entry + 4])
                if tag in (256, 257):
                    value = w if tag == 256 else h
                    if kind == 3:
                        d[entry + 8:entry + 10] = struct.pack(e + "H", min(value, 65535))
                    else:
                        d[entry + 8:entry + 12] = struct.pack(e + "I", value)
            return bytes(d)
        return set_tiff
    return None


random.seed(20261201)
for ext, data in valid.items():
    put("half." + ext, data[:len(data) // 2], "either")
    # Some decoders make something of a cut-short file (SDL_image's TGA and QOI).
    put("headeronly." + ext, data[:40], "either")
    for n in range(3):
        flipped = bytearray(data)
        for _ in range(8):
            position = random.randrange(len(flipped))
            flipped[position] ^= 1 << random.randrange(8)
        put("flipped%d.%s" % (n, ext), bytes(flipped), "either")
    setter = size_setter(ext, data)
    # The PNM and PCX headers hold small sides: lying within them.
    put("huge." + ext, setter(data, 16384, 16384), "refused")
    # A GIF's screen may be 0x0 when its image has a size.
    put("zero." + ext, setter(data, 0, 0), "either" if ext == "gif" else "refused")
    put("lying." + ext, setter(data, 6000, 5000), "either")

# The cases found by probing splashd.
put("bmp-width-min.bmp", b"BM" + struct.pack("<IHHI", 58, 0, 0, 54)
    + struct.pack("<IiiHHIIiiII", 40, -2 ** 31, 1, 1, 24, 0, 4, 2835, 2835, 0, 0) + b"\0" * 4, "refused")
put("bmp-height-min.bmp", b"BM" + struct.pack("<IHHI", 58, 0, 0, 54)
    + struct.pack("<IiiHHIIiiII", 40, 1, -2 ** 31, 1, 24, 0, 4, 2835, 2835, 0, 0) + b"\0" * 4, "refused")
put("one-pixel.png", png(1, 1, b"\0\x30\x60\x90"), "shows")
put("one-row.png", png(7, 1, b"\0" + b"\x30\x60\x90" * 7), "shows")
put("legal-16384.png", png(16384, 16384), "refused")
put("declares-16384.png", png(16384, 16384, b"\0" * 100)[:128], "refused")
put("declares-16384.jpg", size_setter("jpg", valid["jpg"])(valid["jpg"], 16384, 16384), "refused")
put("declares-16384.tif", size_setter("tif", valid["tif"])(valid["tif"], 16384, 16384), "refused")
put("not-a-picture.png", b"this is not a picture\n", "refused")
put("empty.png", b"", "refused")
put("nul-bytes.gif", b"\0" * 4096, "refused")
put("random.jpg", bytes(random.randrange(256) for _ in range(4096)), "refused")

for name, expected in listing:
    print("%s\t%s" % (name, expected))
