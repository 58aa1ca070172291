#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The guest side of the initramfs boots: Debian's kernel and an initramfs
# with splashd's hook or module, the root's splashd.service and the kiosk
# program (kiosk-app.sh); the host watches the screen. Put in the image as
# /usr/local/lib/rig/initramfs-kiosk-boot.sh; each of the test's units runs
# one STEP (initramfs-kiosk-boot.sh STEP):
#   framebuffers  rig-framebuffers.service, while the root's splash holds:
#                 the card's framebuffers (debugfs) in
#                 /run/rig/framebuffers.txt, for what the handover left behind
#   final         rig-final.service, after the kiosk unit: once the kiosk
#                 program has drawn, the journal (/run/rig/journal.txt), then
#                 RIG-STATUS 0 and a reboot (the shutdown splash)
# Takes no variables.
case $1 in
framebuffers)
  cat /sys/kernel/debug/dri/0/framebuffer > /run/rig/framebuffers.txt
  ;;
final)
  i=0; while [ ! -e /dev/shm/kiosk-app.drawn ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
  journalctl -b -o short-monotonic > /run/rig/journal.txt
  echo RIG-STATUS 0 > /dev/ttyS0; systemctl reboot
  ;;
*)
  echo "$0: no step '$1': framebuffers or final" >&2
  exit 2
  ;;
esac
