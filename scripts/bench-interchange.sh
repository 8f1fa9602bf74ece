#!/usr/bin/env bash
# Benchmark: Twee and Twine archives in and out, and EPUB gamebooks, against `cyd validate` of the
# same story (the target: import and export within 3x validate; an EPUB of 5,000 chapters under
# 5 s and 200 MB). Side by side in rounds (validate, then each command once), so the machine's
# noise falls on a command and the validate it is compared with alike; prints medians, the
# median of each round's ratio to validate, and peak memory (GNU time).
#
# The bad day too: a Twee file written the way Twine authors write (a macro in every passage, a
# setter link in every tenth), so the import reports one finding a passage, and `cyd validate`
# of that .twee file (the same import, every rule, positions in the .twee file).
#
# usage: scripts/bench-interchange.sh [CHAPTERS]   (default 100000; BENCH_DIR keeps the files;
#        RUNS=N rounds, default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
chapters=${1:-100000}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd >/dev/null
  cyd=$(swift build -c release --show-bin-path)/cyd
fi

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

# Alternated rounds (scripts/alternate.py): in each, validate and every other command once, so
# that a slow spell of this noisy machine falls on a command and the validate it is compared
# with alike; the ratio of a command is the median of its rounds' ratios.
python3 scripts/alternate.py "$work/interchange.json" "${RUNS:-7}" \
  validate "$cyd validate $story" \
  "export twee" "$cyd export twee $story -o $work/out.twee" \
  "import twee" "$cyd import twee $work/story.twee -o $work/back.json" \
  "export twine" "$cyd export twine $story -o $work/out.html" \
  "import twine" "$cyd import twine $work/story.html -o $work/back-html.json" \
  "import twee, a finding a passage" "$cyd import twee $work/authored.twee -o $work/authored.json" \
  "validate story.twee" "$cyd validate --max-per-rule 0 $work/authored.twee" \
  "export epub (5,000 chapters)" "$cyd export epub $epub_story -o $work/book.epub"

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
sys.path.insert(0, "scripts")
from alternate import load, paired
from bench_summary import at_most, record
results = load(f"{work}/interchange.json")
times = {name: result["times"] for name, result in results.items()}
peaks = dict(line.rstrip("\n").split("\t") for line in open(f"{work}/peaks.txt"))
base = times["validate"]
print(f"story: {os.path.getsize(story) / 1e6:.1f} MB of story.json; its .twee {os.path.getsize(work + '/story.twee') / 1e6:.1f} MB; {len(base)} rounds")
print(f"{'command':<34} {'median s':>9} {'range s':>13} {'/ validate':>11} {'ratio range':>12} {'peak MB':>8}")
for name, runs in times.items():
    ratios = [run / v for run, v in zip(runs, base)]
    ratio = f"{statistics.median(ratios):.2f}" if "epub" not in name else "-"
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}" if "epub" not in name else "-"
    print(f"{name:<34} {statistics.median(runs):>9.3f} {min(runs):>6.2f}-{max(runs):<6.2f} {ratio:>11} {spread:>12} {int(peaks.get(name, 0)) / 1024:>8.0f}")
print(f"\nthe author's file: {findings} findings; import twee of the exported file gives back the same story: {same}")
story_bytes = os.path.getsize(story)
for name in ("export twee", "import twee", "export twine", "import twine"):
    r = paired(results, name, "validate")
    record("interchange", f"{name}, 100,000 chapters", f"{statistics.median(times[name]):.3f} s", f"validate {statistics.median(base):.3f} s", r, "at most 2x validate", at_most(r, 2))
    peak = int(peaks.get(name, 0)) * 1024 / story_bytes
    record("interchange", f"{name}: peak memory / story.json", f"{int(peaks.get(name, 0)) / 1024:.0f} MB", f"file {story_bytes / 1e6:.1f} MB", peak, "at most 3x", at_most(peak, 3))
twee, imported = statistics.median(times["validate story.twee"]), statistics.median(times["import twee, a finding a passage"])
record("interchange", "validate story.twee (a finding a passage) / import twee of it", f"{twee:.3f} s", f"import twee {imported:.3f} s", twee / imported, "at most 2x", at_most(twee / imported, 2))
epub = statistics.median(times["export epub (5,000 chapters)"])
epub_mb = int(peaks.get("export epub (5,000 chapters)", 0)) / 1024
record("interchange", "export epub, 5,000 chapters", f"{epub:.2f} s, {epub_mb:.0f} MB", "", None, "under 5 s and 200 MB", epub < 5 and epub_mb < 200)
PY
