#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the release build (make build) as it ships: it starts, neither
# binary carries a RUNPATH (the loader would look beside the binary for every
# library at every start; nothing is installed there), SDL is linked in
# (tools/build/build-sdl.sh), host mode's compositor is a shared object of its own
# (the trimmed wlroots and libinput linked in: none of the libraries
# Debian's bring, no Swift runtime), a running splash maps only what it
# draws with (no Wayland library), and splashd's code is laid out in the
# order of tools/build/text-order.txt.
#
#     tools/release/check-release.sh [BUILD_DIR]
set -eu
dir=${1:-.build/release}
for binary in splashd splashctl; do
  if readelf -d "$dir/$binary" | grep -q -E 'RUNPATH|RPATH'; then
    echo "check-release: $dir/$binary has a RUNPATH: $(readelf -d "$dir/$binary" | grep -E 'RUNPATH|RPATH')" >&2
    exit 1
  fi
  "$dir/$binary" --version > /dev/null
done
if readelf -d "$dir/splashd" | grep -q 'NEEDED.*libSDL2'; then
  echo "check-release: $dir/splashd links a shared SDL (build it with make: tools/build/build-sdl.sh)" >&2
  exit 1
fi
if readelf -d "$dir/splashd" | grep -q 'NEEDED.*libstdc++'; then
  echo "check-release: $dir/splashd links the shared libstdc++ (build it with make: STATIC_CXX)" >&2
  exit 1
fi
echo "release_needed_libraries: $(readelf -d "$dir/splashd" | grep -c NEEDED)"
# Host mode's compositor: its own shared object, loaded only in host mode,
# with the trimmed static wlroots and libinput linked in
# (tools/build/build-wlroots.sh): neither it nor what it loads is a shared wlroots
# or what Debian's brings (EGL, GL, GBM, libseat, libsystemd, wayland-client,
# xcb-xinput), or Swift's; no RUNPATH. libwacom and GLib come only with
# Debian's shared libinput, which it links only when the script could not
# have libinput's sources (it says so).
host="$dir/libsplashd-wayland-host.so"
if [ ! -f "$host" ]; then
  echo "check-release: $host is missing" >&2
  exit 1
fi
if ! ldd "$host" > /dev/null; then
  echo "check-release: $host cannot be loaded (ldd fails)" >&2
  exit 1
fi
host_libraries=$(ldd "$host" | awk '$1 !~ /^linux-vdso/ { print $1 }')
unwanted='libwlroots|libEGL|libGL|libgbm|libseat|libsystemd|libwayland-client|libxcb-xinput|libswift'
if readelf -d "$host" | grep -q 'NEEDED.*libinput'; then
  echo "release_host_libinput: debian"
else
  echo "release_host_libinput: linked-in"
  unwanted="$unwanted|libwacom|libgudev|libglib|libgobject"
fi
unwanted=$(printf '%s\n' "$host_libraries" | grep -E "$unwanted" || true)
if [ -n "$unwanted" ] || readelf -d "$host" | grep -q -E 'RUNPATH|RPATH'; then
  echo "check-release: $host loads what host mode's trimmed wlroots leaves out, or has a RUNPATH (build it with" \
    "make: tools/build/build-wlroots.sh):" $unwanted "$(readelf -d "$host" | grep -E 'RUNPATH|RPATH')" >&2
  exit 1
fi
echo "release_host_needed_libraries: $(readelf -d "$host" | grep -c NEEDED)"
echo "release_host_loaded_libraries: $(printf '%s\n' "$host_libraries" | grep -c .)"
# Its GPU variant: the same, but EGL, GLESv2 and GBM (what the plain one
# must never load) are what it is for.
gpu="$dir/libsplashd-wayland-host-gpu.so"
if [ ! -f "$gpu" ] || ! ldd "$gpu" > /dev/null; then
  echo "check-release: $gpu is missing or cannot be loaded (ldd fails)" >&2
  exit 1
