#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A client of the wlr-virtual-pointer protocol, as remote-control tools
(wayvnc) are: on the Wayland display the environment names, it makes a
virtual pointer, says "ready" on standard output, and when a line comes on
standard input moves the pointer to a point of the screen and clicks there.

    virtual-pointer.py U V [BUTTON]

U and V are fractions of the screen's width and height (as a screenshot of
it shows it); BUTTON a Linux button code (272, BTN_LEFT, by default). The
line lets the caller wait until the program has taken the seat's new
pointer (a client asks for it only once told of it). It speaks the wire
protocol itself (libwayland's client library has no Python binding in
Debian); exits 0 once the compositor has taken every request, 1 when the
display lacks the protocol or the connection fails.
"""
import os
import socket
import struct
import sys

MANAGER = "zwlr_virtual_pointer_manager_v1"
EXTENT = 10000


class Connection:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(10)
        self.socket.connect(path)
        self.next_id = 2
        self.received = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, target, opcode, arguments=b""):
        size = 8 + len(arguments)
        self.socket.sendall(struct.pack("<IHH", target, opcode, size) + arguments)

    def event(self):
        while len(self.received) < 8 or len(self.received) < struct.unpack_from("<HH", self.received, 4)[1]:
            chunk = self.socket.recv(4096)
            if not chunk:
                raise ConnectionError("the compositor closed the connection")
            self.received += chunk
        target, opcode, size = struct.unpack_from("<IHH", self.received)
        body, self.received = self.received[8:size], self.received[size:]
        return target, opcode, body

    def roundtrip(self, registry=None, globals_seen=None):
        """wl_display.sync, reading events (the registry's globals) until it is done."""
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))
        while True:
            target, opcode, body = self.event()
            if target == callback:
                return
            if target == 1 and opcode == 0:
                object_id, code = struct.unpack_from("<II", body)
                raise ConnectionError("protocol error %d on object %d: %s" % (code, object_id, string(body, 8)[0]))
            if target == registry and opcode == 0 and globals_seen is not None:
                name, = struct.unpack_from("<I", body)
                interface, end = string(body, 4)
                version, = struct.unpack_from("<I", body, end)
                globals_seen[interface] = (name, version)


def string(body, offset):
    length, = struct.unpack_from("<I", body, offset)
    text = body[offset + 4:offset + 4 + length - 1].decode()
    return text, offset + 4 + (length + 3) // 4 * 4


def encode_string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def bind(connection, registry, globals_seen, interface, version):
    name, offered = globals_seen[interface]
    object_id = connection.new_id()
    connection.send(
        registry, 0, struct.pack("<I", name) + encode_string(interface) + struct.pack("<II", min(version, offered), object_id))
    return object_id


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    u, v = float(sys.argv[1]), float(sys.argv[2])
    button = int(sys.argv[3]) if len(sys.argv) == 4 else 272
    display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
    path = display if display.startswith("/") else os.path.join(os.environ["XDG_RUNTIME_DIR"], display)
    connection = Connection(path)
    registry = connection.new_id()
    connection.send(1, 1, struct.pack("<I", registry))
    globals_seen = {}
    connection.roundtrip(registry, globals_seen)
    if MANAGER not in globals_seen or "wl_seat" not in globals_seen:
        print("virtual-pointer.py: the display offers no %s" % MANAGER, file=sys.stderr)
        sys.exit(1)
    seat = bind(connection, registry, globals_seen, "wl_seat", 1)
    manager = bind(connection, registry, globals_seen, MANAGER, 1)
    pointer = connection.new_id()
    connection.send(manager, 0, struct.pack("<II", seat, pointer))
    connection.roundtrip()
    print("ready", flush=True)
    sys.stdin.readline()
    x, y = round(u * EXTENT), round(v * EXTENT)
    # motion_absolute, frame; button pressed, frame; released, frame.
    connection.send(pointer, 1, struct.pack("<IIIII", 1, x, y, EXTENT, EXTENT))
    connection.send(pointer, 4)
    connection.send(pointer, 2, struct.pack("<III", 2, button, 1))
    connection.send(pointer, 4)
    connection.send(pointer, 2, struct.pack("<III", 3, button, 0))
    connection.send(pointer, 4)
    connection.roundtrip()
    # destroy the pointer, then make sure the compositor took it.
    connection.send(pointer, 8)
    connection.roundtrip()


if __name__ == "__main__":
    try:
        main()
    except (OSError, ConnectionError) as error:
        print("virtual-pointer.py: %s" % error, file=sys.stderr)
        sys.exit(1)
