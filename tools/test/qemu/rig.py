#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a host command inside a real Linux kernel under QEMU, with a real
/dev/fb0 and /dev/dri/card0 (bochs-drm on QEMU's VGA), and takes screendumps
of what it draws.

    rig.py --work DIR [--gpu vga|virtio] [--size WxH] [--timeout S] [--append KERNEL-PARAMETERS] -- COMMAND...
    rig.py --work DIR --root IMAGE [--size WxH] [--timeout S] [--append ...]
    rig.py --work DIR --root IMAGE --kernel VMLINUZ --initrd INITRD [--watch-screen S] ...

The guest's screen is QEMU's VGA (bochs-drm: /dev/dri/card0 and /dev/fb0) or,
with --gpu virtio, virtio-gpu-pci (virtio_gpu: the same two), or with --gpu
qxl, qxl-vga (the qxl driver: the same two; wlroots 0.15 runs on it). With
--gpu virgl it is virtio-vga-gl, a GPU with a render node (card0, renderD128
and fb0): the guest's GL runs through virglrenderer on the host's Mesa
(llvmpipe; QEMU's egl-headless display, its render node /dev/null so that
Mesa takes its software screen). QMP screendump cannot read such a screen
("no surface"): with virgl every screendump and --watch-screen grab is read
from QEMU's VNC server instead (a Unix socket in DIR, vnc.sock; RFB, raw
pixels), each bounded in time: a grab that does not complete fails the run. With --gpu
firmware it is virtio-vga with only the firmware's framebuffer (vesafb at
1024x768, 16 bpp: vga=0x317) and no DRM driver, as early in a boot before the
real display driver loads; the command may load it (modprobe virtio-gpu),
which replaces vesafb with /dev/dri/card0 and its own /dev/fb0. vfb (a
framebuffer in memory that can pan) is there as /dev/fb1 when the kernel
command line says vfb.vfb_enable=1.

The guest boots a busybox initramfs, mounts the host's / read-only over 9p,
chroots into it with fresh /dev, /proc, /sys and /run, and runs COMMAND (a
host path) in /run/rig, which is DIR, shared read-write. (The host's /tmp
stays visible, read-only like the rest: a checkout there still runs.)

With --root, the systemd tier: the initramfs mounts IMAGE (an ext4 file
system, the guest's /dev/vda, made by tools/test/qemu/debian-root.py) as the root,
a tmpfs on its /run with DIR at /run/rig, and hands over to the image's own
/sbin/init (systemd), as a real initramfs does. Something in the image then
prints "RIG-STATUS N" on /dev/ttyS0 and powers the guest off. With --kernel
and --initrd, the guest boots those instead (the image's own kernel and the
initramfs update-initramfs made in it: tools/test/qemu/debian-root.py --boot),
with root=/dev/vda; the image then mounts the work directory itself (9p tag
rig0).

With --watch-screen S, the host takes a screendump every S seconds for the
whole run and keeps each that differs from the one before as
DIR/watch/NNNNN.ppm, listed in DIR/watch.txt as "NNNNN SECONDS" (since QEMU
started): what the screen showed, frame by frame, through boot and shutdown.

With --type TEXT=KEYS (repeatable, in order), the host types KEYS and Enter on
the guest's keyboard once the console shows TEXT (a disk's passphrase, when
the splash logs its prompt), and lists when in DIR/typed.txt.

