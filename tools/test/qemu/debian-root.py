#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the ext4 root image for the QEMU rig's systemd tier (rig.py --root).

    debian-root.py --cache DIR --overlay TREE --out IMAGE [--libraries-of FILE]... [--boot DIR]
                   [--deb PACKAGE --deb-report FILE] [--run COMMAND]... [--luks PASSPHRASE]
                   [--with PACKAGE]...

The base is a minimal Debian bookworm (debootstrap --variant=minbase) with
systemd, udev and the libraries splashd links, made once and kept in DIR as a
tarball named after its package list. Each image is that base with TREE
copied over it, packed by mkfs.ext4 -d (no loop device, no mount). With
--libraries-of, the shared libraries FILE needs (ldd) that the base lacks are
copied in at their host paths too: a debug build's Swift runtime, say.

With --boot DIR, the base also has Debian's kernel, initramfs-tools, busybox
and dracut-core, and the image its own initramfs: update-initramfs runs in a
chroot of the tree (with the hooks the overlay installed, splashd's among
them), and DIR gets the kernel (vmlinuz) and that initramfs (initrd.img) to
boot with rig.py --kernel/--initrd, plus initrd-without-splashd.img, made the
same way with splashd's hook set aside, to measure what the hook adds, and
initrd-without-config.img, made with /etc/splashd/splashd.conf set aside,
and initrd-broken-config.img, made with a config splashd refuses.
dracut makes initrd-dracut.img in the same chroot (a small systemd initramfs
with splashd's module, 90splashd, which the overlay installed), and
initrd-dracut-without-splashd.img without that module, and
initrd-dracut-broken-config.img with the refused config; each image comes
with NAME.files, the paths it holds, and NAME.log, what its tool printed.
With --deb, the package is installed as an admin would (dpkg -i in a chroot,
after the overlay, keeping the overlay's config file), after its removal and
purge were tried there: FILE gets, as JSON, the package's files, those left
after apt-get remove and after apt-get purge, what systemctl is-enabled said
of its units after the removal, and the links to its units left after the
purge. --run runs a shell command in a chroot of the image after that, as an
admin would (useradd, systemctl disable).
With --luks, the image is a LUKS2 volume holding that file system (encrypted
in place by cryptsetup, offline: no device mapper needed), opened with
PASSPHRASE (PBKDF2 at its fewest iterations, so that an emulated CPU opens
it at once); with --boot only initrd.img is made (update-initramfs, with
cryptsetup-initramfs's hook, which --with cryptsetup-initramfs brings, and
the overlay's crypttab). --with PACKAGE puts more packages in the base (cage,
say): a base of its own, made once and kept like the others.
Needs root, debootstrap and e2fsprogs, and cryptsetup for --luks (make test
installs them).
"""
import argparse
import contextlib
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys

SUITE = "bookworm"
PACKAGES = [
    "systemd-sysv", "udev", "kmod",
    # What splashd and splashctl link (ldd .build/release/splashd).
    "libsdl2-2.0-0", "libsdl2-image-2.0-0", "libinih1", "libpng16-16",
    # The font of splashd's message line (read when first used).
    "fonts-dejavu-core",
    # A logind session for a kiosk program run as its own user (PAMName=login);
    # debootstrap does not pick its system bus for it.
    "libpam-systemd", "dbus",
]
# What a base that boots its own kernel and initramfs adds (--boot).
BOOT_PACKAGES = ["linux-image-amd64", "initramfs-tools", "busybox", "dracut-core"]
# dracut's modules for a small systemd initramfs that mounts the rig's root
# (splashd's own, added to them, pulls in what it needs), and the root's drivers.
DRACUT_MODULES = "systemd-initrd dracut-systemd rootfs-block"
DRACUT_DRIVERS = "virtio_pci virtio_blk crc32c_generic ext4"
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


def machine_archive():
    """The archive this machine's own apt takes SUITE from (tools/build/apt-archive.sh)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "apt-archive.sh")
    found = subprocess.run([script, SUITE], capture_output=True, text=True)
    if found.returncode != 0:
        sys.exit("debian-root: " + found.stderr.strip())
    return found.stdout.strip()


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


# A config file splashd refuses: each tool must still make its initramfs, say
# why in one line, and leave splashd out.
BROKEN_CONFIG = "[splash]\nno-such-key = 1\n"


@contextlib.contextmanager
def replaced(root, path, text):
    """`path` in `root` set aside for the block (`text` None), or replaced by `text`."""
    original = os.path.join(root, path) if path else None
    aside = os.path.join(root, "root", "set-aside")
    if original and os.path.exists(original):
        os.rename(original, aside)
        if text is not None:
            with open(original, "w") as f:
                f.write(text)
    try:
        yield
    finally:
        if os.path.exists(aside):
            os.replace(aside, original)


def make_initramfs(root, boot, only_kept=False):
    """update-initramfs and dracut in a chroot of `root`; the kernel and the
    initramfs images (and those made without splashd, or with a config it
    refuses; not with `only_kept`) copied to `boot`, each with its own log,
    NAME.log."""
    versions = sorted(name[len("vmlinuz-"):] for name in os.listdir(os.path.join(root, "boot")) if name.startswith("vmlinuz-"))
    if not versions:
        sys.exit("debian-root: no kernel in the image's /boot")
    version = versions[-1]
    os.makedirs(boot, exist_ok=True)
    made = []

    def make(name, command, built, keep):
        """Runs `command` in the chroot, and copies (`keep`) or moves the image it `built` to `boot`."""
        with open(os.path.join(boot, name + ".log"), "w") as log:
            if subprocess.run(["chroot", root] + command, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
                sys.exit("debian-root: %s failed; see %s" % (command[0], log.name))
        target = os.path.join(boot, name)
        (shutil.copy if keep else shutil.move)(built, target)
        with open(target + ".files", "w") as f:
            f.write("".join(path + "\n" for path in cpio_paths(target)))
        made.append(name)

    # What each is made without or with (for that run); the last is the one the image keeps in /boot.
    variants = (("initrd-without-splashd.img", SPLASHD_HOOK, None),
                ("initrd-without-config.img", SPLASHD_CONFIG, None),
                ("initrd-broken-config.img", SPLASHD_CONFIG, BROKEN_CONFIG))
    for name, path, text in (() if only_kept else variants) + (("initrd.img", None, None),):
        with replaced(root, path, text):
            make(name, ["update-initramfs", "-c", "-k", version], os.path.join(root, "boot", "initrd.img-" + version),
                 keep=True)
    dracut_images = (("initrd-dracut-without-splashd.img", DRACUT_MODULES, None),
                     ("initrd-dracut-broken-config.img", DRACUT_MODULES + " splashd", BROKEN_CONFIG),
                     ("initrd-dracut.img", DRACUT_MODULES + " splashd", None))
    for name, modules, text in () if only_kept else dracut_images:
        inside = "/root/" + name
        with replaced(root, SPLASHD_CONFIG if text else None, text):
            make(name, ["dracut", "--force", "--kver", version, "--no-hostonly", "--no-early-microcode", "--modules",
                        modules, "--add-drivers", DRACUT_DRIVERS, inside], root + inside, keep=False)
    shutil.copy(os.path.join(root, "boot", "vmlinuz-" + version), os.path.join(boot, "vmlinuz"))
    return made


# Room for the LUKS2 header, taken from the end of the image (the file
# system is made that much smaller than the file).
LUKS_HEADER_MIB = 16


def encrypt(image, passphrase):
    """Encrypts `image` in place as a LUKS2 volume (cryptsetup's offline
    encryption: no device mapper, no loop device), its key slot opened by
    `passphrase` with PBKDF2 at its fewest iterations."""
    with open(image, "r+b") as f:
        f.truncate(os.path.getsize(image) + (LUKS_HEADER_MIB << 20))
    done = subprocess.run(
        ["cryptsetup", "reencrypt", "--encrypt", "--type", "luks2", "--reduce-device-size", "%dM" % LUKS_HEADER_MIB,
         "--force-offline-reencrypt", "--disable-locks", "--batch-mode", "--pbkdf", "pbkdf2",
         "--pbkdf-force-iterations", "1000", "--key-file", "-", image],
        input=passphrase.encode(), capture_output=True)
    if done.returncode != 0:
        sys.exit("debian-root: cryptsetup reencrypt --encrypt failed: %s" % done.stderr.decode(errors="replace"))


def chroot(root, *command):
    """Runs `command` in a chroot of `root`; its output, or an exit naming it."""
    done = subprocess.run(["chroot", root] + list(command), capture_output=True, text=True,
                          env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if done.returncode != 0:
        sys.exit("debian-root: %s failed: %s%s" % (" ".join(command), done.stdout, done.stderr))
    return done.stdout


def install_deb(root, overlay, deb):
    """Installs `deb` in `root` after trying its removal and purge there;
    returns what each left behind."""
    inside = "/root/" + os.path.basename(deb)
    shutil.copy(deb, root + inside)
    install = ["dpkg", "-i", "--force-confold", "--force-confdef", inside]
    chroot(root, *install)
    name = chroot(root, "dpkg-deb", "-f", inside, "Package").strip()
    files = [path for path in chroot(root, "dpkg", "-L", name).split("\n")
             if path and os.path.lexists(root + path) and not os.path.isdir(root + path)]
    units = [os.path.basename(path) for path in files
             if "/systemd/system/" in path and path.endswith((".service", ".path"))]
    chroot(root, "apt-get", "remove", "-y", name)
    after_remove = [path for path in files if os.path.lexists(root + path)]
    # is-enabled exits non-zero for every state but enabled: its words are what counts.
    states = {}
    for unit in units:
        said = subprocess.run(["chroot", root, "systemctl", "is-enabled", unit], capture_output=True, text=True)
        states[unit] = (said.stdout + said.stderr).strip()
    chroot(root, "apt-get", "purge", "-y", name)
    after_purge = [path for path in files if os.path.lexists(root + path)]
    links = []
    for folder, _, names in os.walk(os.path.join(root, "etc", "systemd")):
        links += [os.path.join(folder, n)[len(root):] for n in names if n in units]
    # The overlay again (the purge took its config file), then the package for good.
    subprocess.run(["cp", "-a", os.path.join(overlay, "."), root], check=True)
    chroot(root, *install)
    os.unlink(root + inside)
    return {"files": files, "afterRemove": after_remove, "enabledAfterRemove": states,
            "afterPurge": after_purge, "unitLinksAfterPurge": links}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", required=True, help="where the base tarball is kept")
    parser.add_argument("--overlay", required=True, help="a tree copied over the base")
    parser.add_argument("--out", required=True, help="the ext4 image to write")
    parser.add_argument("--libraries-of", action="append", default=[], metavar="FILE")
    parser.add_argument("--mirror", help="the Debian archive (default: the one this machine's apt takes %s from)" % SUITE)
    parser.add_argument("--boot", metavar="DIR", help="make the image's own initramfs; kernel and initramfs to DIR")
    parser.add_argument("--deb", metavar="PACKAGE", help="install this .deb in the image, after trying its removal")
    parser.add_argument("--deb-report", metavar="FILE", help="what the removal and the purge left (JSON)")
    parser.add_argument("--run", action="append", default=[], metavar="COMMAND",
                        help="a shell command to run in a chroot of the image after the package's install")
    parser.add_argument("--luks", metavar="PASSPHRASE", help="make the image a LUKS2 volume opened with PASSPHRASE")
    parser.add_argument("--with", dest="with_packages", action="append", default=[], metavar="PACKAGE",
                        help="a package the base has too (a base of its own, kept beside the others)")
    args = parser.parse_args()
    packages = PACKAGES + (BOOT_PACKAGES if args.boot else []) + args.with_packages
    mirror = args.mirror or machine_archive()
    tarball = base_tarball(os.path.abspath(args.cache), mirror, packages)
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
        if args.deb:
            report = install_deb(root, os.path.abspath(args.overlay), os.path.abspath(args.deb))
            if args.deb_report:
                with open(args.deb_report, "w") as f:
                    json.dump(report, f, indent=1)
        for command in args.run:
            chroot(root, "sh", "-c", command)
        if args.boot:
            make_initramfs(root, os.path.abspath(args.boot), only_kept=bool(args.luks))
        size = int(subprocess.run(["du", "-sm", root], capture_output=True, text=True, check=True).stdout.split()[0])
        if os.path.exists(args.out):
            os.unlink(args.out)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", root, args.out, "%dM" % (size + 256)], check=True)
        if args.luks:
            encrypt(args.out, args.luks)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
