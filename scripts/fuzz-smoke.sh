#!/usr/bin/env bash
# The fuzzing smoke of the README's test command and CI: libFuzzer, coverage-guided, on 30 s of
# the validator, 10 s each of the transcript reader and the language server's framing and 15 s
# of the picture code (small builds of their own modules); and 10 s each of random mutations of
# the served reader fed raw HTTP, the catalogue's signed root and shard readers, and the form
# readers, and the Twee, Twine archive, PO and XLIFF readers, on the debug CydFuzz the test command built (scripts/fuzz-mutate.sh: a libFuzzer build
# of those compiles the package, SwiftNIO and Hummingbird a second time, more than the smoke is
# worth; scripts/fuzz-served.sh fuzzes them coverage-guided in a session). Every libFuzzer target
# is built first, then they run in two lanes side by side (a run uses one core; the machine has
# two), each lane a target after another. Each target keeps its own corpus under .build/.
#
# FUZZ_STORY_SECONDS, FUZZ_SMALL_SECONDS, FUZZ_PICTURE_SECONDS and FUZZ_INTERCHANGE_SECONDS (5 s:
# the interchange readers are quick, and the suite beside them is not) change the times.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says when it starts, in seconds since the smoke began (where a slow run spends its time).
started=$(date +%s)
step() { echo "fuzz-smoke +$(( $(date +%s) - started )) s: $*"; }
small=${FUZZ_SMALL_SECONDS:-10}

step "building the fuzz targets"
FUZZ_BUILD_ONLY=1 scripts/fuzz.sh
FUZZ_BUILD_ONLY=1 FUZZ_TARGET=transcript FUZZ_DIR=.build/fuzz-transcript scripts/fuzz.sh
FUZZ_BUILD_ONLY=1 FUZZ_TARGET=lsp-framing FUZZ_DIR=.build/fuzz-lsp-framing scripts/fuzz.sh
FUZZ_BUILD_ONLY=1 scripts/fuzz-pictures.sh

# Two lanes of about 50 s each. A lane's output is kept in its own log and shown when it ends,
# so the two do not interleave; the smoke fails when either lane does.
lane_a() {
  step "the validator"
  FUZZ_SKIP_BUILD=1 scripts/fuzz.sh "${FUZZ_STORY_SECONDS:-30}"
  for target in catalogue forms; do
    step "$target"
    scripts/fuzz-mutate.sh "$target" "$small"
  done
}
lane_b() {
  step "the transcript reader"
  FUZZ_SKIP_BUILD=1 FUZZ_TARGET=transcript FUZZ_DIR=.build/fuzz-transcript scripts/fuzz.sh "$small"
  step "the language server's framing"
  FUZZ_SKIP_BUILD=1 FUZZ_TARGET=lsp-framing FUZZ_DIR=.build/fuzz-lsp-framing scripts/fuzz.sh "$small"
  step "the picture code"
  FUZZ_SKIP_BUILD=1 scripts/fuzz-pictures.sh "${FUZZ_PICTURE_SECONDS:-15}"
  step "serve-request"
  scripts/fuzz-mutate.sh serve-request "$small"
  step "interchange"
  scripts/fuzz-mutate.sh interchange "${FUZZ_INTERCHANGE_SECONDS:-5}"
}
mkdir -p .build
lane_a >.build/fuzz-lane-a.log 2>&1 &
a=$!
lane_b >.build/fuzz-lane-b.log 2>&1 &
b=$!
status=0
wait "$a" || status=1
wait "$b" || status=1
cat .build/fuzz-lane-a.log .build/fuzz-lane-b.log
step "done"
exit "$status"
