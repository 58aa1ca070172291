#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a command with a deadline, for the test runs of `make test`:
#
#     tools/test/deadline.sh SECONDS COMMAND [ARGS...]
#
# COMMAND runs in a session of its own, its output line by line (through a
# pseudo-terminal, so that a test runner's last lines are not lost in a
# buffer when it is killed). If it has not ended after SECONDS, what is still
# running is printed (the session's processes, and every thread's stack in
# each test process, through gdb), the session is killed and the exit status
# is 124: a hung test fails the run with where it hung, inside CI's own limit.
# Otherwise the exit status is COMMAND's.
set -u
if [ $# -lt 2 ]; then
  echo "usage: tools/test/deadline.sh SECONDS COMMAND [ARGS...]" >&2
  exit 2
fi
limit=$1
shift
command=$(printf '%q ' "$@")
flag=$(mktemp)
rm -f "$flag"

# script(1) gives the command a terminal (line-buffered output); NO_COLOR
# keeps escape codes out of logs.
NO_COLOR=1 script -qefc "$command" /dev/null </dev/null &
leader=$!

# The processes descending from $1, parents first.
descendants() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2; order[NR] = $1 }
    END {
      keep[root] = 1
      for (changed = 1; changed;) {
        changed = 0
        for (i = 1; i <= NR; i++) { p = order[i]; if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; changed = 1 } }
      }
      for (i = 1; i <= NR; i++) if (order[i] in keep) print order[i]
    }'
}

(
  end=$((SECONDS + limit))
  while kill -0 "$leader" 2>/dev/null; do
    if [ "$SECONDS" -ge "$end" ]; then
      touch "$flag"
      echo "deadline.sh: $* still running after $limit s; what runs:" >&2
      pids=$(descendants "$leader" | paste -sd, -)
      ps -p "$pids" -o pid,ppid,etimes,stat,args >&2
      for pid in $(ps -p "$pids" -o pid=,comm= | awk '$2 ~ /xctest|swiftpm-testing/ {print $1}'); do
        echo "deadline.sh: the threads of $pid:" >&2
        gdb -p "$pid" -batch -ex "thread apply all bt 40" 2>&1 \
          | grep -E '^(Thread|#)' | (swift demangle --simplified 2>/dev/null || cat) >&2
      done
      pids=$(descendants "$leader")
      kill -TERM $pids 2>/dev/null
      sleep 5
      kill -KILL $pids $(descendants "$leader") 2>/dev/null
      exit 0
    fi
    sleep 5
  done
) &
watcher=$!

wait "$leader"
status=$?
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
if [ -e "$flag" ]; then
  rm -f "$flag"
  exit 124
fi
exit "$status"
