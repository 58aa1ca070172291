#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# splashd's dracut module (installed as /usr/lib/dracut/modules.d/90splashd):
# puts splashd in a systemd initramfs with the libraries it links, its config,
# the pictures and animation the config names, the display's kernel modules,
# and splashd-initrd.service (installed with splashd's other units), which
# starts it once udev has found the display and keeps it through the switch
# to the root, where splashd.service adopts it; and splashd-ask-password.path,
# which sends a disk's passphrase request to the splash. The counterpart of the initramfs-tools hook, with the same knobs and the
# same rule: it never fails the initramfs (a missing binary, config or picture
# is one warning, and the initramfs is made without the splash, or without
# that file). Knobs, in /etc/splashd/initramfs.conf (a shell file, read if it
# exists):
#   SPLASHD_INITRAMFS=no          leave splashd out of the initramfs
#   SPLASHD_DISPLAY_MODULES="..." display drivers to add besides this machine's
#                                 own (for an image made on another machine)
# docs/initramfs.md.

# Reads the knobs.
splashd_knobs() {
    SPLASHD_INITRAMFS=yes
    SPLASHD_DISPLAY_MODULES=""
    if [[ -r /etc/splashd/initramfs.conf ]]; then
        # shellcheck disable=SC1091
        . /etc/splashd/initramfs.conf
    fi
}

# called by dracut: included whenever splashd is installed, unless a knob
# says no.
check() {
    splashd_knobs
    [[ $SPLASHD_INITRAMFS != no ]] || return 1
    require_binaries /usr/bin/splashd || return 1
    [[ -f $systemdsystemunitdir/splashd-initrd.service ]] || return 1
    return 0
}

# called by dracut: the unit needs a systemd initramfs.
depends() {
    echo systemd
    return 0
}

# called by dracut: the display's drivers, those of this machine's DRM cards
# and those the knob names. A failure here would fail the whole initramfs, so
# a driver that cannot be added is a warning.
installkernel() {
    splashd_knobs
    local module name
    for module in /sys/class/drm/card[0-9]*/device/driver/module; do
        [[ -e $module ]] || continue
        name=$(basename "$(readlink -f "$module")")
        hostonly='' instmods "$name" || dwarn "splashd: display driver $name not added"
    done
    for name in $SPLASHD_DISPLAY_MODULES; do
        hostonly='' instmods "$name" || dwarn "splashd: display driver $name (SPLASHD_DISPLAY_MODULES) not added"
    done
    return 0
}

# called by dracut: splashd, what its config makes it read at start (the
# bundled picture without one), and its unit.
install() {
    local files kind path frame
    local config=()
    [[ -e /etc/splashd/splashd.conf ]] && config=(--config /etc/splashd/splashd.conf)
    if ! files=$(/usr/bin/splashd "${config[@]}" --list-files 2>&1); then
        dwarn "splashd: ${files#splashd: }; the initramfs starts no splash"
        return 0
    fi
    inst_binary /usr/bin/splashd
    while read -r kind path; do
        case $kind in
            config | picture)
                if [[ -f $path ]]; then
                    inst_simple "$path"
                else
                    dwarn "splashd: $path ($kind) is missing; the initramfs's splash goes without it"
                fi
                ;;
            animation)
                # A GIF, or a folder of numbered PNGs.
                if [[ -d $path ]]; then
                    for frame in "$path"/*; do
                        [[ -f $frame ]] && inst_simple "$frame"
                    done
                elif [[ -f $path ]]; then
                    inst_simple "$path"
                fi
                ;;
        esac
    done <<< "$files"
    # The message's font and text library stay out, as in the initramfs-tools
    # hook, unless a disk is unlocked here (dracut's crypt module): the
    # passphrase's prompt is a line of text. Otherwise the initramfs's splash
    # shows no message, and the root's takes it over.
    if dracut_module_included crypt; then
        while read -r kind path; do
            [[ $kind == font && -f $path ]] && inst_simple "$path"
        done <<< "$files"
    fi
    inst_simple "$systemdsystemunitdir/splashd-initrd.service"
    $SYSTEMCTL -q --root "$initdir" add-wants sysinit.target splashd-initrd.service
    # A disk's passphrase asked by systemd-cryptsetup goes to the splash:
    # systemd's agent in its Plymouth mode, while splashd names itself in
    # /run/plymouth/pid (the console's agent stands aside meanwhile).
    if [[ -f $systemdsystemunitdir/splashd-ask-password.path ]] \
        && inst_multiple -o systemd-tty-ask-password-agent \
        && inst_simple "$systemdsystemunitdir/splashd-ask-password.path" \
        && inst_simple "$systemdsystemunitdir/splashd-ask-password.service"; then
        $SYSTEMCTL -q --root "$initdir" add-wants sysinit.target splashd-ask-password.path
    fi
    return 0
}
