#!/usr/bin/env bash
# Fuzzes CPictures (the decoders' glue, the reduction and the GIF compositing, with the real
# libjpeg, libpng, giflib, libwebp and libchafa loaded as cyd loads them) with libFuzzer and
# AddressSanitizer. Seeds: Tests/Fixtures/pictures. Crashes go to .build/fuzz-pictures/.
#
# usage: scripts/fuzz-pictures.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=${FUZZ_DIR:-.build/fuzz-pictures}
mkdir -p "$out/corpus"
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ] || [ ! -x "$out/fuzz-pictures" ]; then
  "$clang" -g -O1 -fsanitize=fuzzer,address -I Sources/CPictures/include Sources/CPictures/cpictures.c Tests/Fuzz/fuzz_pictures.c -ldl -lpthread \
    -o "$out/fuzz-pictures"
fi
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0
cp Tests/Fixtures/pictures/* "$out/corpus/"
# Every input that ever crashed it is kept and replayed first.
regressions=Tests/Fixtures/picture-regressions
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
  "$out/fuzz-pictures" -timeout=10 "$regressions"/* >/dev/null 2>&1 || { echo "a kept picture regression fails again" >&2; exit 1; }
fi
# (detect_leaks=0: the libraries are not built with ASan; only what our code allocates and
# touches is checked, and GLib's caches at exit are not ours.)
"$out/fuzz-pictures" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" -print_final_stats=1 2>&1 | tee "$out/log" | grep -E "ERROR|SUMMARY|stat::number_of_executed|Done" || true
grep -q "ERROR: " "$out/log" && { echo "fuzz-pictures: a crash; see $out/log" >&2; exit 1; }
echo "fuzz-pictures: no crash or timeout in $(grep -E '^stat::number_of_executed_units' "$out/log" | awk '{print $2}') executions"