Screendumps: whenever the command prints a line "RIG-SCREENDUMP NAME
[DEVICE]" on the guest's serial console (its standard output), the rig writes
DIR/NAME.ppm (QMP screendump, of DEVICE's screen: video0, video1; with
virgl, the VNC grab) and then creates DIR/NAME.done, which the command may
wait for. A line "RIG-WATCH-STOP" ends --watch-screen's grabs (a test's
measurements then have the host's CPU to themselves). A line "RIG-QMP NAME
COMMAND {JSON}" runs that QMP command (device_add plugs a display in) and
writes its reply to DIR/NAME.done. The command's exit status is written to
DIR/status, its output (the serial console) to DIR/console.log. Exit status: 0 when the guest ran the
command to the end, 1 otherwise. Needs qemu-system-x86, linux-image-amd64,
busybox-static, kmod, cpio, and for virgl qemu-system-gui, libvirglrenderer1
and Mesa's EGL and drivers (make test installs them).
"""
import argparse
import glob
import gzip
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import time

# vfb (a framebuffer in memory that can pan) registers only when the kernel
# command line says vfb.vfb_enable=1; bochs loads first, so it is fb0.
MODULES = ["bochs", "virtio-gpu", "qxl", "9p", "9pnet_virtio", "virtio_pci", "evdev", "uinput", "vfb"]
# For an ext4 root on virtio: busybox modprobe ignores softdeps, so
# crc32c_generic comes before ext4 (crc32c-intel needs SSE4.2, which qemu64 lacks).
ROOT_MODULES = ["virtio_blk", "crc32c_generic", "ext4"]


def kernel():
    images = sorted(glob.glob("/boot/vmlinuz-*"))
    if not images:
        sys.exit("rig: no /boot/vmlinuz-*: apt-get install linux-image-amd64")
    image = images[-1]
    return image, image.split("vmlinuz-", 1)[1]


def module_files(version, names):
    files = []
    for name in names:
        out = subprocess.run(["modprobe", "-S", version, "--show-depends", name], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            parts = line.split()
            if parts and parts[0] == "insmod" and parts[1] not in files:
                files.append(parts[1])
    return files


INIT_MODULES = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /host
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# Module parameters from the kernel command line (name.param=value), as
# modprobe would pass them; busybox insmod does not look there itself.
for m in $(cat /modules); do
  name=$(basename "$m" .ko | tr - _)
  params=""
  for word in $(cat /proc/cmdline); do
    case "$word" in "$name".*) params="$params ${word#$name.}" ;; esac
  done
  insmod "$m" $params 2>/dev/null
done
"""

INIT_COMMAND = """
mount -t 9p -o trans=virtio,version=9p2000.L,ro host0 /host
mount -t devtmpfs dev /host/dev
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t tmpfs run /host/run
mkdir -p /host/run/rig
mount -t 9p -o trans=virtio,version=9p2000.L rig0 /host/run/rig
i=0; while [ ! -e /dev/fb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
# fbcon takes the framebuffer when it appears (or, deferred, at the next
# console message): unbind it once it is there, so that nothing but the
# command draws on fb0.
i=0; while [ $i -lt 50 ]; do
  [ -e /sys/class/vtconsole/vtcon1/bind ] && echo 0 > /sys/class/vtconsole/vtcon1/bind 2>/dev/null
  [ "$(cat /sys/class/vtconsole/vtcon1/bind 2>/dev/null)" = 0 ] && break
  sleep 0.1; i=$((i+1))
done
echo RIG-BOOTED
chroot /host /bin/sh -c "cd /run/rig && . /run/rig/env && exec $(cat /command)"
echo "RIG-STATUS $?"
sync
poweroff -f
"""

INIT_ROOT = """
i=0; while [ ! -e /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
mkdir -p /newroot
mount -t ext4 /dev/vda /newroot || { echo "RIG-STATUS 125"; poweroff -f; }
mount -t tmpfs -o mode=755,nosuid,nodev run /newroot/run
mkdir -p /newroot/run/rig
mount -t 9p -o trans=virtio,version=9p2000.L rig0 /newroot/run/rig
for fs in dev proc sys; do mount --move /$fs /newroot/$fs; done
echo RIG-BOOTED
exec switch_root /newroot /sbin/init
"""


def build_initramfs(work, command, boot_image, left_out=()):
    image, version = kernel()
    root = os.path.join(work, "initramfs")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy("/bin/busybox", os.path.join(root, "bin/busybox"))
    modules = []
    names = [name for name in MODULES if name not in left_out]
    for path in module_files(version, names + (ROOT_MODULES if boot_image else [])):
        target = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(path, target)
        modules.append(path)
    with open(os.path.join(root, "modules"), "w") as f:
        f.write("\n".join(modules) + "\n")
    with open(os.path.join(root, "init"), "w") as f:
        f.write(INIT_MODULES + (INIT_ROOT if boot_image else INIT_COMMAND))
    os.chmod(os.path.join(root, "init"), 0o755)
    with open(os.path.join(root, "command"), "w") as f:
        f.write(" ".join("'" + a.replace("'", "'\\''") + "'" for a in command))
    archive = os.path.join(work, "initramfs.cpio.gz")
    listing = subprocess.run(["find", "."], cwd=root, capture_output=True, check=True).stdout
    cpio = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=listing, capture_output=True, check=True)
    with gzip.open(archive, "wb", compresslevel=1) as f:
        f.write(cpio.stdout)
    return image, archive


