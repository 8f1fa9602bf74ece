#!/usr/bin/env bash
# The fuzzing smoke run before the test suite (CI and the README's test command): a minute of
# the validator, 20 s each of the transcript reader and the language server's framing, 30 s of
# the picture code. Each target keeps its own corpus under .build/; the compiled modules are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fuzz.sh "${FUZZ_STORY_SECONDS:-60}"
FUZZ_TARGET=transcript FUZZ_DIR=.build/fuzz-transcript scripts/fuzz.sh "${FUZZ_SMALL_SECONDS:-20}"
FUZZ_TARGET=lsp-framing FUZZ_DIR=.build/fuzz-lsp-framing scripts/fuzz.sh "${FUZZ_SMALL_SECONDS:-20}"
scripts/fuzz-pictures.sh "${FUZZ_PICTURE_SECONDS:-30}"
