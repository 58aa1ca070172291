#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The kiosk program of the systemd and initramfs boots, put in their images
# as /usr/bin/kiosk-app, the program the shipped kiosk units start: notes
# who it runs as and in which kind of session (/dev/shm/kiosk-app.who), then
# becomes kiosk-colour (tools/test/qemu/kiosk-colour.c, built by the test into
# /usr/local/bin), which fills the screen with #2080c0 and then makes
# /dev/shm/kiosk-app.drawn.
# Takes no variables of the test's (XDG_SESSION_TYPE is logind's).
echo "$(id -un) ${XDG_SESSION_TYPE:-no-session}" > /dev/shm/kiosk-app.who
exec /usr/local/bin/kiosk-colour 2080c0 /dev/shm/kiosk-app.drawn