class Monitor:
    """One QMP connection for the whole run (QEMU serves one client at a
    time), opened at the first command."""

    def __init__(self, path):
        self.path = path
        self.file = None

    def __call__(self, command, arguments=None):
        if self.file is None:
            s = socket.socket(socket.AF_UNIX)
            s.connect(self.path)
            self.file = s.makefile("rw")
            json.loads(self.file.readline())
            self.send({"execute": "qmp_capabilities"})
        return self.send({"execute": command, "arguments": arguments or {}})

    def send(self, message):
        self.file.write(json.dumps(message) + "\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise OSError("QMP connection closed")
            reply = json.loads(line)
            if "return" in reply or "error" in reply:
                return reply


class VNCError(RuntimeError):
    """The VNC server answered wrongly or not in time: the run fails."""


class VNCScreen:
    """The guest's screen read through QEMU's VNC server, for a display that
    QMP screendump cannot read (virgl's GL scanout: "no surface"): RFB 3.8 on
    a Unix socket, no authentication, raw 32-bit pixels. One connection for
    the run, opened at the first grab (QEMU serves several, but one is
    enough); each grab asks for the whole screen (a non-incremental update
    request) and takes what comes within `timeout` seconds, or raises
    VNCError. Before QEMU has made its socket, a grab raises
    FileNotFoundError or ConnectionRefusedError, which a caller may wait
    out."""

    RAW = 0
    DESKTOP_SIZE = -223

    def __init__(self, path, timeout=10.0):
        self.path = path
        self.timeout = timeout
        self.sock = None
        self.width = self.height = 0
        # The screen as the server last sent it: 4 bytes a pixel, B G R X.
        self.screen = bytearray()
        self.deadline = 0.0

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def read(self, count):
        data = bytearray()
        while len(data) < count:
            left = self.deadline - time.time()
            if left <= 0:
                raise VNCError("the VNC server sent %d of %d bytes in %.0f s" % (len(data), count, self.timeout))
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(count - len(data))
            except socket.timeout:
                continue
            if not chunk:
                raise VNCError("the VNC server closed the connection")
            data += chunk
        return bytes(data)

    def resize(self, width, height):
        self.width, self.height = width, height
        self.screen = bytearray(width * height * 4)

    def connect(self):
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(self.timeout)
        sock.connect(self.path)
        self.sock = sock
        version = self.read(12)
        if not version.startswith(b"RFB "):
            raise VNCError("not an RFB server: %r" % version)
        sock.sendall(b"RFB 003.008\n")
        count = self.read(1)[0]
        if count == 0:
            reason = self.read(struct.unpack(">I", self.read(4))[0])
            raise VNCError("the VNC server refused the connection: %s" % reason.decode(errors="replace"))
        if 1 not in self.read(count):
            raise VNCError("the VNC server wants authentication")
        sock.sendall(b"\x01")
        if struct.unpack(">I", self.read(4))[0] != 0:
            raise VNCError("the VNC server refused the connection without authentication")
        sock.sendall(b"\x01")  # shared: other clients may stay
        width, height = struct.unpack(">HH", self.read(4))
        self.read(16)  # the server's pixel format, replaced below
        self.read(struct.unpack(">I", self.read(4))[0])  # the desktop's name
        self.resize(width, height)
        # 32 bits a pixel, depth 24, little-endian, true colour, 8 bits each: bytes B G R X.
        sock.sendall(struct.pack(">B3xBBBBHHHBBB3x", 0, 32, 24, 0, 1, 255, 255, 255, 16, 8, 0))
        sock.sendall(struct.pack(">BxHii", 2, 2, self.RAW, self.DESKTOP_SIZE))

    def request(self):
        self.sock.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, self.width, self.height))

    def grab(self, path):
        """Writes the whole screen to `path` as a binary PPM."""
        self.deadline = time.time() + self.timeout
        try:
            if self.sock is None:
                self.connect()
            self.request()
            while True:
                kind = self.read(1)[0]
                if kind == 0:
                    if self.update():
                        break
                    # Only the screen's new size: the whole of it is asked again.
                    self.request()
                elif kind == 1:  # colour map entries (not used with true colour)
                    self.read(struct.unpack(">xxxH", self.read(5))[0] * 6)
                elif kind == 2:  # bell
                    pass
                elif kind == 3:  # the server's cut text
                    self.read(struct.unpack(">xxxI", self.read(7))[0])
                else:
                    raise VNCError("unknown VNC message %d" % kind)
        except (FileNotFoundError, ConnectionRefusedError):
            self.close()
            raise
        except (OSError, struct.error) as error:
            self.close()
            raise VNCError("VNC: %s" % error)
        except VNCError:
            self.close()
            raise
        rgb = bytearray(self.width * self.height * 3)
        rgb[0::3] = self.screen[2::4]
        rgb[1::3] = self.screen[1::4]
        rgb[2::3] = self.screen[0::4]
        with open(path + ".part", "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (self.width, self.height))
            f.write(rgb)
        os.rename(path + ".part", path)

    def update(self):
        """Reads one framebuffer update into the screen; whether it held pixels."""
        (count,) = struct.unpack(">xH", self.read(3))
        pixels = False
        for _ in range(count):
            x, y, width, height, encoding = struct.unpack(">HHHHi", self.read(12))
            if encoding == self.DESKTOP_SIZE:
                self.resize(width, height)
                continue
            if encoding != self.RAW:
                raise VNCError("the VNC server sent encoding %d, not raw" % encoding)
            if x + width > self.width or y + height > self.height:
                raise VNCError("a VNC rectangle %dx%d at %d,%d outside the %dx%d screen" %
                               (width, height, x, y, self.width, self.height))
            data = self.read(width * height * 4)
            row = width * 4
            for line in range(height):
                start = ((y + line) * self.width + x) * 4
                self.screen[start:start + row] = data[line * row:(line + 1) * row]
            pixels = True
        return pixels


class ScreenWatch:
    """Screendumps every `interval` seconds (`grab(path)` writes one); each
    that differs from the last is kept in DIR/watch and listed in
    DIR/watch.txt."""

    def __init__(self, work, interval, grab, started):
        self.folder = os.path.join(work, "watch")
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        self.listing = open(os.path.join(work, "watch.txt"), "w")
        self.interval = interval
        self.grab = grab
        self.started = started
        self.next = started
        self.last = None
        self.count = 0
        self.stopped = False

    def poll(self):
        now = time.time()
        if self.stopped or now < self.next:
            return
        self.next = now + self.interval
        scratch = os.path.join(self.folder, "latest.ppm")
        try:
            self.grab(scratch)
            with open(scratch, "rb") as f:
                data = f.read()
        except (OSError, ValueError):
            # QEMU's socket not there yet, or no screen yet.
            return
        if data != self.last:
            self.last = data
            name = "%05d" % self.count
            self.count += 1
            os.rename(scratch, os.path.join(self.folder, name + ".ppm"))
            self.listing.write("%s %.3f\n" % (name, now - self.started))
            self.listing.flush()


def type_keys(qmp, keys):
    """Types `keys` (letters, digits, spaces, slashes; capitals with Shift),
    then Enter, on the guest's keyboard: one QMP send-key a key, which QEMU
    plays in order."""
    for key in list(keys) + ["\n"]:
        if key == "\n":
            codes = ["ret"]
        elif key == " ":
            codes = ["spc"]
        elif key == "/":
            codes = ["slash"]
        elif key.isupper():
            codes = ["shift", key.lower()]
        else:
            codes = [key]
        qmp("send-key", {"keys": [{"type": "qcode", "data": code} for code in codes]})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument(
        "--gpu", choices=["vga", "virtio", "vga+virtio", "firmware", "qxl", "virgl"], default="vga",
        help="vga: QEMU's VGA, bochs-drm in the guest (fb0 at --size); virtio: virtio-gpu-pci (its own mode); "
        "vga+virtio: both, two cards (card0 bochs, card1 virtio-gpu) as QMP devices video0 and video1; "
        "firmware: virtio-vga with vesafb only (1024x768), virtio-gpu left for the command to load; "
        "qxl: QEMU's qxl-vga (the qxl driver), the card wlroots 0.15's DRM back end runs on; "
        "virgl: virtio-vga-gl, a GPU with a render node (virglrenderer on the host's llvmpipe), its screen read "
        "through VNC")
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the command")
    parser.add_argument("--append", default="", help="more kernel parameters")
    parser.add_argument("--root", help="an ext4 image with systemd to boot instead of running COMMAND")
    parser.add_argument("--kernel", help="with --root: the kernel to boot (the image's own)")
    parser.add_argument("--initrd", help="with --root: its initramfs, made in the image (instead of the rig's)")
    parser.add_argument("--watch-screen", type=float, metavar="SECONDS", help="keep every new screen, polled this often")
    parser.add_argument(
        "--until", metavar="TEXT",
        help="end the run 1 s after a console line holds TEXT, with status 0 (a guest that never powers off, such "
        "as one left in the initramfs's rescue shell)")
    parser.add_argument(
        "--type", action="append", default=[], metavar="TEXT=KEYS",
        help="once the console shows TEXT (after what the --type before it waited for), type KEYS and Enter on the "
        "guest's keyboard (QMP send-key: letters, digits, space, slash); each typing is listed in DIR/typed.txt as "
        "'SECONDS TEXT' (since QEMU started)")
    parser.add_argument(
        "--rescue-shell", action="store_true",
        help="leave panic=-1 off the kernel's command line, so that initramfs-tools opens its rescue shell")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    if bool(args.root) == bool(args.command):
        parser.error("give either a COMMAND or --root IMAGE")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "env"), "w") as f:
        for pair in args.env:
            name, value = pair.split("=", 1)
            f.write("export %s='%s'\n" % (name, value.replace("'", "'\\''")))
    typings = []
    for pair in args.type:
        text, equals, keys = pair.partition("=")
        if not text or not equals or not all(c.isalnum() or c in " /" for c in keys):
            parser.error("--type %r: TEXT=KEYS, with letters, digits, spaces and slashes to type" % pair)
        typings.append((text.encode(), keys))
    if bool(args.kernel) != bool(args.initrd) or (args.kernel and not args.root):
        parser.error("--kernel and --initrd go together, with --root")
    firmware = args.gpu == "firmware"
    if args.kernel:
        image, initramfs = os.path.abspath(args.kernel), os.path.abspath(args.initrd)
        args.append = "root=/dev/vda " + args.append
    else:
        image, initramfs = build_initramfs(work, args.command, args.root, ["virtio-gpu"] if firmware else [])
    width, height = args.size.split("x")
    monitor = os.path.join(work, "qmp.sock")
    if os.path.exists(monitor):
        os.unlink(monitor)
    qemu = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", "qemu64", "-smp", "2", "-m", "1024", "-no-reboot",
        "-kernel", image, "-initrd", initramfs,
        "-append", "console=ttyS0 quiet loglevel=0 fbcon=nodefer " + ("" if args.rescue_shell else "panic=-1 ")
        + ("" if args.kernel else "rdinit=/init ")
        + ("vga=0x317 " if firmware else "") + args.append,
        "-vga", "none",
    ]
    vnc = None
    if args.gpu == "virgl":
        # The guest's GL on the host's Mesa: QEMU opens the render node
        # unchecked, and Mesa's GBM on /dev/null falls back to its software
        # screen. Its screen is read over VNC (VNCScreen).
        socket_path = os.path.join(work, "vnc.sock")
        if os.path.exists(socket_path):
            os.unlink(socket_path)
        qemu += ["-display", "egl-headless,rendernode=/dev/null", "-vnc", "unix:%s" % socket_path]
        vnc = VNCScreen(socket_path)
    else:
        qemu += ["-display", "none"]
    qemu += [
        "-qmp", "unix:%s,server,nowait" % monitor, "-serial", "stdio",
        "-virtfs", "local,path=%s,mount_tag=rig0,security_model=none" % work,
    ]
    devices = {
        "vga": ["VGA"], "virtio": ["virtio-gpu-pci"], "vga+virtio": ["VGA", "virtio-gpu-pci"],
        "firmware": ["virtio-vga"], "qxl": ["qxl-vga"], "virgl": ["virtio-vga-gl"],
    }[args.gpu]
    for index, device in enumerate(devices):
        qemu += ["-device", "%s,id=video%d,xres=%s,yres=%s" % (device, index, width, height)]
    if args.root:
        qemu += ["-drive", "file=%s,if=virtio,format=raw" % os.path.abspath(args.root)]
    else:
        qemu += ["-virtfs", "local,path=/,mount_tag=host0,security_model=none,readonly=on,multidevs=remap"]
    console = open(os.path.join(work, "console.log"), "w")
    process = subprocess.Popen(qemu, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    started = time.time()
    deadline = started + args.timeout
    qmp = Monitor(monitor)

    def watched(path):
        """The screen as a PPM at `path`, for the watch (which waits out a
        QEMU that has not made its sockets yet)."""
        if vnc is None:
            qmp("screendump", {"filename": path})
        else:
            vnc.grab(path)

    def screendump(path, device=None):
        """The screen (of `device`, a QMP display id) as a PPM at `path`."""
        if vnc is None:
            qmp("screendump", dict({"filename": path}, **({"device": device} if device else {})))
        elif device:
            raise VNCError("virgl has one screen: no screendump of %s" % device)
        else:
            try:
                vnc.grab(path)
            except (FileNotFoundError, ConnectionRefusedError) as error:
                raise VNCError("no VNC server: %s" % error)

    watch = ScreenWatch(work, args.watch_screen, watched, started) if args.watch_screen else None
    status = None
    timed_out = False
    failure = None
    try:
        os.set_blocking(process.stdout.fileno(), False)
        pending = b""
        until_seen = None
        # The console so far, from the end of what the last --type waited for.
        unmatched = b""
        typed = open(os.path.join(work, "typed.txt"), "w")
        while True:
            if time.time() > deadline:
                timed_out = True
                break
            if until_seen is not None and time.time() > until_seen + 1:
                status = 0
                break
            if watch and process.poll() is None and os.path.exists(monitor):
                watch.poll()
            chunk = process.stdout.read() or b""
            if not chunk:
                # Everything QEMU wrote before it exited has been read.
                if process.poll() is not None:
                    break
                time.sleep(0.02)
                continue
            console.write(chunk.decode(errors="replace"))
            console.flush()
            pending += chunk
            # A prompt ends no line: TEXT may be in what is pending.
            if args.until and until_seen is None and args.until.encode() in pending:
                until_seen = time.time()
            unmatched += chunk
            while typings and typings[0][0] in unmatched:
                text, keys = typings.pop(0)
                unmatched = unmatched[unmatched.index(text) + len(text):]
                type_keys(qmp, keys)
                typed.write("%.3f %s\n" % (time.time() - started, text.decode(errors="replace")))
                typed.flush()
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                line = raw.decode(errors="replace").strip()
                # A getty's prompt may come first on the same line ("vm login: RIG-STATUS 0").
                for marker in ("RIG-SCREENDUMP ", "RIG-QMP ", "RIG-STATUS ", "RIG-WATCH-STOP"):
                    if marker in line:
                        line = line[line.index(marker):]
                        break
                if line.startswith("RIG-SCREENDUMP "):
                    words = line.split()
                    name = words[1]
                    screendump(os.path.join(work, name + ".ppm"), words[2] if len(words) > 2 else None)
                    open(os.path.join(work, name + ".done"), "w").close()
                elif line.startswith("RIG-WATCH-STOP") and watch:
                    watch.stopped = True
                elif line.startswith("RIG-QMP "):
                    # RIG-QMP NAME COMMAND {JSON arguments}: a QMP command (device_add a
                    # display, say), then DIR/NAME.done with its reply.
                    _, name, command, arguments = line.split(" ", 3)
                    reply = qmp(command, json.loads(arguments))
                    with open(os.path.join(work, name + ".done"), "w") as f:
                        f.write(json.dumps(reply) + "\n")
                elif line.startswith("RIG-STATUS "):
                    status = int(line.split()[1])
    except VNCError as error:
        failure = str(error)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
            process.wait()
        console.close()
    if failure is not None:
        print("rig: the guest's screen could not be read: %s; see %s/console.log" % (failure, work))
        return 1
    if status is None:
        if timed_out:
            print("rig: the guest did not finish the command in %.0f s; see %s/console.log" % (args.timeout, work))
        else:
            print("rig: the guest stopped before the command ended; see %s/console.log" % work)
        return 1
    with open(os.path.join(work, "status"), "w") as f:
        f.write("%d\n" % status)
    return 0


if __name__ == "__main__":
    sys.exit(main())
