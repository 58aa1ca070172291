#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The guest side of the systemd boot: a whole Debian with splashd's package
# and the kiosk program (kiosk-app.sh) in one of the two shipped patterns.
# Put in the image as /usr/local/lib/rig/systemd-kiosk-boot.sh; each of the
# test's units runs one STEP (systemd-kiosk-boot.sh STEP), in this order:
#   early        rig-early.service, with splashd.service only, before
#                sysinit.target: screendump early, while systemd's jobs run
#   boot-script  rig-boot-script.service: a boot script's calls. CLIENT=psplash:
#                a message through psplash's FIFO, written as psplash-write
#                writes it (non-blocking, the text and its NUL);
#                CLIENT=plymouth: a message and 40 % progress through
#                Debian's plymouth client
#   held         rig-held.service: splashctl status in /run/rig/held-status,
#                screendump held of the held splash; REVEAL=yes: then
#                splashctl reveal (nothing else reveals it)
#   final        rig-final.service, after the kiosk unit: once the kiosk
#                program has drawn, screendump final; the journal
#                (/run/rig/journal.txt), SPLASH_UNIT's (splashd-journal.txt)
#                and KIOSK_UNIT's (kiosk-journal.json), KIOSK_UNIT's state
#                (kiosk-state), who the program ran as (kiosk-who); then
#                RIG-STATUS 0 and the power off
# Takes CLIENT, REVEAL, SPLASH_UNIT and KIOSK_UNIT (from the units'
# Environment=), as above.
# Each step's start and end go to the console, so a boot that stops says
# where.
echo "RIG-STEP $1" > /dev/ttyS0
trap 'echo "RIG-STEP $1 ended: $?" > /dev/ttyS0' EXIT
case $1 in
early)
  echo RIG-SCREENDUMP early > /dev/ttyS0
  while [ ! -e /run/rig/early.done ]; do sleep 0.1; done
  ;;
boot-script)
  case $CLIENT in
  psplash) printf 'MSG From psplash-write\000' | dd of=/run/psplash_fifo oflag=nonblock status=none ;;
  plymouth)
    timeout 60 plymouth display-message --text="From plymouth" && timeout 60 plymouth system-update --progress=40
    ;;
  *) echo "$0: CLIENT=$CLIENT: psplash or plymouth" >&2; exit 2 ;;
  esac
  ;;
held)
  timeout 30 splashctl status > /run/rig/held-status
  echo RIG-SCREENDUMP held > /dev/ttyS0
  while [ ! -e /run/rig/held.done ]; do sleep 0.1; done
  if [ "$REVEAL" = yes ]; then splashctl reveal; fi
  ;;
final)
  i=0; while [ ! -e /dev/shm/kiosk-app.drawn ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
  echo RIG-SCREENDUMP final > /dev/ttyS0
  while [ ! -e /run/rig/final.done ]; do sleep 0.1; done
  journalctl -b -o short-monotonic > /run/rig/journal.txt
  journalctl -b -u $SPLASH_UNIT -o cat > /run/rig/splashd-journal.txt
  journalctl -b -u $KIOSK_UNIT -o json --output-fields=_PID,MESSAGE > /run/rig/kiosk-journal.json
  systemctl is-active $KIOSK_UNIT > /run/rig/kiosk-state
  cp /dev/shm/kiosk-app.who /run/rig/kiosk-who
  echo RIG-STATUS 0 > /dev/ttyS0; systemctl poweroff --force --force
  ;;
*)
  echo "$0: no step '$1': early, boot-script, held or final" >&2
  exit 2
  ;;
esac
