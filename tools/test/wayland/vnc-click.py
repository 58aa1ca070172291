#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A VNC viewer's few steps, for testing remote control (wayvnc): it
connects to the RFB 3.8 server on a Unix socket (no authentication), reads
the whole screen once, prints "WIDTH HEIGHT RRGGBB" (the screen's size and
the colour of the pixel at U, V), then clicks the left button there, and
disconnects once a line comes on its standard input (a server may drop
what it has not handled yet when its client goes: the caller says when the
click has arrived).

    vnc-click.py SOCKET U V

U and V are fractions of the screen's width and height. Exits 1 when the
server refuses or the connection fails.
"""
import socket
import struct
import sys


class Viewer:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(20)
        self.socket.connect(path)

    def read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.socket.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the server closed the connection")
            data += chunk
        return data

    def handshake(self):
        if not self.read(12).startswith(b"RFB 003."):
            raise ConnectionError("not an RFB server")
        self.socket.sendall(b"RFB 003.008\n")
        types = self.read(self.read(1)[0])
        if 1 not in types:
            raise ConnectionError("the server asks for authentication (security types %s)" % list(types))
        self.socket.sendall(bytes([1]))
        if struct.unpack(">I", self.read(4))[0] != 0:
            raise ConnectionError("the server refused the connection")
        self.socket.sendall(bytes([1]))  # ClientInit: shared
        width, height = struct.unpack(">HH", self.read(4))
        self.read(16)  # the server's pixel format
        self.read(struct.unpack(">I", self.read(4))[0])  # its name
        return width, height

    def screen(self, width, height):
        """The whole screen, 32 bits a pixel, blue in the lowest byte."""
        # SetPixelFormat: 32 bpp, depth 24, little-endian, true colour, 255 each, shifts 16, 8, 0.
        self.socket.sendall(
            struct.pack(">B3xBBBBHHHBBB3x", 0, 32, 24, 0, 1, 255, 255, 255, 16, 8, 0))
        self.socket.sendall(struct.pack(">BxHi", 2, 1, 0))  # SetEncodings: raw
        self.socket.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, width, height))
        pixels = bytearray(width * height * 4)
        covered = 0
        while covered < width * height:
            covered += self.update(width, pixels)
        return pixels

    def update(self, width, pixels):
        """Reads one FramebufferUpdate (bells before it skipped) into
        `pixels`, a screen `width` wide; returns how many pixels it held."""
        kind = self.read(1)[0]
        while kind == 2:  # a bell
            kind = self.read(1)[0]
        if kind != 0:
            raise ConnectionError("an unexpected message %d from the server" % kind)
        self.read(1)
        covered = 0
        for _ in range(struct.unpack(">H", self.read(2))[0]):
            x, y, w, h, encoding = struct.unpack(">HHHHi", self.read(12))
            if encoding != 0:
                raise ConnectionError("the server sent encoding %d, not raw" % encoding)
            data = self.read(w * h * 4)
            for row in range(h):
                start = ((y + row) * width + x) * 4
                pixels[start:start + w * 4] = data[row * w * 4:(row + 1) * w * 4]
            covered += w * h
        return covered

    def click(self, x, y, width, pixels):
        """Moves the pointer to (x, y), presses the left button and lets it
        go, each a message the server has handled before the next is sent:
        a screen update asked for after each comes back only once it has
        read it (one sent with the next may be merged with it, the press
        lost, as a server under load did)."""
        for mask in (0, 1, 0):
            self.socket.sendall(struct.pack(">BBHH", 5, mask, x, y))
            self.socket.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, 1, 1))
            self.update(width, pixels)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    viewer = Viewer(sys.argv[1])
    width, height = viewer.handshake()
    x, y = int(float(sys.argv[2]) * width), int(float(sys.argv[3]) * height)
    pixels = viewer.screen(width, height)
    blue, green, red = pixels[(y * width + x) * 4:(y * width + x) * 4 + 3]
    print("%d %d %02X%02X%02X" % (width, height, red, green, blue), flush=True)
    viewer.click(x, y, width, pixels)
    sys.stdin.readline()


if __name__ == "__main__":
    try:
        main()
    except (OSError, ConnectionError) as error:
        print("vnc-click.py: %s" % error, file=sys.stderr)
        sys.exit(1)
