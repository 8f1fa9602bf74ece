#!/usr/bin/env bash
# The README's test command after set-up: the package and its tests built once (debug, with the
# BrowserReader trait, and swift-argument-parser's generate-manual for the install test), a
# build that must not warn in Sources, then the suite on those very products (`swift test
# --skip-build`: nothing is compiled twice) with the fuzzing smoke beside it.
#
# usage: scripts/test.sh [swift test options...]   e.g. scripts/test.sh --filter ArchitectureTests
#   FUZZ_SMOKE=0 skips the fuzzing smoke (for a quick local run; CI always runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
log=.build/test-build.log
started=$(date +%s)
# Line tables only as debug information, enough for a crash's backtrace: a fresh clone's build
# took 6.6 CPU-minutes instead of 8.0 (`time swift build --build-tests` on two fresh clones).
# The index store stays: SwiftPM's test discovery reads it. Every build and the suite pass the
# same options, so nothing is compiled twice.
build_options=(--traits BrowserReader -Xswiftc -gline-tables-only)
if ! swift build --build-tests "${build_options[@]}" >"$log" 2>&1; then
  grep -E 'error:' "$log" | sort -u >&2 || true
  echo "the build failed; the whole log is in $log" >&2
  exit 1
fi
swift build "${build_options[@]}" --product generate-manual >>"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
# Our sources compile without a warning (what was compiled this time is counted: a fresh clone
# compiles everything).
warnings=$(grep -E '^/.*/Sources/[^:]+:[0-9]+:[0-9]+: warning:' "$log" | sort -u || true)
if [ -n "$warnings" ]; then
  printf 'compiler warnings in Sources:\n%s\n' "$warnings" >&2
  exit 1
fi
echo "built in $(( $(date +%s) - started )) s, no warning in Sources"
# The fuzzing smoke runs beside the suite, at the lowest priority: the suite leaves most of a
# core idle (it waits on servers, git and browsers), and the fuzzers are bounded by time, so
# the smoke uses what the suite leaves and the suite is not slowed by it.
fuzz_pid=""
if [ "${FUZZ_SMOKE:-1}" != 0 ]; then
  # The served targets are mutated on the CydFuzz built here (scripts/fuzz-mutate.sh).
  CYD_FUZZ_REPLAYER="$(swift build "${build_options[@]}" --show-bin-path)/CydFuzz" nice -n 19 scripts/fuzz-smoke.sh >.build/fuzz-smoke.log 2>&1 &
  fuzz_pid=$!
fi
status=0
swift test --skip-build --disable-xctest "${build_options[@]}" "$@" || status=$?
if [ -n "$fuzz_pid" ]; then
  if wait "$fuzz_pid"; then
    grep -E '^fuzzing .*: no crash|^stat::number_of_executed_units|no crash' .build/fuzz-smoke.log | tail -8 || true
    echo "fuzzing smoke: no crash (.build/fuzz-smoke.log)"
  else
    tail -40 .build/fuzz-smoke.log >&2
    echo "the fuzzing smoke failed; its whole log is .build/fuzz-smoke.log" >&2
    status=1
  fi
fi
echo "the test command took $(( $(date +%s) - started )) s"
exit "$status"
