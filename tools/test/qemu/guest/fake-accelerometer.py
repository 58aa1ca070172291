#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A fake accelerometer for the QEMU rig's guest, through uinput: ABS_X/Y/Z
with INPUT_PROP_ACCELEROMETER, named "rig accelerometer".

    fake-accelerometer.py DIR

Reports upright ("normal": 0, -256, 0) and creates DIR/accel-ready; once
DIR/tilt exists, reports right-up (-256, 0, 0); once DIR/done exists, exits
(the device goes with it).
"""
import fcntl, os, struct, sys, time

UI_SET_EVBIT, UI_SET_ABSBIT, UI_SET_PROPBIT, UI_DEV_CREATE = 0x40045564, 0x40045567, 0x4004556E, 0x5501
EV_SYN, EV_ABS, INPUT_PROP_ACCELEROMETER = 0, 3, 6
work = sys.argv[1]
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
fcntl.ioctl(fd, UI_SET_EVBIT, EV_ABS)
for axis in (0, 1, 2):
    fcntl.ioctl(fd, UI_SET_ABSBIT, axis)
fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER)
# struct uinput_user_dev: name, input_id, ff_effects_max, absmax, absmin, absfuzz, absflat.
limits = [0] * 64
absmax, absmin = list(limits), list(limits)
for axis in (0, 1, 2):
    absmax[axis], absmin[axis] = 512, -512
os.write(fd, b"rig accelerometer".ljust(80, b"\0") + struct.pack("4HI", 3, 1, 1, 1, 0)
         + struct.pack("64i", *absmax) + struct.pack("64i", *absmin) + struct.pack("64i", *limits) * 2)
fcntl.ioctl(fd, UI_DEV_CREATE)
time.sleep(0.3)


def report(x, y, z):
    events = b"".join(struct.pack("qqHHi", 0, 0, EV_ABS, axis, value) for axis, value in enumerate((x, y, z)))
    os.write(fd, events + struct.pack("qqHHi", 0, 0, EV_SYN, 0, 0))


def wait_for(name):
    while not os.path.exists(os.path.join(work, name)):
        time.sleep(0.05)


report(0, -256, 0)
open(os.path.join(work, "accel-ready"), "w").close()
wait_for("tilt")
report(-256, 0, 0)
wait_for("done")
