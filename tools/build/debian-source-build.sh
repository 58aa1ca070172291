# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts that build libraries from Debian's source packages
# (build-sdl.sh, build-wlroots.sh): what each does before and around its
# build. Through apt with a sources list and state of its own (the machine's
# apt configuration is left alone), from the archive the machine's apt
# takes bookworm from (apt-archive.sh).

# source_build_start SCRIPT DIR: root (DIR, made, absolute) and
# script_hash (of SCRIPT and this file); when a build of them is finished
# in DIR (its `done` file), points DIR/current at it and exits 0 (no
# network). Otherwise archive, and src: DIR/src made afresh, with apt's
# folders.
source_build_start() {
  mkdir -p "$2"
  root=$(cd "$2" && pwd)
  script_hash=$(cat "$1" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)
  local built
  for built in "$root"/*-"$script_hash"/done; do
    if [ -e "$built" ]; then
      ln -sfn "$(basename "$(dirname "$built")")" "$root/current"
      exit 0
    fi
  done
  archive=$("$(dirname "${BASH_SOURCE[0]}")/apt-archive.sh" bookworm)
  src="$root/src"
  rm -rf "$src"
  mkdir -p "$src/lists/partial" "$src/cache/archives/partial"
}

# debian_sources SUITE: apt_options for SUITE's source packages alone (its
# deb-src line the only source).
debian_sources() {
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive $1 main" > "$src/$1.list"
  apt_options=(
    -o "Dir::Etc::SourceList=$src/$1.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$src/lists" -o "Dir::Cache=$src/cache" -o APT::Sandbox::User=root
  )
}
