#!/usr/bin/env bash
# Benchmark: `cyd stats` and `cyd graph` (release build) on generated stories of 1k, 10k and
# 100k chapters, with hyperfine; prints medians and peak memory. Targets (issue 12): stats on
# 100k chapters in under 1 s, the DOT map in under 2 s. The generated stories have a number of playthroughs far past 2^64
# (about 10^19,883 at 100k), so this measures the exact big-number counting too.
#
# usage: scripts/bench-stats.sh [SIZES...]   (default: 1000 10000 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000 100000}")
read -r -a sizes <<<"${sizes[*]}"
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd >/dev/null
  cyd=$(swift build -c release --show-bin-path)/cyd
fi
printf '%9s %9s %9s %9s %10s %9s %9s %9s\n' chapters "stats s" "json s" "peak MB" playthroughs "dot s" "text s" "mermaid s"
for size in "${sizes[@]}"; do
  file="$work/story-$size.json"
  [ -f "$file" ] || python3 scripts/generate-story.py "$size" "$file"
  hyperfine -N --style none --warmup 1 --runs 5 --export-json "$work/stats-$size.json" \
    -n text "$cyd stats $file" -n json "$cyd stats --json $file" \
    -n dot "$cyd graph $file" -n tree "$cyd graph --format text $file" -n mermaid "$cyd graph --format mermaid $file" >/dev/null
  kb=$(/usr/bin/time -f %M "$cyd" stats "$file" 2>&1 >/dev/null | tail -1)
  count=$("$cyd" stats "$file" | sed -n 's/^Playthroughs: //p')
  python3 - "$work/stats-$size.json" "$size" "$kb" "$count" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"{int(sys.argv[2]):9d} {r['text']:9.3f} {r['json']:9.3f} {int(sys.argv[3]) / 1024:9.1f} {sys.argv[4]:>10} {r['dot']:9.3f} {r['tree']:9.3f} {r['mermaid']:9.3f}")
PY
done
