# SPDX-License-Identifier: Apache-2.0
"""The Wayland wire protocol, as much as the test clients beside this file
need (libwayland's client library has no Python binding in Debian): a
connection to the display the environment names (or the one host mode
hands its program, WAYLAND_SOCKET), requests with their arguments packed,
queued and sent in batches, file descriptors passed, events read (with
handlers for some objects'), the registry's globals, wl_display.sync round
trips, bind, a full-screen window of one colour, the compositor's own
figures, and a client's way out."""
import array
import mmap
import os
import socket
import struct
import sys
import time


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
        inherited = os.environ.pop("WAYLAND_SOCKET", None)
        if inherited is not None:
            # The program's own connection (host mode), made by the
            # compositor and inherited; taken once, as libwayland does.
            self.socket = socket.socket(fileno=int(inherited))
            os.set_inheritable(self.socket.fileno(), False)
        else:
            display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
            path = display if display.startswith("/") else os.path.join(os.environ["XDG_RUNTIME_DIR"], display)
            self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.socket.settimeout(20)
            self.socket.connect(path)
        self.socket.settimeout(60)
        self.next_id = 2
        self.received = b""
        self.globals = {}
        # Requests queued (`queue`) and not sent yet, and their bytes.
        self.queued = []
        self.queued_bytes = 0
        # Called with (opcode, body) for each event of an object, before
        # `event` returns it (xdg_wm_base's pings answered).
        self.handlers = {}
        self.registry = self.new_id()
        self.send(1, 1, struct.pack("<I", self.registry))
        self.roundtrip()

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, target, opcode, arguments=b"", fd=None):
        """Sends one request (after those queued), with `fd` attached."""
        self.flush()
        message = struct.pack("<IHH", target, opcode, 8 + len(arguments)) + arguments
        if fd is None:
            self.socket.sendall(message)
        else:
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
            self.socket.sendmsg([message], rights)

    def queue(self, target, opcode, arguments=b""):
        """Queues one request (no descriptor) for `flush`; sent at 64 KiB."""
        self.queued.append(struct.pack("<IHH", target, opcode, 8 + len(arguments)) + arguments)
        self.queued_bytes += 8 + len(arguments)
        if self.queued_bytes >= 65536:
            self.flush()

    def flush(self):
        """Sends the queued requests together."""
        if self.queued:
            data = b"".join(self.queued)
            self.queued = []
            self.queued_bytes = 0
            self.socket.sendall(data)

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
        handler = self.handlers.get(target)
        if handler is not None:
            handler(opcode, body)
        return target, opcode, body

    def error(self):
        """The protocol error the compositor sent before it closed the
        connection (what is left to read), or why there is none."""
        self.socket.settimeout(5)
        try:
            while True:
                self.event()
        except (OSError, ConnectionError) as error:
            return str(error)

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


def show(connection, shm, surface, width, height, colour):
    """Attaches to `surface` a new opaque XRGB8888 buffer of `width` x
    `height` in one colour (0xRRGGBB), damaged whole, and commits it; the
    buffer's id."""
    c = connection
    size = width * height * 4
    memory = os.memfd_create("buffer")
    os.ftruncate(memory, size)
    with mmap.mmap(memory, size) as pixels:
        pixels.write(struct.pack("<I", colour) * (width * height))
    pool = c.new_id()
    c.send(shm, 0, struct.pack("<Ii", pool, size), fd=memory)
    os.close(memory)
    buffer = c.new_id()
    c.send(pool, 0, struct.pack("<IiiiiI", buffer, 0, width, height, width * 4, 1))
    c.send(pool, 1)  # destroy: the buffer keeps the memory
    c.send(surface, 1, struct.pack("<Iii", buffer, 0, 0))
    c.send(surface, 2, struct.pack("<iiii", 0, 0, width, height))
    c.send(surface, 6)
    return buffer


class Window:
    """An xdg toplevel at the size the compositor configures, showing an
    opaque XRGB8888 buffer of one colour (0xRRGGBB); xdg_wm_base's pings
    answered. `compositor`, `shm`, `wm_base` and `surface` are its objects'
    ids, `width` and `height` its size."""

    def __init__(self, connection, colour=0x208040):
        self.connection = c = connection
        self.compositor = c.bind("wl_compositor", 4)
        self.shm = c.bind("wl_shm", 1)
        self.wm_base = c.bind("xdg_wm_base", 1)
        c.handlers[self.wm_base] = lambda opcode, body: opcode == 0 and c.send(self.wm_base, 3, body[:4])
        self.surface = c.new_id()
        c.send(self.compositor, 0, struct.pack("<I", self.surface))
        self.xdg = c.new_id()
        c.send(self.wm_base, 2, struct.pack("<II", self.xdg, self.surface))
        self.toplevel = c.new_id()
        c.send(self.xdg, 1, struct.pack("<I", self.toplevel))
        c.send(self.surface, 6)
        self.width, self.height = 320, 240
        while True:
            target, opcode, body = c.event()
            if target == self.toplevel and opcode == 0:
                width, height = struct.unpack_from("<ii", body)
                if width > 0 and height > 0:
                    self.width, self.height = width, height
            elif target == self.xdg and opcode == 0:
                c.send(self.xdg, 4, body[:4])  # ack_configure
                break
        self.buffer = show(c, self.shm, self.surface, self.width, self.height, colour)
        c.roundtrip()

    def frame(self):
        """Commits the window again (its buffer as it is) and waits until
        the compositor says that frame was shown (its frame callback)."""
        c = self.connection
        callback = c.new_id()
        c.send(self.surface, 3, struct.pack("<I", callback))
        c.send(self.surface, 2, struct.pack("<iiii", 0, 0, self.width, self.height))
        c.send(self.surface, 6)
        while c.event()[0] != callback:
            pass


# The compositor: this client's parent when it started (host mode's
# program is splashd's child), or HOST_PID.
HOST_PID = int(os.environ.get("HOST_PID", os.getppid()))


def host_figures():
    """The compositor's own figures, from /proc: a dict of rss_kib and
    vm_kib (VmRSS, VmSize) and cpu_s (user and system); None once it has
    gone (or is a zombie)."""
    figures = {}
    try:
        with open("/proc/%d/stat" % HOST_PID) as stat:
            fields = stat.read().rpartition(")")[2].split()
        with open("/proc/%d/status" % HOST_PID) as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmSize"):
                    figures["rss_kib" if name == "VmRSS" else "vm_kib"] = int(value.split()[0])
    except OSError:
        return None
    if fields[0] == "Z" or "rss_kib" not in figures:
        return None
    figures["cpu_s"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return figures


def report(path, lines):
    """Writes `lines` (name: value) to `path` whole (a rename), and to
    standard output."""
    text = "".join("%s: %s\n" % (name, value) for name, value in lines)
    sys.stdout.write(text)
    sys.stdout.flush()
    with open(path + ".part", "w") as part:
        part.write(text)
    os.rename(path + ".part", path)


def stay():
    """Stays connected (the program runs on) until a signal ends it, or
    the compositor has gone (a client it left behind is no one's)."""
    while host_figures() is not None:
        time.sleep(0.5)
    sys.exit(0)


def run(main):
    """Runs a client's `main`: a connection that fails or a global the
    display lacks is one line on standard error, named after the client,
    and exit status 1."""
    try:
        main()
    except (OSError, ConnectionError) as error:
        print("%s: %s" % (os.path.basename(sys.argv[0]), error), file=sys.stderr)
        sys.exit(1)
