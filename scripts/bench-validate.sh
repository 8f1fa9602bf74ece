#!/usr/bin/env bash
# Benchmark: `cyd validate` (release build, all rules) against check-jsonschema with our schema
# and python's json.load alone, side by side on generated stories of 1k, 10k and 100k chapters.
# Prints medians, ratios and peak memory. Needs hyperfine, python3 and check-jsonschema
# (scripts/install-deps.sh installs them).
#
# usage: scripts/bench-validate.sh [SIZES...]   (default: 1000 10000 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000 100000}")
read -r -a sizes <<<"${sizes[*]}"
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd
schema=Schemas/story.schema.json

for size in "${sizes[@]}"; do
  file="$work/story-$size.json"
  [ -f "$file" ] || python3 scripts/generate-story.py "$size" "$file"
  # The slow peer gets fewer runs on big files; medians are still from several runs.
  slow_runs=5
  [ "$size" -ge 100000 ] && slow_runs=3
  hyperfine --style none --warmup 1 --runs 10 --export-json "$work/fast-$size.json" \
    -n cyd "$cyd validate $file" \
    -n json.load "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $file" >/dev/null
  hyperfine --style none --runs "$slow_runs" --export-json "$work/slow-$size.json" \
    -n check-jsonschema "check-jsonschema --schemafile $schema $file" >/dev/null
  cyd_kb=$(/usr/bin/time -f %M "$cyd" validate "$file" 2>&1 >/dev/null | tail -1)
  py_kb=$(/usr/bin/time -f %M python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$file" 2>&1 >/dev/null | tail -1)
  echo "$size $(stat -c %s "$file") $cyd_kb $py_kb" >>"$work/memory.txt"
done

python3 - "$work" "${sizes[@]}" <<'PY'
import json, statistics, sys
work, sizes = sys.argv[1], sys.argv[2:]
memory = {}
for line in open(f"{work}/memory.txt"):
    size, file_bytes, cyd_kb, py_kb = line.split()
    memory[size] = (int(file_bytes), int(cyd_kb), int(py_kb))
print(f"{'chapters':>9} {'file MB':>8} {'cyd s':>8} {'json.load s':>12} {'check-jsonschema s':>19} {'cyd/json.load':>14} {'check-jsonschema/cyd':>21} {'cyd peak MB':>12} {'peak/file':>10}")
for size in sizes:
    results = {}
    for kind in ("fast", "slow"):
        for r in json.load(open(f"{work}/{kind}-{size}.json"))["results"]:
            results[r["command"]] = statistics.median(r["times"])
    file_bytes, cyd_kb, _ = memory[size]
    cyd, load, schema = results["cyd"], results["json.load"], results["check-jsonschema"]
    print(f"{int(size):>9} {file_bytes / 1e6:>8.1f} {cyd:>8.3f} {load:>12.3f} {schema:>19.3f} {cyd / load:>14.2f} {schema / cyd:>21.1f} {cyd_kb / 1024:>12.1f} {cyd_kb * 1024 / file_bytes:>10.2f}")
PY
