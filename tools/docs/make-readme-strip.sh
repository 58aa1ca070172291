#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Remakes docs/images/doors-strip.png, crossfade-strip.png,
# status-strip.png and host-mode-strip.png, the README's pictures: frames
# that splashd itself recorded, side by side. Needs ImageMagick (apt-get
# install imagemagick), Pillow (python3-pil) for the spinner's frames, foot
# for host mode's, and a built splashd (make build: its Wayland host beside it).
set -euo pipefail
cd "$(dirname "$0")/../.."
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
# The status layers: a bar, a message and a spinner while the splash holds,
# fading over the first quarter of the doors' transition.
mkdir "$work/spinner"
/usr/bin/python3 - "$work/spinner" <<'PY'
import math, sys
from PIL import Image, ImageDraw
for n in range(12):
    frame = Image.new("RGBA", (96, 96), (0, 0, 0, 0))
    draw = ImageDraw.Draw(frame)
    for dot in range(12):
        angle = 2 * math.pi * dot / 12
        x, y = 48 + 36 * math.cos(angle), 48 + 36 * math.sin(angle)
        shade = 255 - 18 * ((dot - n) % 12)
        draw.ellipse([x - 7, y - 7, x + 7, y + 7], fill=(shade, shade, shade, 255))
    frame.save(f"{sys.argv[1]}/{n + 1}.png")
PY
"$splashd" --config /dev/null --record "$work/status" --size 480x270 --fps 10 --hold 1 --duration 1.2 \
  --background '#F2EFE6' --progress 60 --message 'Starting the kiosk…' --animation "$work/spinner" \
  --animation-fps 10 --animation-rect '0.44, 0.05, 0.12, 0.12' 2>/dev/null
frames=()
for index in 00000 00004 00008 00011 00013; do frames+=("$work/status/frame-$index.png"); done
convert "${frames[@]}" -bordercolor white -border 4 +append docs/images/status-strip.png
# Host mode: the doors opening onto a real program (foot, as splashd's
# Wayland client), recorded by splashd itself.
"$splashd" --config /dev/null --record "$work/host" --size 480x270 --fps 10 --duration 1.2 --host wayland \
  -- foot --override=colors.background=1d3557 --override=colors.foreground=f1faee \
  sh -c 'echo "kiosk ready: the program itself, live behind the doors"; exec sleep 60' 2>/dev/null
frames=()
for index in 00000 00004 00007 00009 00012; do frames+=("$work/host/frame-$index.png"); done
convert "${frames[@]}" -bordercolor white -border 4 +append docs/images/host-mode-strip.png
