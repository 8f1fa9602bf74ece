#!/usr/bin/env bash
# Benchmark: `cyd validate` (release build, all rules) against check-jsonschema with our schema
# and python's json.load alone, side by side on generated stories of 1k, 10k and 100k chapters,
# each clean and flawed (the same story with 2% of its chapters broken: misspelt choice
# targets, each with a suggestion, and orphan chapters: thousands of findings at 100k).
# Prints medians, ratios (cyd against json.load: the median of alternated rounds' ratios,
# scripts/alternate.py) and peak memory. Needs hyperfine, python3 and check-jsonschema
# (scripts/install-deps.sh installs them).
#
# Then the days that are not generated: a story whose chapters carry long texts (curly quotes,
# dashes, accents) and a few hundred warnings, against json.load; and a flood of 200,000
# findings, each format's time and peak memory (reports stream, so JSON and SARIF should cost
# about what text does).
#
# usage: scripts/bench-validate.sh [SIZES...]   (default: 1000 10000 100000)
#        LONG_CHAPTERS=40000 (the long-text story), FLOOD=0 to skip the flood
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000 100000}")
read -r -a sizes <<<"${sizes[*]}"
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
: >"$work/memory.txt"

# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd >/dev/null
  cyd=$(swift build -c release --show-bin-path)/cyd
fi
schema=Schemas/story.schema.json

for size in "${sizes[@]}"; do
  file="$work/story-$size.json"
  flawed="$work/flawed-$size.json"
  [ -f "$file" ] || python3 scripts/generate-story.py "$size" "$file"
  [ -f "$flawed" ] || python3 scripts/generate-story.py "$size" "$flawed" --flaws $((size / 50))
  # The slow peer gets fewer runs on big files; medians are still from several runs.
  slow_runs=5
  [ "$size" -ge 100000 ] && slow_runs=3
  # In alternated rounds (scripts/alternate.py): each round runs each once, so a slow spell of
  # this shared machine falls on cyd and json.load alike. The flawed story exits 1, as it should.
  python3 scripts/alternate.py "$work/fast-$size.json" 10 \
    cyd "$cyd validate $file" \
    cyd-flawed "$cyd validate $flawed" \
    cyd-flawed-json "$cyd validate --format json $flawed" \
    json.load "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $file"
  hyperfine -N --style none --runs "$slow_runs" --export-json "$work/slow-$size.json" \
    -n check-jsonschema "check-jsonschema --schemafile $schema $file" >/dev/null
  cyd_kb=$(/usr/bin/time -f %M "$cyd" validate "$file" 2>&1 >/dev/null | tail -1)
  flawed_kb=$( (/usr/bin/time -f %M "$cyd" validate "$flawed" 2>&1 >/dev/null || true) | tail -1)
  findings=$("$cyd" validate --format json "$flawed" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["errors"] + s["warnings"])' || true)
  echo "$size $(stat -c %s "$file") $cyd_kb $(stat -c %s "$flawed") $flawed_kb $findings" >>"$work/memory.txt"
done

# Long texts: 8 paragraphs a chapter, 300 unknown placeholders (CYD701 warnings).
long_chapters=${LONG_CHAPTERS:-40000}
long="$work/long-$long_chapters.json"
[ -f "$long" ] || python3 scripts/generate-story.py "$long_chapters" "$long" --long-texts 8 --warnings 300
python3 scripts/alternate.py "$work/long.json" 10 \
  cyd "$cyd validate $long" \
  json.load "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $long"
long_kb=$(/usr/bin/time -f %M "$cyd" validate "$long" 2>&1 >/dev/null | tail -1)
echo "$(stat -c %s "$long") $long_kb" >"$work/long-memory.txt"

# The flood: 200,000 unreachable chapters, every finding shown, in each format.
: >"$work/flood.txt"
if [ "${FLOOD:-1}" != 0 ]; then
  [ -f "$work/unreachable-flood.json" ] || python3 scripts/generate-hostile.py "$work" --only unreachable-flood >/dev/null
  for format in text json github sarif; do
    start=$(date +%s.%N)
    kb=$( ("/usr/bin/time" -f %M "$cyd" validate --max-per-rule 0 --format "$format" "$work/unreachable-flood.json" 2>&1 >/dev/null || true) | tail -1)
    end=$(date +%s.%N)
    echo "$format $(python3 -c "print(round($end - $start, 3))") $kb" >>"$work/flood.txt"
  done
