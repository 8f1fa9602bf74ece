#!/usr/bin/env bash
# Fuzzes the targets that need the package's dependencies (Tests/Fuzz/CydFuzz): the served
# reader fed raw HTTP bytes (serve-request), the signed root, shard and index readers
# (catalogue), and the form, query and cookie readers (forms). SwiftPM builds the executable
# once with libFuzzer (-sanitize=fuzzer, in .build/fuzz-served, linked with lld: gold cannot
# link libFuzzer's driver beside SwiftPM's entry point), with line tables only for debug
# information (a crash's stack still names files and lines; the build is lighter than full -g);
# each target keeps its corpus under it.
#
# usage: scripts/fuzz-served.sh TARGET [SECONDS] [-- libFuzzer options...]
#   Seeds come from Tests/Fixtures/fuzz-seeds/TARGET; every input that ever failed is kept in
#   Tests/Fixtures/fuzz-regressions/TARGET and replayed first (a crash or a run over 10 s there
#   fails at once). Crashes are written to .build/fuzz-served/TARGET/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz-served.sh serve-request|catalogue|forms [SECONDS]}
seconds=${2:-20}
shift $(( $# >= 2 ? 2 : 1 ))
[ "${1:-}" = "--" ] && shift
build=.build/fuzz-served
out=$build/$target
mkdir -p "$out/corpus"
# FUZZ_SKIP_BUILD=1 runs what was built (the smoke builds once, then runs targets side by side).
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  swift build --build-path "$build" --traits BrowserReader --product CydFuzz --disable-index-store \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -gline-tables-only -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | grep -E "error|warning: unre|Compiling CydFuzz|Build" || true
fi
binary=$build/debug/CydFuzz
[ -x "$binary" ] || { echo "the fuzzer did not build" >&2; exit 1; }
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0
export FUZZ_TARGET=$target
seeds=Tests/Fixtures/fuzz-seeds/$target
[ -d "$seeds" ] && cp "$seeds"/* "$out/corpus/" 2>/dev/null || true
regressions=Tests/Fixtures/fuzz-regressions/$target
if [ -d "$regressions" ] && [ -n "$(find "$regressions" -maxdepth 1 -type f | head -1)" ]; then
  "$binary" -timeout=10 $(find "$regressions" -maxdepth 1 -type f) >/dev/null 2>&1 || { echo "a kept regression input of $target fails again (crash or over 10 s)" >&2; exit 1; }
fi
"$binary" "$out/corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" -print_final_stats=1 "$@" 2>&1 | tee "$out/log" | { grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD)|# Uses: |recommended dictionary|NEW_FUNC|^"' || true; }
echo "fuzzing $target: no crash or timeout in $(grep -E '^stat::number_of_executed_units' "$out/log" | awk '{print $2}') executions"
