#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# --display auto and the KMS back ends' refusals, each splashd's log in
# /run/rig: first.log (the card as it is), mode.log and sdl-mode.log (a mode
# the connector lacks, with the exit status), panel.log (--check with the
# panel as the orientation source), busy.log (another splashd, holder.log,
# is DRM master), unplugged.log (the connector forced off), no-card.log
# (kms asked for by name then, with the exit status), second.log (the card's
# device node removed; its status is the scenario's).
# Takes SPLASHD (the binary).
. "$(dirname "$0")/lib.sh"
"$SPLASHD" --config /dev/null --duration 0 2>/run/rig/first.log
"$SPLASHD" --config /dev/null --duration 0 --display kms --mode 1234x567 2>/run/rig/mode.log
echo "exit $?" >> /run/rig/mode.log
"$SPLASHD" --config /dev/null --duration 0 --display kmsdrm --mode 1234x567 2>/run/rig/sdl-mode.log
echo "exit $?" >> /run/rig/sdl-mode.log
printf '[orientation]\nsources = panel\n' > /run/rig/panel.conf
"$SPLASHD" --config /run/rig/panel.conf --rotate auto --check 2>/run/rig/panel.log >/dev/null
# A splash that holds the card: the next one cannot be DRM master.
"$SPLASHD" --config /dev/null --display kms --until-file /run/rig/go --timeout 100 2>/run/rig/holder.log &
await_first_frame 60 /run/rig/holder.log
"$SPLASHD" --config /dev/null --duration 0 2>/run/rig/busy.log
touch /run/rig/go; wait $pid
# The connector unplugged (forced off): the card has nothing to light.
echo off > /sys/class/drm/card0-Virtual-1/status
"$SPLASHD" --config /dev/null --duration 0 --device /dev/dri/card0 2>/run/rig/unplugged.log
"$SPLASHD" --config /dev/null --duration 0 --display kms 2>/run/rig/no-card.log
echo "exit $?" >> /run/rig/no-card.log
echo detect > /sys/class/drm/card0-Virtual-1/status
rm /dev/dri/card0
"$SPLASHD" --config /dev/null --duration 0 2>/run/rig/second.log
