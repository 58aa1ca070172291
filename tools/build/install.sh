#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs splashd, or takes it back, as packaging/install-manifest lists
# (each file's destination, mode, source and how it is made: see its
# header). What make install-built and make uninstall run:
#
#     tools/build/install.sh install|uninstall
#
# with the Makefile's variables in the environment: DESTDIR, PREFIX,
# SYSCONFDIR, UNITDIR, INITRAMFSDIR, DRACUTDIR (where), BUILD_DIR,
# DOCS_DIR, QUIRKS_DIR (what from; relative ones from the package's root).
# Prints each file installed or removed unless INSTALL_QUIET is set (make
# -s), and always the config file it keeps.
set -euo pipefail
if [ $# -ne 1 ] || { [ "$1" != install ] && [ "$1" != uninstall ]; }; then
  echo "usage: tools/build/install.sh install|uninstall" >&2
  exit 2
fi
action=$1
cd "$(dirname "$0")/../.."
manifest=packaging/install-manifest
: "${DESTDIR=}" "${PREFIX:?}" "${SYSCONFDIR:?}" "${UNITDIR:?}" "${INITRAMFSDIR:?}" "${DRACUTDIR:?}"
if [ "$action" = install ]; then
  : "${BUILD_DIR:?}" "${DOCS_DIR:?}" "${QUIRKS_DIR:?}"
fi

# expand TEXT: TEXT with the manifest's $VARIABLEs replaced by their values.
expand() {
  local text=$1 name
  for name in PREFIX SYSCONFDIR UNITDIR INITRAMFSDIR DRACUTDIR BUILD_DIR DOCS_DIR QUIRKS_DIR; do
    text=${text//"\$$name"/"${!name-}"}
  done
  printf '%s' "$text"
}

say() {
  [ -n "${INSTALL_QUIET-}" ] || echo "$@"
}

# The two rewrites of the paths a unit or a boot script names.
unit_paths() {
  sed -e 's#/usr/bin/splash\(d\|ctl\) #'"$PREFIX"'/bin/splash\1 #g' -e 's#/etc/splashd/#'"$SYSCONFDIR"'/splashd/#g' "$1"
}
boot_paths() {
  sed -e 's#/usr/bin/splashd#'"$PREFIX"'/bin/splashd#g' -e 's#/etc/splashd/#'"$SYSCONFDIR"'/splashd/#g' "$1"
}

docs_made=""
install_one() {
  local how=$1 mode=$2 to=$3 from=$4
  case $how in
    binary) install -D -s -m "$mode" "$from" "$to" ;;
    file) install -D -m "$mode" "$from" "$to" ;;
    config)
      if [ -e "$to" ]; then
        echo "keeping $to"
        return
      fi
      install -D -m "$mode" "$from" "$to"
      ;;
    unit) unit_paths "$from" | install -D -m "$mode" /dev/stdin "$to" ;;
    boot) boot_paths "$from" | install -D -m "$mode" /dev/stdin "$to" ;;
    docs)
      if [ -z "$docs_made" ]; then
        "$BUILD_DIR/splashd-docs" "$DOCS_DIR"
        docs_made=yes
      fi
      install -D -m "$mode" "$from" "$to"
      ;;
    quirks)
      [ -d "$from" ] || return 0
      install -d "$to"
      install -m "$mode" "$from"/*.quirks "$to/"
      ;;
    folder) return ;;
    *)
      echo "install.sh: $manifest: no such HOW: $how" >&2
      exit 1
      ;;
  esac
  say "installed $to"
}

uninstall_one() {
  local how=$1 to=$3 from=$4
  case $how in
    binary | file | unit | boot | docs)
      if [ -e "$to" ] || [ -L "$to" ]; then
        rm -f "$to"
        say "removed $to"
      fi
      ;;
    config)
      if cmp -s "$from" "$to"; then
        rm -f "$to"
        say "removed $to"
      elif [ -e "$to" ]; then
        echo "keeping $to (changed)"
      fi
      ;;
    quirks)
      if [ -d "$to" ]; then
        rm -f "$to"/*.quirks
        say "removed $to/*.quirks"
      fi
      rmdir "$to" 2> /dev/null || true
      ;;
    folder) rmdir "$to" 2> /dev/null || true ;;
    *)
      echo "install.sh: $manifest: no such HOW: $how" >&2
      exit 1
      ;;
  esac
}

while read -r how mode to from rest <&3; do
  case $how in '' | '#'*) continue ;; esac
  if [ -z "$from" ] || [ -n "$rest" ]; then
    echo "install.sh: $manifest: not HOW MODE DESTINATION SOURCE: $how $mode $to $from $rest" >&2
    exit 1
  fi
  to=$DESTDIR$(expand "$to")
  from=$(expand "$from")
  "${action}_one" "$how" "$mode" "$to" "$from"
done 3< "$manifest"
