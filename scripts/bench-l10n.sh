#!/usr/bin/env bash
# Benchmarks of translations, on a generated story of 100,000 chapters (release build):
#
# - extract and status against validate of the same story.json (the issue's bound: within 2x),
#   side by side in alternated rounds (scripts/alternate.py: each round runs each once, a ratio
#   is the median of the rounds'); the French translation is whole (every string, made by
#   prefixing each source);
# - the bad day: a translation with thousands of findings (every tenth entry stale, every
#   twentieth of an unknown id, every fiftieth with its [[name]] dropped), validated with --lang
#   (untranslated strings reported too);
# - reading: `cyd read ID` with one scripted choice, from process start to exit, untranslated and
#   with --lang fr (the bound: 1.2x); adding the story with and without its translation.
#
# usage: scripts/bench-l10n.sh   (BENCH_DIR to keep the files, SCRATCH for the build folder)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-$(mktemp -d)}
scratch=${SCRATCH:-.build}
mkdir -p "$work"
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --scratch-path "$scratch" --product cyd >/dev/null
  cyd=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/cyd
fi
story="$work/story"
mkdir -p "$story"
[ -f "$story/story.json" ] || python3 scripts/generate-story.py 100000 "$story/story.json"
rm -rf "$story/translations"
"$cyd" l10n init fr --story "$story" >/dev/null
# Every msgstr filled: "FR " + the source, as one line.
python3 - "$story/translations/fr.po" <<'PY'
import sys, re
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
out, entry = [], []
def flush():
    if not entry: return
    block = "\n".join(entry)
    m = re.search(r'\nmsgid ((?:".*"\n?)+)\nmsgstr ""$', block)
    if m and 'msgid ""\nmsgstr ""\n"Project' not in block:
        source = "".join(re.findall(r'"(.*)"', m.group(1)))
        block = block[:m.start()] + "\nmsgid " + m.group(1) + '\nmsgstr "FR ' + source + '"'
    out.append(block)
for line in text.split("\n"):
    if line == "":
        flush(); entry = []
    else:
        entry.append(line)
flush()
open(path, "w", encoding="utf-8").write("\n\n".join(out) + "\n")
PY
"$cyd" l10n status --story "$story"
# The bad day: a copy whose translation has thousands of findings.
bad="$work/bad"
rm -rf "$bad" && mkdir -p "$bad/translations"
cp "$story/story.json" "$bad/story.json"
python3 - "$story/translations/fr.po" "$bad/translations/fr.po" <<'PY'
import sys
blocks = open(sys.argv[1], encoding="utf-8").read().split("\n\n")
out = [blocks[0]]
for n, block in enumerate(blocks[1:], 1):
    if n % 10 == 0: block = block.replace('\nmsgid "', '\nmsgid "Stale: ', 1)
    elif n % 20 == 5: block = block.replace("#. id: ", "#. id: gone-", 1)
    elif n % 50 == 7: block = block.replace("[[name]]", "")
    elif n % 7 == 3: block = block.rsplit("\nmsgstr ", 1)[0] + '\nmsgstr ""'
    out.append(block)
open(sys.argv[2], "w", encoding="utf-8").write("\n\n".join(out))
PY
printf 'fr\n' >"$bad/translations/LINGUAS"
findings=$("$cyd" validate --lang fr --format json "$bad" | python3 -c 'import json,sys; print(sum(len(f["diagnostics"]) for f in json.load(sys.stdin)["files"]))' || true)
echo "the bad day: $findings findings in the flawed translation"

python3 scripts/alternate.py "$work/l10n.json" 5 \
  "validate story.json" "$cyd validate $story/story.json" \
  "l10n extract" "$cyd l10n extract --story $story -o $work/story.pot" \
  "l10n status" "$cyd l10n status --story $story" \
  "validate --lang fr (clean)" "$cyd validate --lang fr $story" \
  "validate --lang fr (bad day)" "$cyd validate --lang fr $bad"

