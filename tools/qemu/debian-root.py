#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the ext4 root image for the QEMU rig's systemd tier (rig.py --root).

    debian-root.py --cache DIR --overlay TREE --out IMAGE [--libraries-of FILE]... [--boot DIR]

The base is a minimal Debian bookworm (debootstrap --variant=minbase) with
systemd, udev and the libraries splashd links, made once and kept in DIR as a
tarball named after its package list. Each image is that base with TREE
copied over it, packed by mkfs.ext4 -d (no loop device, no mount). With
--libraries-of, the shared libraries FILE needs (ldd) that the base lacks are
copied in at their host paths too: a debug build's Swift runtime, say.

With --boot DIR, the base also has Debian's kernel, initramfs-tools and
busybox, and the image its own initramfs: update-initramfs runs in a chroot
of the tree (with the hooks the overlay installed, splashd's among them), and
DIR gets the kernel (vmlinuz) and that initramfs (initrd.img) to boot with
rig.py --kernel/--initrd, plus initrd-without-splashd.img, made the same way
with splashd's hook set aside, to measure what the hook adds, and
initrd-without-config.img, made with /etc/splashd/splashd.conf set aside;
each with NAME.files, the paths it holds.
Needs root, debootstrap and e2fsprogs (make test installs them).
"""
import argparse
import gzip
import hashlib
import os
import shutil
import subprocess
import sys

SUITE = "bookworm"
PACKAGES = [
    "systemd-sysv", "udev", "kmod",
    # What splashd and splashctl link (ldd .build/release/splashd).
    "libsdl2-2.0-0", "libsdl2-image-2.0-0", "libinih1", "libpng16-16",
    # What splashd loads for its message line (dlopen, so not in ldd's list).
    "libsdl2-ttf-2.0-0", "fonts-dejavu-core",
]
# What a base that boots its own kernel and initramfs adds (--boot).
BOOT_PACKAGES = ["linux-image-amd64", "initramfs-tools", "busybox"]
SPLASHD_HOOK = "usr/share/initramfs-tools/hooks/splashd"
SPLASHD_CONFIG = "etc/splashd/splashd.conf"


def cpio_paths(path):
    """The paths in an initramfs: gzip'd newc cpio archives, one after another."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    paths, offset = [], 0
    while offset + 110 <= len(data) and data[offset:offset + 6] == b"070701":
        size = int(data[offset + 54:offset + 62], 16)
        name_size = int(data[offset + 94:offset + 102], 16)
        name = data[offset + 110:offset + 110 + name_size - 1].decode(errors="replace")
        offset = (offset + 110 + name_size + 3) & ~3
        offset = (offset + size + 3) & ~3
        if name == "TRAILER!!!":
            # Another archive may follow, after padding.
            while offset < len(data) and data[offset] == 0:
                offset += 1
            continue
        paths.append(name)
    return paths


def base_tarball(cache, mirror, packages):
    key = hashlib.sha256((SUITE + " " + " ".join(packages)).encode()).hexdigest()[:12]
    tarball = os.path.join(cache, "debian-%s-%s.tar" % (SUITE, key))
    if os.path.exists(tarball):
        return tarball
    os.makedirs(cache, exist_ok=True)
    root = tarball + ".root"
    shutil.rmtree(root, ignore_errors=True)
    log = open(tarball + ".log", "w")
    command = ["debootstrap", "--variant=minbase", "--include=" + ",".join(packages), SUITE, root, mirror]
    if subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
        sys.exit("debian-root: debootstrap failed; see %s.log" % tarball)
    subprocess.run(["tar", "-C", root, "-cf", tarball + ".part", "."], check=True)
    os.rename(tarball + ".part", tarball)
    shutil.rmtree(root)
    return tarball


def needed_libraries(path):
    out = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if "=>" in parts and len(parts) > parts.index("=>") + 1 and parts[parts.index("=>") + 1].startswith("/"):
            yield parts[parts.index("=>") + 1]


def make_initramfs(root, boot):
    """update-initramfs in a chroot of `root`; the kernel and the initramfs
    (and one made without splashd's hook) copied to `boot`."""
    versions = sorted(name[len("vmlinuz-"):] for name in os.listdir(os.path.join(root, "boot")) if name.startswith("vmlinuz-"))
    if not versions:
        sys.exit("debian-root: no kernel in the image's /boot")
    version = versions[-1]
    os.makedirs(boot, exist_ok=True)
    log = open(os.path.join(boot, "update-initramfs.log"), "w")
    made = []
    # What each is made without (set aside for that run); the last is the one the image keeps.
    for name, without in (("initrd-without-splashd.img", SPLASHD_HOOK), ("initrd-without-config.img", SPLASHD_CONFIG),
                          ("initrd.img", None)):
        original = os.path.join(root, without) if without else None
        aside = os.path.join(root, "root", "set-aside")
        if original and os.path.exists(original):
            os.rename(original, aside)
        log.write("== %s\n" % name)
        log.flush()
        try:
            status = subprocess.run(["chroot", root, "update-initramfs", "-c", "-k", version], stdout=log,
                                    stderr=subprocess.STDOUT).returncode
        finally:
            if os.path.exists(aside):
                os.rename(aside, original)
        if status != 0:
            sys.exit("debian-root: update-initramfs failed; see %s" % log.name)
        target = os.path.join(boot, name)
        shutil.copy(os.path.join(root, "boot", "initrd.img-" + version), target)
        with open(target + ".files", "w") as f:
            f.write("".join(path + "\n" for path in cpio_paths(target)))
        made.append(name)
    shutil.copy(os.path.join(root, "boot", "vmlinuz-" + version), os.path.join(boot, "vmlinuz"))
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", required=True, help="where the base tarball is kept")
    parser.add_argument("--overlay", required=True, help="a tree copied over the base")
    parser.add_argument("--out", required=True, help="the ext4 image to write")
    parser.add_argument("--libraries-of", action="append", default=[], metavar="FILE")
    parser.add_argument("--mirror", default="http://deb.debian.org/debian")
    parser.add_argument("--boot", metavar="DIR", help="make the image's own initramfs; kernel and initramfs to DIR")
    args = parser.parse_args()
    packages = PACKAGES + (BOOT_PACKAGES if args.boot else [])
    tarball = base_tarball(os.path.abspath(args.cache), args.mirror, packages)
    root = os.path.abspath(args.out) + ".root"
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    try:
        subprocess.run(["tar", "-C", root, "-xf", tarball], check=True)
        subprocess.run(["cp", "-a", os.path.join(args.overlay, "."), root], check=True)
        for binary in args.libraries_of:
            for library in needed_libraries(binary):
                target = root + library
                if not os.path.lexists(target) and not os.path.lexists(root + os.path.realpath(library)):
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copy(library, target)
        if args.boot:
            make_initramfs(root, os.path.abspath(args.boot))
        size = int(subprocess.run(["du", "-sm", root], capture_output=True, text=True, check=True).stdout.split()[0])
        if os.path.exists(args.out):
            os.unlink(args.out)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", root, args.out, "%dM" % (size + 256)], check=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
