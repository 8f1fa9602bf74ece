#!/usr/bin/env bash
# The fuzzing smoke run before the test suite (CI and the README's test command): a minute of
# the validator, 20 s each of the transcript reader and the language server's framing, 30 s of
# the picture code, 20 s each of the served reader fed raw HTTP, the catalogue's signed root and shard
# readers, and the form readers. Each target keeps its own corpus under .build/; the compiled modules are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says when it starts, in seconds since the smoke began (where a slow run spends its time).
started=$(date +%s)
step() { echo "fuzz-smoke +$(( $(date +%s) - started )) s: $*"; }
step "the validator"
scripts/fuzz.sh "${FUZZ_STORY_SECONDS:-60}"
step "the transcript reader"
FUZZ_TARGET=transcript FUZZ_DIR=.build/fuzz-transcript scripts/fuzz.sh "${FUZZ_SMALL_SECONDS:-20}"
step "the language server's framing"
FUZZ_TARGET=lsp-framing FUZZ_DIR=.build/fuzz-lsp-framing scripts/fuzz.sh "${FUZZ_SMALL_SECONDS:-20}"
step "the picture code"
scripts/fuzz-pictures.sh "${FUZZ_PICTURE_SECONDS:-30}"
# The targets SwiftPM builds (the served reader, the catalogue readers, the form readers): 20 s each.
for target in serve-request catalogue forms; do
  step "$target"
  scripts/fuzz-served.sh "$target" "${FUZZ_SMALL_SECONDS:-20}"
done
step "done"
