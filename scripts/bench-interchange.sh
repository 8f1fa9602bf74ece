#!/usr/bin/env bash
# Benchmark: Twee and Twine archives in and out, and EPUB gamebooks, against `cyd validate` of the
# same story (the target: import and export within 3x validate; an EPUB of 5,000 chapters under
# 5 s and 200 MB). Side by side in one hyperfine run, alternating, so the machine's noise falls
# on all of them alike; prints medians, ratios to validate and peak memory.
#
# The bad day too: a Twee file written the way Twine authors write (a macro in every passage, a
# setter link in every tenth), so the import reports one finding a passage, and `cyd validate`
# of that .twee file (the same import, every rule, positions in the .twee file).
#
# usage: scripts/bench-interchange.sh [CHAPTERS]   (default 100000; BENCH_DIR keeps the files)
set -euo pipefail
cd "$(dirname "$0")/.."
chapters=${1:-100000}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd

story="$work/story-$chapters.json"
[ -f "$story" ] || python3 scripts/generate-story.py "$chapters" "$story"
"$cyd" export twee "$story" -o "$work/story.twee" >/dev/null
"$cyd" export twine "$story" -o "$work/story.html" >/dev/null
# A Twine author's file: a Harlowe macro at the top of every passage, a setter link in every tenth.
python3 - "$work/story.twee" "$work/authored.twee" <<'PY'
import sys
out, count = [], 0
for line in open(sys.argv[1], encoding="utf-8"):
    out.append(line)
    if line.startswith(":: ") and not line.startswith((":: StoryTitle", ":: StoryData", ":: CydMetadata")):
        count += 1
        out.append("(set: $visits to it + 1)\n")
        if count % 10 == 0:
            out.append("[[Count it|Start][$counted to true]]\n")
open(sys.argv[2], "w", encoding="utf-8").writelines(out)
PY
epub_story="$work/story-5000.json"
[ -f "$epub_story" ] || python3 scripts/generate-story.py 5000 "$epub_story"

# -i: the author's file has findings; validate exits 1 for its warnings only under --strict.
hyperfine -N -i --style none --warmup 1 --runs "${RUNS:-7}" --export-json "$work/interchange.json" \
  -n validate "$cyd validate $story" \
  -n "export twee" "$cyd export twee $story -o $work/out.twee" \
  -n "import twee" "$cyd import twee $work/story.twee -o $work/back.json" \
  -n "export twine" "$cyd export twine $story -o $work/out.html" \
  -n "import twine" "$cyd import twine $work/story.html -o $work/back-html.json" \
  -n "import twee, a finding a passage" "$cyd import twee $work/authored.twee -o $work/authored.json" \
  -n "validate story.twee" "$cyd validate --max-per-rule 0 $work/authored.twee" >/dev/null
hyperfine -N --style none --warmup 1 --runs 5 --export-json "$work/epub.json" \
  -n "export epub (5,000 chapters)" "$cyd export epub $epub_story -o $work/book.epub" >/dev/null

: >"$work/peaks.txt"
peak() { # name, command...
  local name=$1
  shift
  local kb
  kb=$( ("/usr/bin/time" -f %M "$@" 2>&1 >/dev/null || true) | tail -1)
  echo "$name	$kb" >>"$work/peaks.txt"
}
peak validate "$cyd" validate "$story"
peak "export twee" "$cyd" export twee "$story" -o "$work/out.twee"
peak "import twee" "$cyd" import twee "$work/story.twee" -o "$work/back.json"
peak "export twine" "$cyd" export twine "$story" -o "$work/out.html"
peak "import twine" "$cyd" import twine "$work/story.html" -o "$work/back-html.json"
peak "import twee, a finding a passage" "$cyd" import twee "$work/authored.twee" -o "$work/authored.json"
peak "validate story.twee" "$cyd" validate --max-per-rule 0 "$work/authored.twee"
peak "export epub (5,000 chapters)" "$cyd" export epub "$epub_story" -o "$work/book.epub"
findings=$( ("$cyd" import twee "$work/authored.twee" -o "$work/authored.json" 2>&1 >/dev/null || true) | grep -c warning || true)
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$work/back.json" "$story" \
  && same="yes" || same="NO"

python3 - "$work" "$story" "$findings" "$same" <<'PY'
import json, os, statistics, sys
work, story, findings, same = sys.argv[1:]
results = {}
for name in ("interchange", "epub"):
    for r in json.load(open(f"{work}/{name}.json"))["results"]:
        results[r["command"]] = (statistics.median(r["times"]), min(r["times"]), max(r["times"]))
peaks = dict(line.rstrip("\n").split("\t") for line in open(f"{work}/peaks.txt"))
base = results["validate"][0]
print(f"story: {os.path.getsize(story) / 1e6:.1f} MB of story.json; its .twee {os.path.getsize(work + '/story.twee') / 1e6:.1f} MB")
print(f"{'command':<34} {'median s':>9} {'range s':>13} {'/ validate':>11} {'peak MB':>8}")
for name, (median, low, high) in results.items():
    ratio = f"{median / base:.2f}" if "epub" not in name else "-"
    print(f"{name:<34} {median:>9.3f} {low:>6.2f}-{high:<6.2f} {ratio:>11} {int(peaks.get(name, 0)) / 1024:>8.0f}")
print(f"\nthe author's file: {findings} findings; import twee of the exported file gives back the same story: {same}")
PY
