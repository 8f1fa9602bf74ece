#!/usr/bin/env bash
# The served targets' part of the fuzzing smoke: `CydFuzz TARGET --mutate SECONDS` runs the
# target on random mutations of its kept seeds and regressions, on the debug CydFuzz the test
# command already built (no second build of the package, SwiftNIO and Hummingbird with libFuzzer's
# instrumentation; scripts/fuzz-served.sh does that, coverage-guided, for fuzzing sessions).
# A new seed each run, printed, so a crash is repeated with FUZZ_SEED; the crashing input is kept.
#
# usage: scripts/fuzz-mutate.sh serve-request|catalogue|forms|interchange [SECONDS]
#   CYD_FUZZ_REPLAYER: the CydFuzz to run (default .build/debug/CydFuzz); FUZZ_SEED: the seed
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz-mutate.sh serve-request|catalogue|forms|interchange [SECONDS]}
seconds=${2:-15}
binary=${CYD_FUZZ_REPLAYER:-.build/debug/CydFuzz}
[ -x "$binary" ] || { echo "no $binary: build it first (swift build --traits BrowserReader --product CydFuzz)" >&2; exit 2; }
seed=${FUZZ_SEED:-$(( $(date +%s) % 1000000 ))}
out=.build/fuzz-mutate
mkdir -p "$out"
crash="$out/$target-crash"
rm -f "$crash"
# Its seeds, and its regressions when it has some (a folder that is not there adds nothing).
inputs=$(for folder in "Tests/Fixtures/fuzz-seeds/$target" "Tests/Fixtures/fuzz-regressions/$target"; do
  if [ -d "$folder" ]; then find "$folder" -type f; fi; done | sort)
[ -n "$inputs" ] || { echo "$target has no seeds in Tests/Fixtures/fuzz-seeds/$target" >&2; exit 2; }
# Bounded: an input that hangs the target ends the run (timeout), and that is a failure too.
if ! timeout $(( seconds + 60 )) "$binary" "$target" --mutate "$seconds" --seed "$seed" --crash "$crash" $inputs; then
  echo "mutating $target failed (crash or hang) with FUZZ_SEED=$seed; the input it ran is $crash" >&2
  exit 1
fi
