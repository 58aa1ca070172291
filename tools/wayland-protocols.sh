#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes the protocol header wlroots 0.15's headers include (xdg-shell's
# server side) for host mode's compositor, into wayland-host/protocols/,
# from the machine's wayland-protocols (make deps installs it, for
# tools/build-wlroots.sh). Kept in the tree: run it again after a change of
# wayland-protocols, and commit what changed.
#
#   tools/wayland-protocols.sh
set -eu
cd "$(dirname "$0")/.."
protocols=$(pkg-config --variable=pkgdatadir wayland-protocols)
wayland-scanner server-header "$protocols/stable/xdg-shell/xdg-shell.xml" wayland-host/protocols/xdg-shell-protocol.h
