#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A fake rotation switch for the QEMU rig's guest, through uinput: EV_SW
with SW_TABLET_MODE and SW_DOCK, named "rig switch".

    fake-switch.py DIR

Turns tablet mode on and creates DIR/switch-ready; once DIR/flip exists,
turns tablet mode off and dock on; once DIR/done exists, exits.
"""
import fcntl, os, struct, sys, time

UI_SET_EVBIT, UI_SET_SWBIT, UI_DEV_CREATE = 0x40045564, 0x4004556D, 0x5501
EV_SYN, EV_SW, SW_TABLET_MODE, SW_DOCK = 0, 5, 1, 5
work = sys.argv[1]
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
fcntl.ioctl(fd, UI_SET_EVBIT, EV_SW)
for code in (SW_TABLET_MODE, SW_DOCK):
    fcntl.ioctl(fd, UI_SET_SWBIT, code)
os.write(fd, b"rig switch".ljust(80, b"\0") + struct.pack("4HI", 3, 1, 2, 1, 0) + struct.pack("64i", *([0] * 64)) * 4)
fcntl.ioctl(fd, UI_DEV_CREATE)
time.sleep(0.3)


def switch(changes):
    events = b"".join(struct.pack("qqHHi", 0, 0, EV_SW, code, value) for code, value in changes)
    os.write(fd, events + struct.pack("qqHHi", 0, 0, EV_SYN, 0, 0))


def wait_for(name):
    while not os.path.exists(os.path.join(work, name)):
        time.sleep(0.05)


switch([(SW_TABLET_MODE, 1)])
open(os.path.join(work, "switch-ready"), "w").close()
wait_for("flip")
switch([(SW_TABLET_MODE, 0), (SW_DOCK, 1)])
wait_for("done")