# Reading: the story added twice (plain copy and translated), one choice taken.
export CYD_HOME="$work/library"
rm -rf "$CYD_HOME"
plain="$work/plain"
mkdir -p "$plain" && cp "$story/story.json" "$plain/story.json"
# Adding, with and without the translation, each into a new library, in alternated rounds.
python3 scripts/alternate.py "$work/add.json" 5 --prepare "rm -rf '$work/add-library'" \
  "add" "env CYD_HOME=$work/add-library $cyd add $plain" \
  "add with French" "env CYD_HOME=$work/add-library $cyd add $story"
"$cyd" add "$plain" >/dev/null
"$cyd" add "$story" >/dev/null
id_plain=$("$cyd" list --json | python3 -c 'import json,sys; print(next(s["id"] for s in json.load(sys.stdin) if s["source"].endswith("/plain")))')
id_fr=$("$cyd" list --json | python3 -c 'import json,sys; print(next(s["id"] for s in json.load(sys.stdin) if s["source"].endswith("/story")))')
printf '1\nq\n' >"$work/input"
python3 scripts/alternate.py "$work/read.json" 30 --warmup 3 --stdin "$work/input" \
  "read" "$cyd read $id_fr --restart --name Ana --lang original" \
  "read --lang fr" "$cyd read $id_fr --restart --name Ana --lang fr" \
  "read (story without translations)" "$cyd read $id_plain --restart --name Ana"

python3 - "$work/l10n.json" "$work/read.json" "$work/add.json" <<'PY'
import statistics, sys
sys.path.insert(0, "scripts")
from alternate import load, medians, paired
from bench_summary import at_most, record
l10n = medians(sys.argv[1])
base = l10n["validate story.json"]
print("100,000 chapters (medians of 5 alternated rounds; against validate, the median of the rounds' ratios):")
for name, value in l10n.items():
    print(f"  {name:32s} {value:7.3f} s   {paired(sys.argv[1], name, 'validate story.json'):5.2f}x validate")
bounds = {"l10n extract": 2, "l10n status": 2, "validate --lang fr (clean)": 3, "validate --lang fr (bad day)": None}
for name, bound in bounds.items():
    if name in l10n:
        r = paired(sys.argv[1], name, "validate story.json")
        record("translations", f"{name}, 100,000 chapters, whole French", f"{l10n[name]:.3f} s", f"validate {base:.3f} s", r,
               f"at most {bound}x validate" if bound else "", at_most(r, bound) if bound else None)
add = load(sys.argv[3])
plain_s, fr_s = statistics.median(add["add"]["times"]), statistics.median(add["add with French"]["times"])
plain_kb, fr_kb = statistics.median(add["add"]["peak_kb"]), statistics.median(add["add with French"]["peak_kb"])
ratio = paired(add, "add with French", "add")
print(f"add 100,000 chapters into a new library (medians of 5 alternated rounds): without a translation {plain_s:.2f} s, {plain_kb / 1024:.0f} MB peak; "
      f"with French (every string) {fr_s:.2f} s, {fr_kb / 1024:.0f} MB peak; {ratio:.2f}x")
record("translations", "add with a whole translation / without", f"{fr_s:.2f} s", f"without {plain_s:.2f} s", ratio, "at most 2x", at_most(ratio, 2))
record("translations", "that add's peak memory / without", f"{fr_kb / 1024:.0f} MB", f"without {plain_kb / 1024:.0f} MB", fr_kb / plain_kb, "at most 2x", at_most(fr_kb / plain_kb, 2))
read = medians(sys.argv[2])
base = read["read"]
print("reading one chapter and one choice (medians of 30 alternated rounds):")
for name, value in read.items():
    print(f"  {name:36s} {value * 1000:7.1f} ms  {paired(sys.argv[2], name, 'read'):5.2f}x")
ratio = paired(sys.argv[2], "read --lang fr", "read")
record("translations", "read a chapter and one choice with --lang fr / as written", f"{read['read --lang fr'] * 1000:.1f} ms", f"{base * 1000:.1f} ms", ratio, "at most 1.2x", at_most(ratio, 1.2))
PY
