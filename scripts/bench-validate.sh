#!/usr/bin/env bash
# Benchmark: `cyd validate` (release build, all rules) against check-jsonschema with our schema
# and python's json.load alone, side by side on generated stories of 1k, 10k and 100k chapters,
# each clean and flawed (the same story with 2% of its chapters broken: misspelt choice
# targets, each with a suggestion, and orphan chapters: thousands of findings at 100k).
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
: >"$work/memory.txt"

swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd
schema=Schemas/story.schema.json

for size in "${sizes[@]}"; do
  file="$work/story-$size.json"
  flawed="$work/flawed-$size.json"
  [ -f "$file" ] || python3 scripts/generate-story.py "$size" "$file"
  [ -f "$flawed" ] || python3 scripts/generate-story.py "$size" "$flawed" --flaws $((size / 50))
  # The slow peer gets fewer runs on big files; medians are still from several runs.
  slow_runs=5
  [ "$size" -ge 100000 ] && slow_runs=3
  # -i: the flawed story exits 1, as it should.
  hyperfine -N -i --style none --warmup 1 --runs 10 --export-json "$work/fast-$size.json" \
    -n cyd "$cyd validate $file" \
    -n cyd-flawed "$cyd validate $flawed" \
    -n cyd-flawed-json "$cyd validate --format json $flawed" \
    -n json.load "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $file" >/dev/null
  hyperfine -N --style none --runs "$slow_runs" --export-json "$work/slow-$size.json" \
    -n check-jsonschema "check-jsonschema --schemafile $schema $file" >/dev/null
  cyd_kb=$(/usr/bin/time -f %M "$cyd" validate "$file" 2>&1 >/dev/null | tail -1)
  flawed_kb=$( (/usr/bin/time -f %M "$cyd" validate "$flawed" 2>&1 >/dev/null || true) | tail -1)
  findings=$("$cyd" validate --format json "$flawed" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["errors"] + s["warnings"])' || true)
  echo "$size $(stat -c %s "$file") $cyd_kb $(stat -c %s "$flawed") $flawed_kb $findings" >>"$work/memory.txt"
done

python3 - "$work" "${sizes[@]}" <<'PY'
import json, statistics, sys
work, sizes = sys.argv[1], sys.argv[2:]
memory = {}
for line in open(f"{work}/memory.txt"):
    size, file_bytes, cyd_kb, flawed_bytes, flawed_kb, findings = line.split()
    memory[size] = (int(file_bytes), int(cyd_kb), int(flawed_bytes), int(flawed_kb), int(findings))
print(f"{'chapters':>9} {'file MB':>8} {'cyd s':>7} {'flawed s':>9} {'findings':>9} {'flawed/clean':>13} {'json.load s':>12} {'cyd/json.load':>14} {'check-jsonschema/cyd':>21} {'peak/file':>10} {'flawed peak/file':>17}")
for size in sizes:
    results = {}
    for kind in ("fast", "slow"):
        for r in json.load(open(f"{work}/{kind}-{size}.json"))["results"]:
            results[r["command"]] = statistics.median(r["times"])
    file_bytes, cyd_kb, flawed_bytes, flawed_kb, findings = memory[size]
    cyd, flawed, load, schema = results["cyd"], results["cyd-flawed"], results["json.load"], results["check-jsonschema"]
    print(f"{int(size):>9} {file_bytes / 1e6:>8.1f} {cyd:>7.3f} {flawed:>9.3f} {findings:>9} {flawed / cyd:>13.2f} {load:>12.3f} {cyd / load:>14.2f} {schema / cyd:>21.1f} {cyd_kb * 1024 / file_bytes:>10.2f} {flawed_kb * 1024 / flawed_bytes:>17.2f}")
    print(f"{'':>9} flawed as json: {results['cyd-flawed-json']:.3f} s ({results['cyd-flawed-json'] / cyd:.2f}x clean text)")
PY
