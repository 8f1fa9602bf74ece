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

# A chapter of 50 MB (60,000 paragraphs, with [[name]]): showing it costs its size, not more.
mkdir -p "$work/huge-chapter"
python3 - "$work/huge-chapter/story.json" <<'PY'
import json, sys
text = ("Hello [[name]]. The lantern swings over the harbour and the gulls wait for the tide. " * 10 + "\n\n") * 60000
chapters = [{"id": "a", "name": "A", "text": text, "is_first_chapter": True, "choices": [{"chapter_id": "b", "text": "On"}]},
            {"id": "b", "name": "B", "text": "The end.", "is_ending": True}]
json.dump({"story": {"id": "huge", "name": "A huge chapter", "rating": "G", "summary": "50 MB of text", "chapters": chapters}}, open(sys.argv[1], "w"))
PY
huge=$("$cyd" add "$work/huge-chapter" | sed -n 's/.*(id \([0-9]*\),.*/\1/p')
hyperfine --style none --warmup 1 --runs 5 --export-json "$work/huge.json" \
  -n "read huge" "$cyd read $huge --restart --plain --name Ana < /dev/null > /dev/null" >/dev/null
huge_kb=$(/usr/bin/time -f %M "$cyd" read "$huge" --restart --plain --name Ana </dev/null 2>&1 >/dev/null | tail -1)
python3 - "$work/huge.json" "$huge_kb" "$(stat -c %s "$work/huge-chapter/story.json")" <<'PY'
import json, statistics, sys
time = statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"])
print(f"show one chapter of {int(sys.argv[3]) / 1e6:.0f} MB (plain, to /dev/null): median {time:.2f} s, peak {int(sys.argv[2]) / 1024:.0f} MB")
PY
