#!/usr/bin/env bash
# Fuzzes the JSON reader, the story and authors decoders, every rule and every output format,
# and the picture header reader (PNG, JPEG, GIF, WebP, EXIF) with libFuzzer and AddressSanitizer
# (swiftc -sanitize=fuzzer,address).
#
# usage: scripts/fuzz.sh [SECONDS] [-- libFuzzer options...]
#   SECONDS  how long to run (default 60); the corpus grows in .build/fuzz/corpus, seeded from
#            Stories/ and Tests/Fixtures; crashes are written to .build/fuzz/crash-*.
# FUZZ_TARGET=picture-header fuzzes the picture header reader alone (Tests/Fuzz/FuzzPictureHeader.swift,
# seeded from Tests/Fixtures/pictures); FUZZ_TARGET=transcript the transcript reader
# (Tests/Fuzz/FuzzTranscript.swift); FUZZ_TARGET=lsp-framing the language server's
# Content-Length framing and JSON reading, fed in chunks as a pipe cuts them
# (Tests/Fuzz/FuzzLSPFraming.swift). Give each its own FUZZ_DIR (corpus); the compiled modules
# are shared in FUZZ_OBJECTS (.build/fuzz-objects).
# Every input that ever crashed it is kept in Tests/Fixtures/fuzz-regressions/ and replayed
# first (a crash, leak or a run over 10 s there fails the run at once).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
[ "${1:-}" = "--" ] && shift
out=${FUZZ_DIR:-.build/fuzz}
mkdir -p "$out/corpus"
flags=(-sanitize=fuzzer,address -parse-as-library -gline-tables-only -swift-version 6 -enable-bare-slash-regex)
# The validator's modules are optimised (its fuzzing is worth the most executions a second);
# the modules only the transcript and language-server targets add are not (-Onone compiles
# them in about half the time, and the harnesses exercise a small part of them).
optimisation() { case "$1" in LocalFiles|StoryFormat|StoryCheck) echo -O ;; *) echo -Onone ;; esac; }

target=${FUZZ_TARGET:-story}
modules=(LocalFiles StoryFormat StoryCheck)
case "$target" in
  story) source=Tests/Fuzz/FuzzStory.swift ;;
  picture-header) source=Tests/Fuzz/FuzzPictureHeader.swift ;;
  transcript) source=Tests/Fuzz/FuzzTranscript.swift; modules+=(StoryAnalysis) ;;
  lsp-framing) source=Tests/Fuzz/FuzzLSPFraming.swift; modules+=(StoryAnalysis StoryTranslation InterfaceWords StoryWeb StoryInterchange StoryValidation StoryLanguageServer) ;;
  *) echo "FUZZ_TARGET is story, picture-header, transcript or lsp-framing" >&2; exit 2 ;;
esac

# Modules are compiled once into FUZZ_OBJECTS (shared by every target) and again only when a
# source of theirs is newer than the library.
objects=${FUZZ_OBJECTS:-.build/fuzz-objects}
mkdir -p "$objects"
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
build() {
  local libraries=() stale=""
  # StoryFormat's byte scans are C (Sources/CByteScan): compiled with the same sanitizers and
  # coverage, and found by swiftc through the module map beside their header.
  if [ ! -f "$objects/libCByteScan.a" ] || [ -n "$(find Sources/CByteScan -newer "$objects/libCByteScan.a" | head -1)" ]; then
    stale=1
    "$clang" -O2 -g -fsanitize=fuzzer-no-link,address -I Sources/CByteScan/include -c Sources/CByteScan/cbytescan.c -o "$objects/cbytescan.o"
    rm -f "$objects/libCByteScan.a" && ar rcs "$objects/libCByteScan.a" "$objects/cbytescan.o"
  fi
  for module in "${modules[@]}"; do
    local library="$objects/lib$module.a"
    # A module is compiled again when it or any module below it changed.
    if [ -n "$stale" ] || [ ! -f "$library" ] || [ -n "$(find "Sources/$module" -name '*.swift' -newer "$library" | head -1)" ]; then
      stale=1
      swiftc "${flags[@]}" "$(optimisation "$module")" -package-name choose-your-destiny -I "$objects" -I Sources/CByteScan/include -module-name "$module" -emit-module -emit-module-path "$objects/$module.swiftmodule" \
        -emit-library -static -o "$library" $(find "Sources/$module" -name '*.swift')
    fi
    libraries=("-l$module" "${libraries[@]}")
  done
  swiftc "${flags[@]}" -O -I "$objects" -I Sources/CByteScan/include -L "$objects" "${libraries[@]}" -lCByteScan -o "$out/fuzz-story" "$source"
}
# FUZZ_SKIP_BUILD=1 runs the target as built (the smoke's lanes share FUZZ_OBJECTS: two lanes must
# not compile the same modules at once).
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ] || [ ! -x "$out/fuzz-story" ]; then build; fi
# FUZZ_BUILD_ONLY=1 builds the target and stops (the smoke builds every target first, then runs
# them side by side).
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0


# Seeds: our stories, the fixtures, and every regression input.
regressions=Tests/Fixtures/fuzz-regressions
case "$target" in
  story|picture-header)
    [ "$target" = story ] && { find Stories Tests/Fixtures -name '*.json' -size -16k -exec cp {} "$out/corpus/" \; 2>/dev/null || true; }
    find Tests/Fixtures/pictures -type f -size -4k -exec cp {} "$out/corpus/" \; 2>/dev/null || true ;;
  transcript)
    find Tests/Fixtures/transcripts -type f -exec cp {} "$out/corpus/" \;
    regressions=Tests/Fixtures/fuzz-regressions/transcript ;;
  lsp-framing)
    find Tests/Fixtures/lsp-messages -type f -exec cp {} "$out/corpus/" \;
    regressions=Tests/Fixtures/fuzz-regressions/lsp-framing ;;
esac
if [ -d "$regressions" ] && [ -n "$(find "$regressions" -maxdepth 1 -type f | head -1)" ]; then
  "$out/fuzz-story" -timeout=10 $(find "$regressions" -maxdepth 1 -type f) >/dev/null 2>&1 || { echo "a kept regression input fails again (crash, leak or over 10 s)" >&2; exit 1; }
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
