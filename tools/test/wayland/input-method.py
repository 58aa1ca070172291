#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An input method (input-method-v2), as an on-screen keyboard or an
input method engine is: on the Wayland display the environment names, it
prints "activated" and "deactivated" as the compositor
says a text field takes text or no longer does, and "unavailable" (and
ends) when another input method is served. At its first activation it
commits TEXT to the field ("committed"). With --flood N it commits N
strings of 4000 bytes at once instead, without reading between them
("flooded"). With --grab it grabs the keyboard at its first activation
("grabbed") and, for each key pressed that the grab gets, prints "key
CODE" and commits TEXT ("release CODE" for each key let go of). With --popup it shows a popup surface (60x30,
FF8000: a candidate list) at its first activation ("popup") and prints
where the compositor says the text cursor lies against it ("rectangle
X,Y,W,H"). With --popup-gone, it then waits for a line on its standard
input, destroys the popup's role object (its surface stays, uncommitted)
and prints "popup gone". It runs until the compositor closes its
connection (a protocol error is printed, and it exits 1).

    input-method.py [--flood N | --grab | --popup | --popup-gone] [TEXT]
"""
import struct
import sys

from wire import Connection, encode_string, run, show


def main():
    arguments = sys.argv[1:]
    flood = 0
    grab = arguments[:1] == ["--grab"]
    if grab:
        arguments = arguments[1:]
    popup_gone = arguments[:1] == ["--popup-gone"]
    popup = popup_gone or arguments[:1] == ["--popup"]
    if popup:
        arguments = arguments[1:]
    if arguments[:1] == ["--flood"]:
        flood = int(arguments[1])
        arguments = arguments[2:]
    text = arguments[0] if arguments else None
    c = Connection()
    c.socket.settimeout(None)
    seat = c.bind("wl_seat", 1)
    manager = c.bind("zwp_input_method_manager_v2", 1)
    method = c.new_id()
    state = {"serial": 0, "active": False, "pending": False, "answered": False}

    def commit():
        c.send(method, 0, encode_string(text))  # commit_string
        c.send(method, 3, struct.pack("<I", state["serial"]))  # commit
        print("committed", flush=True)

    def grabbed_key(opcode, body):
        if opcode == 1:  # key: serial, time, key, state
            _, _, key, pressed = struct.unpack_from("<IIII", body)
            if pressed:
                print("key %d" % key, flush=True)
                if text is not None:
                    commit()
            else:
                print("release %d" % key, flush=True)

    def event(opcode, body):
        if opcode == 0:
            state["pending"] = True
        elif opcode == 1:
            state["pending"] = False
        elif opcode == 6:
            print("unavailable", flush=True)
            sys.exit(0)
        elif opcode == 5:  # done
            state["serial"] += 1
            if state["pending"] == state["active"]:
                return
            state["active"] = state["pending"]
            print("activated" if state["active"] else "deactivated", flush=True)
            if not state["active"] or state["answered"]:
                return
            state["answered"] = True
            if popup:
                compositor = c.bind("wl_compositor", 4)
                shm = c.bind("wl_shm", 1)
                surface = c.new_id()
                c.send(compositor, 0, struct.pack("<I", surface))  # create_surface
                made = c.new_id()
                c.handlers[made] = lambda opcode, body: opcode == 0 and print(
                    "rectangle %d,%d,%d,%d" % struct.unpack_from("<iiii", body), flush=True)
                c.send(method, 4, struct.pack("<II", made, surface))  # get_input_popup_surface
                show(c, shm, surface, 60, 30, 0xFF8000)
                print("popup", flush=True)
                if popup_gone:
                    c.roundtrip()
                    sys.stdin.readline()
                    c.send(made, 0)  # destroy
                    c.roundtrip()
                    print("popup gone", flush=True)
            elif grab:
                keyboard = c.new_id()
                c.handlers[keyboard] = grabbed_key
                c.send(method, 5, struct.pack("<I", keyboard))  # grab_keyboard
                c.roundtrip()  # the grab is the compositor's before it is said
                print("grabbed", flush=True)
            elif flood:
                chunk = "x" * 4000
                for _ in range(flood):
                    c.queue(method, 0, encode_string(chunk))  # commit_string
                    c.queue(method, 3, struct.pack("<I", state["serial"]))  # commit
                c.flush()
                print("flooded", flush=True)
            elif text is not None:
                commit()

    c.handlers[method] = event
    c.send(manager, 0, struct.pack("<II", seat, method))  # get_input_method
    while True:
        c.event()

if __name__ == "__main__":
    run(main)