fi

python3 - "$work" "${sizes[@]}" <<'PY'
import json, statistics, sys
sys.path.insert(0, "scripts")
from bench_summary import at_most, record
from alternate import paired
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
    # cyd against json.load: the median of the rounds' ratios (each round ran both).
    clean_ratio, flawed_ratio = paired(f"{work}/fast-{size}.json", "cyd", "json.load"), paired(f"{work}/fast-{size}.json", "cyd-flawed", "json.load")
    print(f"{int(size):>9} {file_bytes / 1e6:>8.1f} {cyd:>7.3f} {flawed:>9.3f} {findings:>9} {flawed / cyd:>13.2f} {load:>12.3f} {clean_ratio:>14.2f} {schema / cyd:>21.1f} {cyd_kb * 1024 / file_bytes:>10.2f} {flawed_kb * 1024 / flawed_bytes:>17.2f}")
    print(f"{'':>9} flawed as json: {results['cyd-flawed-json']:.3f} s ({results['cyd-flawed-json'] / cyd:.2f}x clean text)")
    if size == sizes[-1]:
        area, mb = "validate", file_bytes / 1e6
        record(area, f"{int(size):,} chapters ({mb:.1f} MB), clean", f"{cyd:.3f} s", f"json.load {load:.3f} s", clean_ratio, "at most 0.25x", at_most(clean_ratio, 0.25))
        record(area, f"the same with {findings:,} findings", f"{flawed:.3f} s", f"json.load {load:.3f} s", flawed_ratio, "at most 0.25x", at_most(flawed_ratio, 0.25))
        record(area, "peak memory, clean / file", f"{cyd_kb / 1024:.0f} MB", f"file {mb:.1f} MB", cyd_kb * 1024 / file_bytes, "at most 1.2x", at_most(cyd_kb * 1024 / file_bytes, 1.2))
        record(area, "peak memory, with findings / file", f"{flawed_kb / 1024:.0f} MB", f"file {flawed_bytes / 1e6:.1f} MB", flawed_kb * 1024 / flawed_bytes, "at most 1.2x", at_most(flawed_kb * 1024 / flawed_bytes, 1.2))
        record(area, "check-jsonschema with the schema / cyd", f"{cyd:.3f} s", f"check-jsonschema {schema:.2f} s", schema / cyd, "(the peer is this many times slower)", None)
long = {r["command"]: statistics.median(r["times"]) for r in json.load(open(f"{work}/long.json"))["results"]}
long_bytes, long_kb = map(int, open(f"{work}/long-memory.txt").read().split())
print(f"\nlong texts ({long_bytes / 1e6:.1f} MB, 300 warnings): cyd {long['cyd']:.3f} s, json.load {long['json.load']:.3f} s, "
      f"cyd/json.load {paired(f'{work}/long.json', 'cyd', 'json.load'):.2f}, peak/file {long_kb * 1024 / long_bytes:.2f}")
ratio = paired(f"{work}/long.json", "cyd", "json.load")
record("validate", f"long texts, 40,000 chapters ({long_bytes / 1e6:.1f} MB, 300 warnings)", f"{long['cyd']:.3f} s", f"json.load {long['json.load']:.3f} s", ratio, "at most 0.25x", at_most(ratio, 0.25))
record("validate", "long texts, peak memory / file", f"{long_kb / 1024:.0f} MB", f"file {long_bytes / 1e6:.1f} MB", long_kb * 1024 / long_bytes, "at most 1.2x", at_most(long_kb * 1024 / long_bytes, 1.2))
flood = [line.split() for line in open(f"{work}/flood.txt")]
if flood:
    print("\nflood of 200,000 findings (--max-per-rule 0), one run each:")
    for format, seconds, kb in flood:
        print(f"  {format:>7}: {float(seconds):.2f} s, peak {int(kb) / 1024:.0f} MB")
PY
