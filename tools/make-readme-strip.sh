#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Remakes docs/images/doors-strip.png and crossfade-strip.png, the README's
# pictures: frames that splashd itself recorded, side by side.
# Needs ImageMagick (apt-get install imagemagick) and a built splashd.
set -euo pipefail
cd "$(dirname "$0")/.."
splashd=${1:-.build/release/splashd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for transition in doors crossfade; do
  "$splashd" --config /dev/null --record "$work/$transition" --size 480x270 --fps 10 \
    --transition "$transition" --duration 1.2 --background '#F2EFE6' 2>/dev/null
  frames=()
  for index in 00000 00004 00007 00009 00012; do frames+=("$work/$transition/frame-$index.png"); done
  convert "${frames[@]}" -bordercolor white -border 4 +append "docs/images/$transition-strip.png"
done
