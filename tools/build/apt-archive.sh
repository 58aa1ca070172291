#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Prints the URI of the Debian archive this machine's own apt configuration
# takes SUITE's main component from (its sources.list and sources.list.d,
# whatever mirror or proxy they name), for the tools that fetch from Debian
# with a configuration of their own (build-sdl.sh's source packages,
# debian-root.py's debootstrap). No archive's host is written in the project.
#
#   tools/build/apt-archive.sh [SUITE]     (default bookworm)
set -eu
suite=${1:-bookworm}
uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(TARGET_OF)' \
  | awk -v suite="$suite" '$2 == suite && $3 == "main" && $4 == "deb" { print $1; exit }')
if [ -z "$uri" ]; then
  echo "apt-archive: this machine's apt sources have no \"deb … $suite main\"; add one (any Debian mirror)" >&2
  exit 1
fi
echo "${uri%/}"
