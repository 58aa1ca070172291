# SPDX-License-Identifier: Apache-2.0
"""The Wayland wire protocol, as much as the test clients beside this file
need (libwayland's client library has no Python binding in Debian): a
connection to the display the environment names, requests with their
arguments packed, file descriptors passed, events read, the registry's
globals, wl_display.sync round trips, bind, and a client's way out."""
import array
import os
import socket
import struct
import sys


def encode_string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def decode_string(body, offset):
    """The string at `offset` of an event's body, and the offset after it."""
    length, = struct.unpack_from("<I", body, offset)
    text = body[offset + 4:offset + 4 + length - 1].decode()
    return text, offset + 4 + (length + 3) // 4 * 4


class Connection:
    """A client's connection; wl_display is object 1, the registry 2."""

    def __init__(self):
        display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
        path = display if display.startswith("/") else os.path.join(os.environ["XDG_RUNTIME_DIR"], display)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(20)
        self.socket.connect(path)
        self.next_id = 2
        self.received = b""
        self.globals = {}
        self.registry = self.new_id()
        self.send(1, 1, struct.pack("<I", self.registry))
        self.roundtrip()

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, target, opcode, arguments=b"", fd=None):
        message = struct.pack("<IHH", target, opcode, 8 + len(arguments)) + arguments
        if fd is None:
            self.socket.sendall(message)
        else:
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
            self.socket.sendmsg([message], rights)

    def event(self):
        """The next event: (object, opcode, body); a protocol error raises."""
        while len(self.received) < 8 or len(self.received) < struct.unpack_from("<HH", self.received, 4)[1]:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise ConnectionError("the compositor closed the connection")
            self.received += chunk
        target, opcode, size = struct.unpack_from("<IHH", self.received)
        body, self.received = self.received[8:size], self.received[size:]
        if target == 1 and opcode == 0:
            object_id, code = struct.unpack_from("<II", body)
            raise ConnectionError("protocol error %d on object %d: %s" % (code, object_id, decode_string(body, 8)[0]))
        if target == self.registry and opcode == 0:
            name, = struct.unpack_from("<I", body)
            interface, end = decode_string(body, 4)
            version, = struct.unpack_from("<I", body, end)
            self.globals[interface] = (name, version)
        return target, opcode, body

    def roundtrip(self):
        """wl_display.sync: every event before its done is read (and the
        registry's globals kept)."""
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))
        while self.event()[0] != callback:
            pass

    def bind(self, interface, version):
        """The global `interface`, at `version` or the compositor's if lower;
        a ConnectionError when the compositor has none."""
        if interface not in self.globals:
            raise ConnectionError("the display offers no %s" % interface)
        name, offered = self.globals[interface]
        object_id = self.new_id()
        arguments = struct.pack("<I", name) + encode_string(interface) + struct.pack("<II", min(version, offered), object_id)
        self.send(self.registry, 0, arguments)
        return object_id


def run(main):
    """Runs a client's `main`: a connection that fails or a global the
    display lacks is one line on standard error, named after the client,
    and exit status 1."""
    try:
        main()
    except (OSError, ConnectionError) as error:
        print("%s: %s" % (os.path.basename(sys.argv[0]), error), file=sys.stderr)
        sys.exit(1)
