#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the release build (make build) as it ships: it starts, and neither
# binary carries a RUNPATH (the loader would look beside the binary for every
# library at every start; nothing is installed there).
#
#     tools/check-release.sh [BUILD_DIR]
set -eu
dir=${1:-.build/release}
for binary in splashd splashctl; do
  if readelf -d "$dir/$binary" | grep -q -E 'RUNPATH|RPATH'; then
    echo "check-release: $dir/$binary has a RUNPATH: $(readelf -d "$dir/$binary" | grep -E 'RUNPATH|RPATH')" >&2
    exit 1
  fi
  "$dir/$binary" --version > /dev/null
done
echo "release_needed_libraries: $(readelf -d "$dir/splashd" | grep -c NEEDED)"
echo "check-release: $dir/splashd and splashctl start and have no RUNPATH"
