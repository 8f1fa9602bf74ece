#!/usr/bin/env bash
# Benchmark: the reader's library. Adds generated stories of 100, 10k and 100k chapters to a
# fresh library, then times `cyd read ID` with one scripted choice, from process start to exit,
# for the 100- and the 100k-chapter story side by side (hyperfine), and reports peak memory.
# Showing a chapter loads that chapter only, so the two should take about the same time.
#
# usage: scripts/bench-read.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd
export CYD_HOME="$work/library"
rm -rf "$CYD_HOME"

declare -A ids
for size in 100 10000 100000; do
  mkdir -p "$work/story-$size"
  [ -f "$work/story-$size/story.json" ] || python3 scripts/generate-story.py "$size" "$work/story-$size/story.json"
done
# Adding: three runs each into a fresh library, median.
for size in 100 10000 100000; do
  times=()
  for run in 1 2 3; do
    rm -rf "$work/add-library"
    times+=("$({ CYD_HOME="$work/add-library" /usr/bin/time -f %e "$cyd" add "$work/story-$size" >/dev/null; } 2>&1 | tail -1)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
  echo "add $size chapters: median ${median} s (runs: ${times[*]})"
  id=$("$cyd" add "$work/story-$size" | sed -n 's/.*(id \([0-9]*\),.*/\1/p')
  ids[$size]=$id
done

printf '1\nq\n' >"$work/input"
hyperfine --style none --warmup 3 --runs 30 --export-json "$work/read.json" \
  -n "read 100" "$cyd read ${ids[100]} --restart --name Ana < $work/input" \
  -n "read 100k" "$cyd read ${ids[100000]} --restart --name Ana < $work/input" >/dev/null
small_kb=$(/usr/bin/time -f %M "$cyd" read "${ids[100]}" --restart --name Ana <"$work/input" 2>&1 >/dev/null | tail -1)
large_kb=$(/usr/bin/time -f %M "$cyd" read "${ids[100000]}" --restart --name Ana <"$work/input" 2>&1 >/dev/null | tail -1)
python3 - "$work/read.json" "$small_kb" "$large_kb" <<'PY'
import json, statistics, sys
results = {r["command"]: statistics.median(r["times"]) for r in json.load(open(sys.argv[1]))["results"]}
small, large = results["read 100"], results["read 100k"]
print(f"read with one choice, 100 chapters:  median {small * 1000:.1f} ms, peak {int(sys.argv[2]) / 1024:.1f} MB")
print(f"read with one choice, 100k chapters: median {large * 1000:.1f} ms, peak {int(sys.argv[3]) / 1024:.1f} MB")
print(f"ratio 100k / 100: {large / small:.2f}")
PY
