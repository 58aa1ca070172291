#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A screencopy client that asks for the screen again the moment each copy
is done, COUNT times (wlr-screencopy, into shared memory), on the Wayland
display the environment names; it prints "COPIES SECONDS": how many copies
were made and how long they took from the first request to the last copy.

    screencopy-flood.py COUNT

Exits 1 when a copy fails, the display lacks the protocol, or the
connection fails.
"""
import os
import struct
import sys
import time

from wire import Connection, run


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    count = int(sys.argv[1])
    connection = Connection()
    shm = connection.bind("wl_shm", 1)
    output = connection.bind("wl_output", 1)
    manager = connection.bind("zwlr_screencopy_manager_v1", 1)
    buffer = None
    started = time.monotonic()
    for _ in range(count):
        frame = connection.new_id()
        connection.send(manager, 0, struct.pack("<IiI", frame, 0, output))  # capture_output
        while True:
            target, opcode, body = connection.event()
            if target != frame:
                continue
            if opcode == 0 and buffer is None:  # buffer: format, width, height, stride
                kind, width, height, stride = struct.unpack_from("<IIII", body)
                memory = os.memfd_create("screencopy-flood")
                os.ftruncate(memory, stride * height)
                pool = connection.new_id()
                connection.send(shm, 0, struct.pack("<Ii", pool, stride * height), fd=memory)
                buffer = connection.new_id()
                connection.send(pool, 0, struct.pack("<IiiiiI", buffer, 0, width, height, stride, kind))
                os.close(memory)
            if opcode == 0:
                connection.send(frame, 0, struct.pack("<I", buffer))  # copy
            elif opcode == 2:  # ready
                break
            elif opcode == 3:  # failed
                raise ConnectionError("a copy failed")
        connection.send(frame, 1)  # destroy
    print("%d %.3f" % (count, time.monotonic() - started))


if __name__ == "__main__":
    run(main)
