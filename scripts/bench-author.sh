#!/usr/bin/env bash
# Benchmark: the author's loop, in one run.
# - `cyd preview`: from a save of story.json (a new file renamed over the old, as editors save)
#   to the page made from it, at 10,000 and 100,000 generated chapters. Targets: 300 ms and 1 s.
# - `cyd diff` of two versions of the 100,000-chapter story (1% of chapters' text edited, 100
#   chapters renamed; the second version minified) against `cyd validate` of one, side by side
#   in alternated rounds (scripts/alternate.py). Target: within 3x. The same for a flawed story
#   (2,000 flaws: about 7,000 findings a side), the bad day.
# Prints medians and ratios. Needs python3.
#
# usage: scripts/bench-author.sh        BENCH_DIR=folder keeps the generated stories
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd --traits BrowserReader >/dev/null
  cyd=$(swift build -c release --traits BrowserReader --show-bin-path)/cyd
fi

for size in 10000 100000; do
  mkdir -p "$work/s$size"
  [ -f "$work/s$size/story.json" ] || python3 scripts/generate-story.py "$size" "$work/s$size/story.json"
done
[ -f "$work/s100000-b.json" ] || python3 scripts/author-bench.py edit "$work/s100000/story.json" "$work/s100000-b.json"
[ -f "$work/flawed.json" ] || python3 scripts/generate-story.py 100000 "$work/flawed.json" --flaws 2000
[ -f "$work/flawed-b.json" ] || python3 scripts/author-bench.py edit "$work/flawed.json" "$work/flawed-b.json"

for story in s100000/story.json flawed.json; do
  second=$([ "$story" = flawed.json ] && echo flawed-b.json || echo s100000-b.json)
  echo "== cyd diff against cyd validate (100,000 chapters: $story)"
  # Alternated rounds (scripts/alternate.py); validate exits 1 on the flawed story's errors, and
  # diff on nothing: both are timed all the same.
  python3 scripts/alternate.py "$work/diff.json" 7 \
    validate "$cyd validate $work/$story" \
    diff "$cyd diff $work/$story $work/$second"
  python3 - "$work/diff.json" "$story" <<'PY'
import sys
sys.path.insert(0, "scripts")
from alternate import medians, paired
from bench_summary import record
runs = medians(sys.argv[1])
ratio = paired(sys.argv[1], "diff", "validate")
print(f"validate {runs['validate']:.3f} s   diff {runs['diff']:.3f} s   diff/validate {ratio:.2f}x (median of the rounds')   target <= 3x: {'met' if ratio <= 3 else 'NOT met'}")
which = "a flawed story, about 7,000 findings a side" if "flawed" in sys.argv[2] else "100,000 chapters"
record("author", f"diff of two versions, {which}", f"{runs['diff']:.3f} s", f"validate {runs['validate']:.3f} s", ratio, "at most 3x validate", ratio <= 3)
PY
done

echo "== cyd preview: save to page"
for size in 10000 100000; do
  runs=9
  [ "$size" -ge 100000 ] && runs=5
  target=300
  [ "$size" -ge 100000 ] && target=1000
  result=$(python3 scripts/author-bench.py latency "$cyd" "$work/s$size" "$runs")
  python3 - "$size" "$target" "$result" <<'PY'
import json, sys
size, target, result = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
median = result["median_ms"]
print(f"{size:>7} chapters: median {median:.0f} ms, worst {result['max_ms']:.0f} ms (target {target} ms: {'met' if median <= target else 'NOT met'})")
sys.path.insert(0, "scripts")
from bench_summary import record
record("author", f"preview: a save to its page, {size:,} chapters", f"{median:.0f} ms", "", None, f"at most {target} ms", median <= target)
PY
done
