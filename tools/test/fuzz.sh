#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds splashd-fuzz with libFuzzer's coverage and AddressSanitizer (in
# .build/fuzz), then runs each target (two at a time) for SECONDS seconds
# (default 60) over its checked-in seeds in Tests/Fuzz/TARGET and a working
# corpus in .build/fuzz/corpus/TARGET. Fails on any crash, leak or timeout; an input
# that crashed is kept in .build/fuzz/artifacts/ (copy it into the target's
# seeds, as a regression test, once it is fixed). Prints the figures
# fuzz_execs_total and fuzz_crashes.
#
#   tools/test/fuzz.sh [SECONDS]
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/../.."
toolchain=$(dirname "$(dirname "$(command -v swiftc)")")
runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)
if [ -z "$runtime" ]; then
  echo "fuzz: libFuzzer (libclang_rt.fuzzer_no_main-x86_64.a) is not in the Swift toolchain at $toolchain" >&2
  exit 1
fi
swift build --product splashd-fuzz --scratch-path .build/fuzz \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xswiftc -DFUZZING -Xlinker "$runtime" -Xlinker -lstdc++
fuzzer=.build/fuzz/debug/splashd-fuzz
mkdir -p .build/fuzz/artifacts
# Two targets at a time (each fuzzer is one process on one core), each's
# exit status in .build/fuzz/TARGET.status; then their figures, in order.
fuzz_one() {
  local target=$1
  local corpus=.build/fuzz/corpus/$target
  mkdir -p "$corpus"
  local status=0
  # (Swift's own crash backtracer is off: under ASan it only adds noise.)
  SPLASHD_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 SWIFT_BACKTRACE=enable=no "$fuzzer" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=.build/fuzz/artifacts/"$target"- \
    "$corpus" "Tests/Fuzz/$target/" > ".build/fuzz/$target.log" 2>&1 || status=$?
  echo "$status" > ".build/fuzz/$target.status"
}
targets=()
for seeds in Tests/Fuzz/*/; do targets+=("$(basename "$seeds")"); done
for target in "${targets[@]}"; do rm -f ".build/fuzz/$target.status" ".build/fuzz/$target.log"; done
running=0
for target in "${targets[@]}"; do
  fuzz_one "$target" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
executions=0
crashes=0
for target in "${targets[@]}"; do
  log=.build/fuzz/$target.log
  status=$(cat ".build/fuzz/$target.status" 2>/dev/null || echo 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -n 1 || true)
  executions=$((executions + ${runs:-0}))
  if [ "$status" -ne 0 ]; then
    crashes=$((crashes + 1))
    echo "fuzz: $target failed (exit $status); its log is $log, the input in .build/fuzz/artifacts/:" >&2
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -n 8 >&2 || true
  else
    echo "fuzz: $target: ${runs:-0} runs in ${seconds} s, nothing found"
  fi
done
echo "fuzz_execs_total: $executions"
echo "fuzz_crashes: $crashes"
[ "$crashes" -eq 0 ]
