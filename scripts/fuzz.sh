#!/usr/bin/env bash
# Fuzzes the JSON reader, the story and authors decoders, every rule and every output format,
# and the picture header reader (PNG, JPEG, GIF, WebP, EXIF) with libFuzzer and AddressSanitizer
# (swiftc -sanitize=fuzzer,address).
#
# usage: scripts/fuzz.sh [SECONDS] [-- libFuzzer options...]
#   SECONDS  how long to run (default 60); the corpus grows in .build/fuzz/corpus, seeded from
#            Stories/ and Tests/Fixtures; crashes are written to .build/fuzz/crash-*.
# FUZZ_TARGET=picture-header fuzzes the picture header reader alone (Tests/Fuzz/FuzzPictureHeader.swift,
# seeded from Tests/Fixtures/pictures; use its own FUZZ_DIR).
# Every input that ever crashed it is kept in Tests/Fixtures/fuzz-regressions/ and replayed
# first (a crash, leak or a run over 10 s there fails the run at once).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
[ "${1:-}" = "--" ] && shift
out=${FUZZ_DIR:-.build/fuzz}
mkdir -p "$out/corpus" "$out/objects"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -enable-bare-slash-regex)

target=${FUZZ_TARGET:-story}
case "$target" in
  story) source=Tests/Fuzz/FuzzStory.swift ;;
  picture-header) source=Tests/Fuzz/FuzzPictureHeader.swift ;;
  *) echo "FUZZ_TARGET is story or picture-header" >&2; exit 2 ;;
esac

build() {
  swiftc "${flags[@]}" -module-name LocalFiles -emit-module -emit-module-path "$out/objects/LocalFiles.swiftmodule" \
    -emit-library -static -o "$out/objects/libLocalFiles.a" $(find Sources/LocalFiles -name '*.swift')
  swiftc "${flags[@]}" -module-name StoryFormat -emit-module -emit-module-path "$out/objects/StoryFormat.swiftmodule" \
    -emit-library -static -o "$out/objects/libStoryFormat.a" $(find Sources/StoryFormat -name '*.swift')
  swiftc "${flags[@]}" -I "$out/objects" -module-name StoryCheck -emit-module -emit-module-path "$out/objects/StoryCheck.swiftmodule" \
    -emit-library -static -o "$out/objects/libStoryCheck.a" $(find Sources/StoryCheck -name '*.swift')
  swiftc "${flags[@]}" -I "$out/objects" -L "$out/objects" -lStoryCheck -lStoryFormat -lLocalFiles \
    -o "$out/fuzz-story" "$source"
}
build

# Seeds: our stories, the fixtures, and every regression input.
[ "$target" = story ] && { find Stories Tests/Fixtures -name '*.json' -size -16k -exec cp {} "$out/corpus/" \; 2>/dev/null || true; }
find Tests/Fixtures/pictures -type f -size -4k -exec cp {} "$out/corpus/" \; 2>/dev/null || true
regressions=Tests/Fixtures/fuzz-regressions
if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
  "$out/fuzz-story" -timeout=10 "$regressions"/* >/dev/null 2>&1 || { echo "a kept regression input fails again (crash, leak or over 10 s)" >&2; exit 1; }
fi
# The progress lines (one per new input) go to $out/log; what is left is the start, any crash
# report and the final statistics.
set -o pipefail
# Shorter allocation stacks: a report still shows where memory came from, and every malloc is
# cheaper to record (about a tenth more executions a second).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=8}
"$out/fuzz-story" "$out/corpus" -max_total_time="$seconds" -max_len=1024 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" -print_final_stats=1 "$@" 2>&1 | tee "$out/log" | { grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD)|# Uses: |recommended dictionary|NEW_FUNC' || true; }
echo "fuzzing: no crash, leak or timeout in $(grep -E '^stat::number_of_executed_units' "$out/log" | awk '{print $2}') executions"
