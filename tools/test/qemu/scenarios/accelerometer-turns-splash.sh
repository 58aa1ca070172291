#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A fake accelerometer ($guest/fake-accelerometer.py) turns the held
# splash: screendump upright while it reports the device upright, then it
# reports being turned right-up (/run/rig/tilt) and, once splashd turned,
# screendump turned.
# Takes SPLASHD and LEAVES (splashd's picture arguments, split on spaces).
. "$(dirname "$0")/lib.sh"
start_device fake-accelerometer.py accel-ready
turn_held_splash upright tilt turned --config /dev/null --rotate auto $LEAVES