fi
gpu_needed=$(readelf -d "$gpu" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p')
unwanted=$(printf '%s\n' "$gpu_needed" | grep -E 'libwlroots|libseat|libsystemd|libwayland-client|libxcb-xinput|libswift' || true)
if [ -n "$unwanted" ] || ! printf '%s\n' "$gpu_needed" | grep -q '^libEGL' \
  || readelf -d "$gpu" | grep -q -E 'RUNPATH|RPATH'; then
  echo "check-release: $gpu needs what the trimmed wlroots leaves out, lacks EGL, or has a RUNPATH:" $unwanted >&2
  exit 1
fi
echo "release_host_gpu_needed_libraries: $(printf '%s\n' "$gpu_needed" | grep -c .)"

# A splash showing its first frame (offscreen, the demo picture) maps at most
# 12 shared libraries, and no GL, X11, Wayland, audio or shared SDL one.
log=$(mktemp)
"$dir/splashd" --config /dev/null --display offscreen --size 320x240 --hold 30 --duration 0 2> "$log" &
pid=$!
for _ in $(seq 100); do
  if grep -q 'splashd: appeared' "$log"; then break; fi
  sleep 0.05
done
mapped=$(awk '$6 ~ /[.]so/ {print $6}' "/proc/$pid/maps" 2> /dev/null | sort -u)
# How much of splashd's code is resident at the first frame (the Rss of its
# executable mapping): a figure, not a check.
code_kib=$(awk '/^[0-9a-f]+-/ { code = ($2 ~ /x/ && $6 ~ /\/splashd$/) } code && /^Rss:/ { print $2; exit }' \
  "/proc/$pid/smaps" 2> /dev/null)
kill "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
if ! grep -q 'splashd: appeared' "$log"; then
  echo "check-release: $dir/splashd showed no first frame in 5 s: $(cat "$log")" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "release_first_frame_code_resident_kib: ${code_kib:-unknown}"
count=$(printf '%s
' "$mapped" | grep -c .)
echo "release_mapped_libraries: $count"
unused=$(printf '%s
' "$mapped" | grep -E 'libEGL|libGL|libgbm|_dri[.]so|libglapi|libX|libxcb|libwayland|libdecor|libpulse|libasound|libpipewire|libsndfile|libSDL2' || true)
if [ -n "$unused" ] || [ "$count" -gt 12 ] || [ "$count" -eq 0 ]; then
  echo "check-release: a running splash maps $count libraries:" $mapped >&2
  exit 1
fi

# The code is laid out in tools/build/text-order.txt's order (make build's
# TEXT_ORDER): the functions of splashd's own modules that the file names
# lie together, within twice their size, not across the ~1 MB of those
# modules.
python3 - "$dir/splashd" "$(dirname "$0")/../build/text-order.txt" << 'END'
import subprocess, sys
binary, order = sys.argv[1], sys.argv[2]
own = ("$s9SplashApp", "$s10SplashCore", "$s14SplashSettings")
named = {line.strip()[len(".text."):] for line in open(order) if line.startswith(".text.$s")}
named = {name for name in named if name.startswith(own) and "*" not in name}
placed = []
for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 4 and fields[3] in named:
        placed.append((int(fields[0], 16), int(fields[1], 16)))
if len(placed) < 50:
    sys.exit("check-release: only %d of tools/build/text-order.txt's functions are in %s" % (len(placed), binary))
span = max(a + n for a, n in placed) - min(a for a, _ in placed)
size = sum(n for _, n in placed)
print("release_ordered_code_span_kib: %d (%d functions, %d KiB)" % (span // 1024, len(placed), size // 1024))
if span > 2 * size:
    sys.exit("check-release: %s is not laid out in tools/build/text-order.txt's order: %d of its functions across %d KiB"
             % (binary, len(placed), span // 1024))
END
echo "check-release: $dir/splashd and splashctl start, have no RUNPATH, link SDL statically, map $count libraries;" \
  "splashd's code is laid out in tools/build/text-order.txt's order; host mode's compositor loads" \
  "$(printf '%s\n' "$host_libraries" | grep -c .) libraries, none of Debian's wlroots'"
