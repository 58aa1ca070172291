#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A program with a text field, as GTK's and WebKit's are to an input
method: a full-screen window of one colour whose text input
(text-input-v3) is enabled whenever the window has the keyboard's focus,
its text cursor at (20, 40), 2x16.
It appends to LOG, a line each: "enter" and "leave" (the focus), and
"text: TEXT" with all the text the input method has committed so far, at
each done; "keyboard" once it has the seat's keyboard (taken when the seat
first has one), then "key CODE" for each key pressed that reaches it. Runs
until the compositor goes.

    text-input.py LOG
"""
import struct
import sys

from wire import Connection, Window, decode_string, run


def main():
    log = sys.argv[1]

    def say(line):
        with open(log, "a") as said:
            said.write(line + "\n")

    c = Connection()
    c.socket.settimeout(None)
    # The seat before the window: wlroots 0.15 gives keys only to a client
    # that had bound the seat when its window took the focus.
    seat = c.bind("wl_seat", 1)
    keyboard = []

    def seat_event(opcode, body):
        if opcode == 0 and not keyboard:  # capabilities
            capabilities, = struct.unpack_from("<I", body)
            if capabilities & 2:
                keyboard.append(c.new_id())
                c.handlers[keyboard[0]] = keyboard_event
                c.send(seat, 1, struct.pack("<I", keyboard[0]))  # get_keyboard
                say("keyboard")

    def keyboard_event(opcode, body):
        if opcode == 3:  # key: serial, time, key, state
            _, _, key, pressed = struct.unpack_from("<IIII", body)
            if pressed:
                say("key %d" % key)

    c.handlers[seat] = seat_event
    Window(c, 0x208040)
    manager = c.bind("zwp_text_input_manager_v3", 1)
    text_input = c.new_id()
    c.send(manager, 1, struct.pack("<II", text_input, seat))  # get_text_input
    committed = ""
    pending = None
    while True:
        target, opcode, body = c.event()
        if target != text_input:
            continue
        if opcode == 0:  # enter: enabled, with what the field holds and wants
            say("enter")
            c.send(text_input, 1)  # enable
            c.send(text_input, 3, struct.pack("<I", 1) + b"\0\0\0\0" + struct.pack("<ii", 0, 0))  # surrounding: ""
            c.send(text_input, 5, struct.pack("<II", 0, 0))  # content type: normal
            c.send(text_input, 6, struct.pack("<iiii", 20, 40, 2, 16))  # the text cursor
            c.send(text_input, 7)  # commit
        elif opcode == 1:  # leave
            say("leave")
            c.send(text_input, 2)  # disable
            c.send(text_input, 7)
        elif opcode == 3:  # commit_string (nullable)
            length, = struct.unpack_from("<I", body)
            pending = decode_string(body, 0)[0] if length > 0 else ""
        elif opcode == 5:  # done
            if pending is not None:
                committed += pending
                pending = None
                say("text: " + committed)


if __name__ == "__main__":
    run(main)
